// The conversation a request's history holds, as the reference-step kinds the mock plays. Both
// sides' histories are read here: which step comes next is the count of turns already taken, and
// which of several look-alike scenarios is meant is the one whose reference the turns agree with.
import { isDeepStrictEqual } from "node:util";
import { isJsonObject, type JsonObject, type JsonValue } from "../base/json.js";
import { GET_USER_MESSAGE_TOOL, SEND_MESSAGE_TOOL } from "../roles/mcp/conversation-tools.js";
import type { ReferenceStep, Scenario } from "../scenario/model.js";
import { isPackToolName, realNameOf } from "./tool-names.js";
import type { ChatRequest, WireMessage } from "./wire.js";

type PlayedTurn =
  | { readonly kind: "agent_text"; readonly text: string }
  /** Tool names are the catalog's (unscrambled). */
  | { readonly kind: "agent_calls"; readonly calls: readonly { readonly tool: string; readonly arguments: JsonObject }[] }
  | { readonly kind: "user_text"; readonly text: string };

type AssistantMessage = Extract<WireMessage, { role: "assistant" }>;

/** The call id of an extra-call fault's detour (completion.ts); a turn of such calls is no reference step. */
export const EXTRA_CALL_ID_PREFIX = "call_extra_";

/**
 * The agent's conversation after the opening (its first user message). An assistant turn that
 * cannot be a reference step, because it calls a tool the request does not offer or its
 * arguments are not a JSON object (what the unknown-tool and malformed-arguments faults produce),
 * is left out, so an agent that recovers from an injected fault gets the step it was owed.
 */
export function agentConversation(request: ChatRequest): PlayedTurn[] {
  if (isOutsideAgentRequest(request)) return [...outsideAgentConversation(request).turns];
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
  // An extra-call fault's detour put the step off; it is not one.
  if (m.toolCalls.every((c) => c.id.startsWith(EXTRA_CALL_ID_PREFIX))) return null;
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

interface UserConversation {
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

/**
 * An agent outside the process (a framework's loop over our MCP server) is offered the
 * conversation's own tools beside the scenario's: it talks to the user by calling
 * send_message_to_user, whose result is the user's reply.
 */
export function isOutsideAgentRequest(request: ChatRequest): boolean {
  return request.tools.some((t) => t.name === SEND_MESSAGE_TOOL);
}

/** The words the MCP server answers send_message_to_user with once the user has ended the conversation. */
const USER_ENDED = "The user ended the conversation";

interface OutsideAgentConversation {
  readonly turns: readonly PlayedTurn[];
  /** A send_message_to_user call was answered with the user's end of the conversation. */
  readonly ended: boolean;
}

/**
 * An outside agent's conversation after the opening. A send_message_to_user call is the agent's
 * text, and its result the user's reply; get_user_message calls are no turn. Text the agent writes
 * without calls (a framework's final output, which the agent's own loop hands to the user) and the
 * user messages after it are the same two kinds of turn.
 */
export function outsideAgentConversation(request: ChatRequest): OutsideAgentConversation {
  const offered = new Set(request.tools.map((t) => t.name));
  const opening = request.messages.findIndex((m) => m.role === "user");
  const turns: PlayedTurn[] = [];
  const messageCalls = new Set<string>();
  let ended = false;
  for (const m of request.messages.slice(opening + 1)) {
    if (m.role === "user") turns.push({ kind: "user_text", text: m.content });
    else if (m.role === "tool") {
      if (!messageCalls.has(m.toolCallId)) continue;
      const reply = toolResultText(m.content);
      if (reply.startsWith(USER_ENDED)) ended = true;
      else turns.push({ kind: "user_text", text: reply });
    } else if (m.role === "assistant") {
      if (m.toolCalls.length === 0) {
        turns.push({ kind: "agent_text", text: m.content ?? "" });
        continue;
      }
      const worldCalls = m.toolCalls.filter((c) => c.name !== SEND_MESSAGE_TOOL && c.name !== GET_USER_MESSAGE_TOOL);
      if (worldCalls.length > 0) {
        const turn = assistantTurn({ ...m, toolCalls: worldCalls }, offered);
        if (turn) turns.push(turn);
      }
      for (const call of m.toolCalls) {
        if (call.name !== SEND_MESSAGE_TOOL) continue;
        const args = parseObject(call.arguments);
        messageCalls.add(call.id);
        turns.push({ kind: "agent_text", text: typeof args?.content === "string" ? args.content : "" });
      }
    }
  }
  return { turns, ended };
}

/**
 * The text of a tool result as a framework passes it on: the MCP result's text as it is, or the
 * result (or its first content item) serialised as JSON, which some frameworks send instead.
 */
export function toolResultText(content: string): string {
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(content) as JsonValue;
  } catch {
    return content;
  }
  const texts = (items: JsonValue): string | null =>
    Array.isArray(items)
      ? items
          .filter(isJsonObject)
          .map((item) => (typeof item.text === "string" ? item.text : ""))
          .join("")
      : null;
  if (isJsonObject(parsed)) {
    if (typeof parsed.text === "string") return parsed.text;
    if (parsed.content !== undefined) return texts(parsed.content) ?? content;
    if (parsed.type === "json" || parsed.type === "content") return toolResultText(JSON.stringify(parsed.value));
  }
  return texts(parsed) ?? content;
}
