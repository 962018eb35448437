// DialogTool asks the agent to confirm with the user before it calls a transactional tool (a
// change, a deletion, a message sent: the pack's apps.ts marks them). A transactional call is
// confirmed when the user's go-ahead covers it at the dialogue turn it is made in:
// - the user's message that opened this dialogue turn said yes to the agent's question just
//   before it (the agent asked and got a yes): every transactional tool is covered;
// - or the reference itself calls that tool in this dialogue turn: where the scenario's own
//   solution acts on the user's request without asking, the request was the go-ahead.
// So the reference always scores 1.0, and an agent that acts where the reference still asks (or
// before the user has answered) loses the call.
import type { Message } from "../../../episode/types.js";
import type { WorldPack } from "../../../packs/types.js";
import { isTransactional } from "../../../scenario/apps.js";
import type { Scenario } from "../../../scenario/model.js";
import { isAffirmative } from "./actions.js";
import type { ActionCall, AgentAction } from "./types.js";

type Truth = Exclude<AgentAction, { kind: "none" }>;

/** The reference's agent steps by dialogue turn. */
export function referenceTurns(scenario: Scenario): Truth[][] {
  const byTurn: Truth[][] = [[]];
  for (const step of scenario.reference) {
    if (step.kind === "user_text") byTurn.push([]);
    else if (step.kind === "agent_text") byTurn[byTurn.length - 1]?.push({ kind: "text", text: step.text });
    else if (step.kind === "agent_calls")
      byTurn[byTurn.length - 1]?.push({ kind: "calls", calls: step.calls.map((c) => ({ tool: c.tool, arguments: c.arguments })) });
  }
  return byTurn;
}

/** The transactional tools among these actions' calls, each once, sorted. */
export function transactionalTools(pack: WorldPack, actions: readonly AgentAction[]): string[] {
  const calls: ActionCall[] = actions.flatMap((a) => (a.kind === "calls" ? a.calls : []));
  return [...new Set(calls.map((c) => c.tool).filter((t) => isTransactional(pack, t)))].sort();
}

/** Whether the user's message opening dialogue turn `d` (d >= 1) said yes to a question the agent had just asked. */
function saidYes(messages: readonly Message[], d: number): boolean {
  const userAt = messages
    .map((m, i) => ({ m, i }))
    .filter(({ m }) => m.sender === "user" && m.recipient === "agent" && m.scripted !== true);
  const opening = userAt[d - 1];
  if (d < 1 || opening === undefined || !isAffirmative(opening.m.content)) return false;
  const before = messages.slice(0, opening.i).filter((m) => m.sender === "agent" && m.recipient === "user");
  return before[before.length - 1]?.content.includes("?") === true;
}

/** The transactional tools (of `transactional`) the user's go-ahead covers at dialogue turn `d`. */
export function goAhead(scenario: Scenario, messages: readonly Message[], d: number, transactional: readonly string[]): string[] {
  if (saidYes(messages, d)) return [...transactional];
  const byReference = new Set((referenceTurns(scenario)[d] ?? []).flatMap((t) => (t.kind === "calls" ? t.calls.map((c) => c.tool) : [])));
  return transactional.filter((t) => byReference.has(t));
}
