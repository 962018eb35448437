// What a draft is made from, read off a finished run's messages after the opening: the turns in
// order (the agent's calls and texts, the user's texts, the end), each call with what it returned
// and whether it failed, and the world changes each call made. Nothing is re-played: the run's own
// record is the evidence every inference in the draft points back to.
import type { JsonValue } from "../base/json.js";
import type { Message } from "../episode/types.js";
import { firstUserMessageIndex } from "../evaluation/evaluate.js";
import type { Trajectory } from "../trajectory/trajectory.js";
import type { RowChange } from "../world/types.js";

export interface RunCall {
  /** The call's id in the run (openai_tool_call_id). */
  readonly id: string;
  /** The tool's real name: the answer's trace names it when the agent called it by a scrambled one. */
  tool: string;
  /** Null when the model's argument text was not a JSON object. */
  readonly arguments: Readonly<Record<string, JsonValue>> | null;
  readonly requestIndex: number;
  /** The index of the execution environment's answer; null when none came. */
  responseIndex: number | null;
  /** The tool's result (its trace), or the error text of a failed call. */
  result: JsonValue;
  /** The exception the call raised, if it failed. */
  exception: string | null;
  /** The world changes its answer carried (parallel calls' land together on the first answer). */
  changes: readonly RowChange[];
}

export type RunTurn =
  | { readonly kind: "calls"; readonly calls: RunCall[] }
  | { readonly kind: "agent_text"; readonly text: string; readonly index: number }
  | { readonly kind: "user_text"; readonly text: string; readonly index: number }
  | { readonly kind: "end_conversation" };

export interface RunFacts {
  /** The opening: the user's first message. */
  readonly opening: string;
  readonly firstUserIndex: number;
  /** The turns after the opening, in order. */
  readonly turns: readonly RunTurn[];
  readonly calls: readonly RunCall[];
  /** Every user text, the opening first. */
  readonly userTexts: readonly string[];
}

export function runFacts(trajectory: Trajectory): RunFacts {
  const messages = trajectory.messages;
  const first = firstUserMessageIndex(messages);
  const turns: RunTurn[] = [];
  const calls: RunCall[] = [];
  const pending = new Map<string, RunCall>();
  let open: RunCall[] | null = null;
  for (const m of messages.slice(first + 1)) {
    if (m.sender === "agent" && m.recipient === "execution_environment") {
      const call = callOf(m);
      if (open === null) {
        open = [];
        turns.push({ kind: "calls", calls: open });
      }
      open.push(call);
      calls.push(call);
      pending.set(call.id, call);
      continue;
    }
    open = null;
    if (m.sender === "execution_environment" && m.recipient === "agent" && m.openai_tool_call_id !== null) {
      const call = pending.get(m.openai_tool_call_id);
      if (call === undefined) continue;
      pending.delete(call.id);
      call.responseIndex = m.sandbox_message_index;
      call.exception = m.tool_call_exception;
      const trace = m.tool_trace?.[0];
      call.result = trace ? trace.result : m.tool_call_exception === null ? null : m.content;
      if (trace) call.tool = trace.tool_name;
    } else if (m.sender === "agent" && m.recipient === "user") {
      turns.push({ kind: "agent_text", text: m.content, index: m.sandbox_message_index });
    } else if (m.sender === "user" && m.recipient === "agent") {
      turns.push({ kind: "user_text", text: m.content, index: m.sandbox_message_index });
    } else if (m.sender === "user" && m.recipient === "execution_environment") {
      turns.push({ kind: "end_conversation" });
    }
  }
  const byResponse = new Map(calls.filter((c) => c.responseIndex !== null).map((c) => [c.responseIndex!, c]));
  for (const event of trajectory.events) {
    if (event.type !== "world") continue;
    const call = byResponse.get(event.index);
    if (call) call.changes = event.changes;
  }
  const opening = messages[first]?.content ?? "";
  const userTexts = [opening, ...turns.flatMap((t) => (t.kind === "user_text" ? [t.text] : []))];
  return { opening, firstUserIndex: first, turns, calls, userTexts };
}

function callOf(m: Message): RunCall {
  const id = m.openai_tool_call_id ?? m.tool_call?.id ?? `message_${m.sandbox_message_index}`;
  const tool = m.tool_call?.name ?? m.openai_function_name ?? "";
  return {
    id,
    tool,
    arguments: m.tool_call?.arguments ?? null,
    requestIndex: m.sandbox_message_index,
    responseIndex: null,
    result: null,
    exception: null,
    changes: [],
  };
}
