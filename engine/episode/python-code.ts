// The text of a request to the execution environment. Upstream the agent's tool call becomes three
// lines of Python that the environment runs in a console; we never run it, but keep the same text
// on the bus so trajectories read like upstream ones and SANDBOX milestones on `content` still work.
import type { JsonValue } from "../base/json.js";
import { pyRepr } from "../python/repr.js";

/** What the user's end_conversation request says (upstream's scripted demonstrations use it too). */
export const END_CONVERSATION_CODE = "end_conversation()";

/**
 * The call id becomes part of Python variable names. Upstream an id that is not an identifier
 * gave the agent a SyntaxError; since the text is only a record here, we make it one instead.
 */
export function pythonIdentifierPrefix(callId: string): string {
  const cleaned = callId.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

function threeLines(callId: string, functionName: string, parametersLiteral: string): string {
  const v = pythonIdentifierPrefix(callId);
  return [
    `${v}_parameters = ${parametersLiteral}`,
    `${v}_response = ${functionName}(**${v}_parameters)`,
    `print(repr(${v}_response))`,
  ].join("\n");
}

/** The upstream three-line call: parameters as a Python dict literal, the call, print(repr(...)). */
export function toolCallCode(callId: string, functionName: string, args: Readonly<Record<string, JsonValue>>): string {
  return threeLines(callId, functionName, pyRepr(args));
}

/**
 * A call whose argument text is not a JSON object. The parameters line decodes the raw text, so
 * the record shows exactly what the agent sent and why it could not run.
 */
export function malformedToolCallCode(callId: string, functionName: string, rawArguments: string): string {
  return threeLines(callId, functionName, `json.loads(${pyRepr(rawArguments)})`);
}
