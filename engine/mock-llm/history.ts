// The conversation a request's history holds, as the reference-step kinds the mock plays. Both
// sides' histories are read here: which step comes next is the count of turns already taken, and
// which of several look-alike scenarios is meant is the one whose reference the turns agree with.
import { isDeepStrictEqual } from "node:util";
import { isJsonObject, type JsonObject } from "../base/json.js";
import type { ReferenceStep, Scenario } from "../scenario/model.js";
import { isPackToolName, realNameOf } from "./tool-names.js";
import type { ChatRequest, WireMessage } from "./wire.js";

export type PlayedTurn =
  | { readonly kind: "agent_text"; readonly text: string }
  /** Tool names are the catalog's (unscrambled). */
  | { readonly kind: "agent_calls"; readonly calls: readonly { readonly tool: string; readonly arguments: JsonObject }[] }
  | { readonly kind: "user_text"; readonly text: string };

type AssistantMessage = Extract<WireMessage, { role: "assistant" }>;

/**
 * The agent's conversation after the opening (its first user message). An assistant turn that
 * cannot be a reference step, because it calls a tool the request does not offer or its
 * arguments are not a JSON object (what the unknown-tool and malformed-arguments faults produce),
 * is left out, so an agent that recovers from an injected fault gets the step it was owed.
 */
export function agentConversation(request: ChatRequest): PlayedTurn[] {
  const offered = new Set(request.tools.map((t) => t.name));
  const opening = request.messages.findIndex((m) => m.role === "user");
  const turns: PlayedTurn[] = [];
  for (const m of request.messages.slice(opening + 1)) {
    if (m.role === "user") turns.push({ kind: "user_text", text: m.content });
    else if (m.role === "assistant") {
      const turn = assistantTurn(m, offered);
      if (turn) turns.push(turn);
    }
  }
  return turns;
}

function assistantTurn(m: AssistantMessage, offered: ReadonlySet<string>): PlayedTurn | null {
  if (m.toolCalls.length === 0) return { kind: "agent_text", text: m.content ?? "" };
  const calls: { tool: string; arguments: JsonObject }[] = [];
  for (const call of m.toolCalls) {
    const args = parseObject(call.arguments);
    // A tool of no pack is a fault's or a model's invention; a pack's tool not offered now was
    // offered earlier (DialogTool's hierarchical selection offers one app's tools at a time).
    if ((!offered.has(call.name) && !isPackToolName(call.name)) || args === null) return null;
    calls.push({ tool: realNameOf(call.name), arguments: args });
  }
  return { kind: "agent_calls", calls };
}

function parseObject(text: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

export interface UserConversation {
  /** The simulated user's first words: the scripted opening, which is no reference step. */
  readonly opening: string | null;
  readonly turns: readonly PlayedTurn[];
}

/**
 * The simulated user's conversation. Its roles are reversed (its own words are "assistant", the
 * agent's "user"), and the real conversation follows the last system message: demonstrations,
 * each under its own system message, come before it.
 */
export function userConversation(request: ChatRequest): UserConversation {
  const lastSystem = request.messages.map((m) => m.role).lastIndexOf("system");
  let opening: string | null = null;
  const turns: PlayedTurn[] = [];
  for (const m of request.messages.slice(lastSystem + 1)) {
    if (m.role === "user") turns.push({ kind: "agent_text", text: m.content });
    else if (m.role === "assistant" && m.toolCalls.length === 0) {
      if (opening === null && turns.length === 0) opening = m.content ?? "";
      else turns.push({ kind: "user_text", text: m.content ?? "" });
    }
  }
  return { opening, turns };
}

/** True when the turns so far are the start of the scenario's reference (as far as the side sees it). */
export function agreesWithReference(scenario: Scenario, turns: readonly PlayedTurn[], visible: readonly ReferenceStep["kind"][]): boolean {
  const reference = scenario.reference.filter((s) => visible.includes(s.kind));
  return turns.every((turn, i) => {
    const step = reference[i];
    if (step === undefined || step.kind !== turn.kind) return false;
    if (step.kind === "agent_calls" && turn.kind === "agent_calls") {
      return (
        step.calls.length === turn.calls.length &&
        step.calls.every((c, j) => c.tool === turn.calls[j]?.tool && isDeepStrictEqual(c.arguments, turn.calls[j]?.arguments))
      );
    }
    return (
      (step.kind === "agent_text" || step.kind === "user_text") &&
      (turn.kind === "agent_text" || turn.kind === "user_text") &&
      step.text.trim() === turn.text.trim()
    );
  });
}
