// The two lists every peer metric compares: the tool calls the agent made, read off the message
// bus with the outcome the execution environment gave each, and the calls of the scenario's
// reference solution. ToolTalk calls these "predictions" and "ground truth".
import type { Message, ToolCall } from "../episode/types.js";
import { callArguments, callableTools, type CallArguments } from "../episode/tool-calls.js";
export { callArguments, type CallArguments };
import type { ReferenceCall, Scenario } from "../scenario/model.js";
import type { ToolDefinition } from "../tools/types.js";

/** The tools of the scenario's pack by name. */
export type ToolLookup = (name: string) => ToolDefinition | undefined;

/**
 * What became of a call: "succeeded" (the environment answered without an exception), "failed"
 * (it answered with one), or "unanswered" (the episode ended before an answer, e.g. under
 * `invalid_tool_call: end`; such a call never ran).
 */
export type CallOutcome = "succeeded" | "failed" | "unanswered";

export interface AgentCall {
  /** sandbox_message_index of the request. */
  readonly message_index: number;
  /** Null when an agent message to the environment carries no structured call. */
  readonly call: ToolCall | null;
  /** The catalog name of the tool called ("" when there is no call); see `agentCalls`. */
  readonly name: string;
  /** The name the agent used: differs from `name` only under tool-name scrambling. */
  readonly agent_facing_name: string;
  readonly arguments: CallArguments;
  readonly outcome: CallOutcome;
  /** The environment's exception text on a failed call. */
  readonly exception: string | null;
}

/**
 * The agent's requests to the execution environment in bus order (parallel calls stay in the
 * order the agent listed them). Messages the scenario wrote before any role spoke are not the
 * agent's doing and are left out.
 *
 * Metrics compare catalog names: `realName` maps the names the agent saw (scrambled under the
 * tool-name augmentation) back to the catalog's, so they line up with the reference calls.
 *
 * A response answers the earliest still-unanswered request with its openai_tool_call_id that
 * precedes it; matching on position as well as id keeps an agent that reuses ids across turns
 * from having one turn's result read as another's.
 */
export function agentCalls(messages: readonly Message[], realName: (agentFacing: string) => string = (n) => n): readonly AgentCall[] {
  const requests: { message: Message; outcome: CallOutcome; exception: string | null }[] = [];
  const pending = new Map<string, number[]>();
  for (const message of messages) {
    if (message.sender === "agent" && message.recipient === "execution_environment" && message.scripted !== true) {
      const slot = requests.length;
      requests.push({ message, outcome: "unanswered", exception: null });
      const id = message.openai_tool_call_id;
      if (id !== null) pending.set(id, [...(pending.get(id) ?? []), slot]);
      continue;
    }
    if (message.sender !== "execution_environment" || message.recipient !== "agent") continue;
    const id = message.openai_tool_call_id;
    const waiting = id === null ? undefined : pending.get(id);
    const slot = waiting?.shift();
    const request = slot === undefined ? undefined : requests[slot];
    if (!request) continue;
    request.exception = message.tool_call_exception;
    request.outcome = message.tool_call_exception === null ? "succeeded" : "failed";
  }
  return requests.map(({ message, outcome, exception }) => {
    const call = message.tool_call ?? null;
    return {
      message_index: message.sandbox_message_index,
      call,
      name: call ? realName(call.name) : "",
      agent_facing_name: call?.name ?? "",
      arguments: call ? callArguments(call) : { ok: false, raw: "" },
      outcome,
      exception,
    };
  });
}

/** Every call of the reference solution, in solution order (parallel calls in listed order). */
export function referenceCalls(scenario: Scenario): readonly ReferenceCall[] {
  return scenario.reference.flatMap((step) => (step.kind === "agent_calls" ? step.calls : []));
}

/** Agent-facing name -> catalog name for a scenario's agent (identity without scrambling). */
export function catalogNameOf(scenario: Scenario): (agentFacing: string) => string {
  const callable = callableTools(scenario, "agent");
  return (name) => callable.get(name)?.name ?? name;
}
