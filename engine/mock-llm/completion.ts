// The chat.completion object sent back, and the faults that change its content rather than the
// HTTP exchange. Nothing in it depends on the clock, so the same request gets the same bytes.
import type { JsonObject } from "../base/json.js";
import type { Fault } from "./faults.js";
import { EXTRA_CALL_ID_PREFIX } from "./played-turns.js";
import type { ScriptedReply } from "./reply.js";
import type { ChatRequest } from "./wire.js";

const DEFAULT_UNKNOWN_TOOL = "unknown_tool";

/** Applies the malformed-arguments, unknown-tool and extra-call faults to the scripted reply, in order. */
export function applyReplyFaults(reply: ScriptedReply, faults: readonly Fault[], request: ChatRequest): ScriptedReply {
  let out = reply;
  for (const fault of faults) {
    if (fault.kind === "unknown-tool") {
      const offered = new Set(request.tools.map((t) => t.name));
      let name = fault.name ?? DEFAULT_UNKNOWN_TOOL;
      // Unknown means not on offer, whatever the requested name.
      while (offered.has(name)) name = `${name}_x`;
      out = { ...out, content: null, toolCalls: [{ id: `call_unknown_${reply.step ?? "done"}`, name, arguments: "{}" }] };
    } else if (fault.kind === "extra-call") {
      // The id marks the detour, so the next request still gets the step it put off (played-turns.ts).
      out = {
        ...out,
        content: null,
        toolCalls: [{ id: `${EXTRA_CALL_ID_PREFIX}${reply.step ?? "done"}`, name: fault.tool, arguments: "{}" }],
      };
    } else if (fault.kind === "malformed-arguments") {
      const [first, ...rest] = out.toolCalls;
      // Cut short like a reply truncated by a token limit: "{...}" without its closing brace.
      if (first) out = { ...out, toolCalls: [{ ...first, arguments: first.arguments.slice(0, -1) }, ...rest] };
    }
  }
  return out;
}

/** A rough token count (4 characters a token), only so that `usage` has plausible numbers. */
const tokens = (text: string): number => Math.ceil(text.length / 4);

export function chatCompletion(reply: ScriptedReply, model: string, requestNumber: number, promptText: string): JsonObject {
  const toolCalls = reply.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
  const message: JsonObject = { role: "assistant", content: reply.content, refusal: null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const completionText = (reply.content ?? "") + reply.toolCalls.map((c) => c.name + c.arguments).join("");
  const promptTokens = tokens(promptText);
  const completionTokens = tokens(completionText);
  return {
    id: `chatcmpl-mock-${requestNumber}`,
    object: "chat.completion",
    // Fixed: the mock never reads the clock, so its answers are reproducible byte for byte.
    created: 0,
    model,
    system_fingerprint: "toolsandbox-mock-llm",
    choices: [{ index: 0, message, logprobs: null, finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}
