// Tool-creation requests (engine/benchmarks/dialogtool/creation/prompt.ts), answered with code given to the server: for
// tests, which write the Python each tool is answered with. A request is one when its system
// message opens with the creation marker; its user message names the tool.
import { TOOL_CREATION_MARKER } from "../benchmarks/dialogtool/creation/prompt.js";
import { MockLlmError } from "./http-error.js";
import type { ScriptedReply } from "./reply.js";
import type { ChatRequest } from "./wire.js";

/** The tool a tool-creation request asks for, or null when the request is not one. */
export function toolCreationTarget(request: ChatRequest): string | null {
  const system = request.messages.find((m) => m.role === "system");
  if (!system?.content.startsWith(TOOL_CREATION_MARKER)) return null;
  const user = request.messages.find((m) => m.role === "user");
  const name = user?.content.match(/^Tool name: (\S+)$/m)?.[1];
  if (!name) throw new MockLlmError(400, "a tool-creation request without a 'Tool name:' line", "invalid_request_error", null, "messages");
  return name;
}

/** The reply to a tool-creation request: the tool's code in a python block. */
export function toolCreationReply(tool: string, codeAnswers: ReadonlyMap<string, string>): ScriptedReply {
  const code = codeAnswers.get(tool);
  if (code === undefined)
    throw new MockLlmError(404, `mock-llm has no code for the tool ${tool}`, "invalid_request_error", "no_code_answer");
  return { content: `Here is the function.\n\n\`\`\`python\n${code.trimEnd()}\n\`\`\`\n`, toolCalls: [], step: null };
}
