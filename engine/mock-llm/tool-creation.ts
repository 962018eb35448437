// Tool-creation requests (engine/benchmarks/dialogtool/creation/prompt.ts), answered with code given to the server: for
// tests and users (`mock-llm --code-answers DIR`), who write the Python each tool is answered with. A request is one when its system
// message opens with the creation marker; its user message names the tool.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
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

/** Tool names as files may give them: what the creation prompt's "Tool name:" line can hold. */
const TOOL_FILE = /^([A-Za-z_][A-Za-z0-9_]*)\.py$/;

/**
 * The code answers of a folder: `<tool>.py` answers that tool's creation request. Other files are
 * left alone; a folder without one .py file is an error (a mistyped path would answer nothing).
 */
export function readCodeAnswers(dir: string): Map<string, string> {
  const answers = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const tool = TOOL_FILE.exec(entry.name)?.[1];
    if (tool !== undefined && entry.isFile()) answers.set(tool, readFileSync(join(dir, entry.name), "utf8"));
  }
  if (answers.size === 0) throw new Error(`${dir} holds no <tool>.py file to answer with`);
  return answers;
}
