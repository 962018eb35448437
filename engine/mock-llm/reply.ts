// What the scenario's reference solution says next, read off the request's history. The mock
// keeps no state between requests: the number of turns a side has already taken tells it which
// step comes next, so retries, concurrent episodes and restarts all get the same answer.
import type { ReferenceStep, Scenario } from "../scenario/model.js";
import { invalidRequest } from "./http-error.js";
import { SEND_MESSAGE_TOOL } from "../roles/mcp/conversation-tools.js";
import { agentConversation, isOutsideAgentRequest, outsideAgentConversation, userConversation } from "./played-turns.js";
import { offeredNameOf } from "./tool-names.js";
import type { ChatRequest, WireToolCall } from "./wire.js";

export interface ScriptedReply {
  readonly content: string | null;
  readonly toolCalls: readonly WireToolCall[];
  /** The 1-based reference step played; null when the reference had nothing left for this side. */
  readonly step: number | null;
}

/** Said by the agent once the reference has no agent step left. */
export const AGENT_DONE_TEXT = "That is everything I was asked to do. Is there anything else I can help with?";

/** An outside agent's final words once the user has ended the conversation: text, no calls, so its framework's loop stops. */
export const OUTSIDE_AGENT_DONE_TEXT = "The user ended the conversation.";

const END_CONVERSATION = "end_conversation";

interface IndexedStep {
  readonly step: ReferenceStep;
  /** 1-based position in `reference`, as the scenario file numbers it. */
  readonly number: number;
}

function stepsOf(scenario: Scenario, kinds: readonly ReferenceStep["kind"][]): IndexedStep[] {
  return scenario.reference.map((step, i) => ({ step, number: i + 1 })).filter((s) => kinds.includes(s.step.kind));
}

/** The agent's next step: the k-th agent step of the reference, k being the agent turns already taken. */
export function agentReply(scenario: Scenario, request: ChatRequest): ScriptedReply {
  if (isOutsideAgentRequest(request)) return outsideAgentReply(scenario, request);
  const taken = agentConversation(request).filter((t) => t.kind !== "user_text").length;
  const next = stepsOf(scenario, ["agent_text", "agent_calls"])[taken];
  if (!next) return { content: AGENT_DONE_TEXT, toolCalls: [], step: null };
  const { step, number } = next;
  if (step.kind === "agent_text") return { content: step.text, toolCalls: [], step: number };
  return callsReply(scenario, request, next);
}

/**
 * The next step for an agent that talks to the user through send_message_to_user (an MCP
 * client's loop): a text step is a call of that tool; once the user has ended the conversation,
 * text without calls ends the framework's run.
 */
function outsideAgentReply(scenario: Scenario, request: ChatRequest): ScriptedReply {
  const { turns, ended } = outsideAgentConversation(request);
  if (ended) return { content: OUTSIDE_AGENT_DONE_TEXT, toolCalls: [], step: null };
  const next = stepsOf(scenario, ["agent_text", "agent_calls"])[turns.filter((t) => t.kind !== "user_text").length];
  const say = (text: string, number: number | null): ScriptedReply => ({
    content: null,
    toolCalls: [
      { id: `call_say_${number ?? "done"}_${turns.length}`, name: SEND_MESSAGE_TOOL, arguments: JSON.stringify({ content: text }) },
    ],
    step: number,
  });
  if (!next) return say(AGENT_DONE_TEXT, null);
  if (next.step.kind === "agent_text") return say(next.step.text, next.number);
  return callsReply(scenario, request, next);
}

/** A reference step of tool calls, under the names the request offers the tools under. */
function callsReply(scenario: Scenario, request: ChatRequest, { step, number }: IndexedStep): ScriptedReply {
  const offered = new Set(request.tools.map((t) => t.name));
  if (step.kind !== "agent_calls") throw new Error(`unexpected agent step kind ${step.kind}`);
  if (request.toolChoice === "none") {
    throw invalidRequest(`Reference step ${number} of ${scenario.name} calls tools, but "tool_choice" is "none".`, "tool_choice");
  }
  if (!request.parallelToolCalls && step.calls.length > 1) {
    throw invalidRequest(
      `Reference step ${number} of ${scenario.name} makes ${step.calls.length} parallel calls, but "parallel_tool_calls" is false.`,
      "parallel_tool_calls",
    );
  }
  const toolCalls = step.calls.map((call) => {
    const name = offeredNameOf(call.tool, offered);
    if (name === null) {
      const offeredList = request.tools.length > 0 ? request.tools.map((t) => t.name).join(", ") : "none";
      throw invalidRequest(
        `Reference step ${number} of ${scenario.name} calls ${call.tool}, which the request does not offer under its own or its scrambled name. Offered tools: ${offeredList}.`,
        "tools",
      );
    }
    return { id: call.id, name, arguments: JSON.stringify(call.arguments) };
  });
  return { content: null, toolCalls, step: number };
}

/**
 * The simulated user's next step: the k-th user step of the reference, k being the user turns
 * already taken after the scripted opening (which is no reference step).
 */
export function userReply(scenario: Scenario, request: ChatRequest): ScriptedReply {
  const { opening, turns } = userConversation(request);
  if (opening?.trim() !== scenario.user.opening.trim()) {
    throw invalidRequest(
      `In a user-simulator request the roles are reversed: after the last system message, the first message must be the scenario's opening ${JSON.stringify(scenario.user.opening)} as an "assistant" message (the simulated user's own words)${opening !== null ? `, got ${JSON.stringify(opening)}` : ", but the conversation starts otherwise"}.`,
      "messages",
    );
  }
  const taken = turns.filter((t) => t.kind === "user_text").length;
  const next = stepsOf(scenario, ["user_text", "end_conversation"])[taken];
  if (next?.step.kind === "user_text") return { content: next.step.text, toolCalls: [], step: next.number };
  // The reference ends the conversation here, or has nothing left to say: a satisfied user leaves.
  if (!request.tools.some((t) => t.name === END_CONVERSATION)) {
    const why = next
      ? `Reference step ${next.number} of ${scenario.name} ends the conversation`
      : `The reference of ${scenario.name} has no user step left`;
    throw invalidRequest(
      `${why}, but the request does not offer the end_conversation tool (the simulator is offered it when the agent has just spoken).`,
      "tools",
    );
  }
  if (request.toolChoice === "none") {
    throw invalidRequest(`The simulated user of ${scenario.name} would call end_conversation, but "tool_choice" is "none".`, "tool_choice");
  }
  const number = next?.number ?? null;
  return {
    content: null,
    toolCalls: [{ id: `call_end_conversation_${number ?? "done"}`, name: END_CONVERSATION, arguments: "{}" }],
    step: number,
  };
}
