// Which side of the conversation a request is for, and which loaded scenario it belongs to.
// A request says both through its content, as a real model would see it:
// - the user simulator's request has the user instruction in a system message (roles reversed)
//   and offers at most end_conversation; every other request is the agent's;
// - the agent's first user message is the scenario's opening, its system message the scenario's
//   agent system prompt;
// - the simulator's last system message is the one for the real conversation (demonstrations,
//   each with its own system message, come before it) and carries the scenario's goal.
// The model name "mock/<scenario name>" skips the guesswork.
import { toolsFor } from "../episode/tool-calls.js";
import { agentSystemMessage } from "../scenario/prompts/persona-prompt.js";
import { USER_INSTRUCTION, renderUserSystemMessage } from "../scenario/prompts/prompts.js";
import type { Scenario } from "../scenario/model.js";
import { GET_USER_MESSAGE_TOOL, SEND_MESSAGE_TOOL } from "../roles/mcp/conversation-tools.js";
import { agentConversation, agreesWithReference, isOutsideAgentRequest, userConversation } from "./played-turns.js";
import { invalidRequest, MockLlmError } from "./http-error.js";
import { realNameOf } from "./tool-names.js";
import type { ChatRequest, WireMessage } from "./wire.js";

export type Side = "agent" | "user";
/** Who a request is for: a side of the conversation, the role-play judge (judge-reply.ts) or the failure reviewer (review-reply.ts). */
export type RequestRole = Side | "judge" | "reviewer";

/** The model-name prefix that names the scenario to play. */
export const SCENARIO_MODEL_PREFIX = "mock/";

const END_CONVERSATION = "end_conversation";

export function detectSide(request: ChatRequest): Side {
  const offersOnlyEnd = request.tools.length === 1 && request.tools[0]?.name === END_CONVERSATION;
  const hasUserInstruction = request.messages.some((m) => m.role === "system" && m.content.startsWith(USER_INSTRUCTION));
  if (!hasUserInstruction && !offersOnlyEnd) return "agent";
  const other = request.tools.find((t) => t.name !== END_CONVERSATION);
  if (other) {
    throw invalidRequest(
      `This is a user-simulator request (its system message is the user instruction), which may offer only the end_conversation tool, but it offers "${other.name}".`,
      "tools",
    );
  }
  return "user";
}

export class ScenarioIndex {
  private readonly byName: ReadonlyMap<string, Scenario>;
  /** Each scenario's user-simulator system message, rendered once. */
  private readonly userSystemMessages: ReadonlyMap<Scenario, string>;

  constructor(readonly scenarios: readonly Scenario[]) {
    const byName = new Map<string, Scenario>();
    for (const s of scenarios) {
      if (byName.has(s.name)) throw new Error(`two scenarios are named "${s.name}"; the mock server needs unique names`);
      byName.set(s.name, s);
    }
    this.byName = byName;
    this.userSystemMessages = new Map(scenarios.map((s) => [s, renderUserSystemMessage(s.user.goal, s.user.knowledge, s.user.preamble)]));
  }

  /** The scenario a request is for; a MockLlmError (404 or 400) naming the candidates when it cannot tell. */
  identify(request: ChatRequest, side: Side): Scenario {
    if (request.model.startsWith(SCENARIO_MODEL_PREFIX)) {
      const name = request.model.slice(SCENARIO_MODEL_PREFIX.length);
      const named = this.byName.get(name);
      if (!named) {
        throw new MockLlmError(
          404,
          `The model "${request.model}" does not exist: no loaded scenario is named "${name}". Loaded: ${nameList(this.scenarios)}.`,
          "invalid_request_error",
          "model_not_found",
          "model",
        );
      }
      return named;
    }
    return side === "agent" ? this.identifyAgentRequest(request) : this.identifyUserRequest(request);
  }

  private identifyAgentRequest(request: ChatRequest): Scenario {
    const firstUser = request.messages.find((m) => m.role === "user");
    if (!firstUser)
      throw invalidRequest("An agent request needs a user message: the scenario's opening identifies the scenario.", "messages");
    const opened = this.scenarios.filter((s) => s.user.opening.trim() === firstUser.content.trim());
    if (opened.length === 0) {
      throw invalidRequest(
        `No loaded scenario opens with ${quote(firstUser.content)}. Loaded: ${nameList(this.scenarios)}. Name one with the model "${SCENARIO_MODEL_PREFIX}<scenario name>".`,
        "messages",
      );
    }
    // An outside agent brings its own system prompt: only the opening and the tools tell.
    const outside = isOutsideAgentRequest(request);
    const system = request.messages.find((m) => m.role === "system");
    const prompted = outside ? opened : opened.filter((s) => agentSystemMessage(s.agent) === (system?.content ?? null));
    if (prompted.length === 0) {
      const expected = opened[0] ? agentSystemMessage(opened[0].agent) : "";
      const got = system ? quote(system.content) : "no system message";
      throw invalidRequest(
        `The request opens like ${nameList(opened)}, but its system message is not the agent system prompt ${quote(expected)} (got ${got}).`,
        "messages",
      );
    }
    const conversationTools = new Set([SEND_MESSAGE_TOOL, GET_USER_MESSAGE_TOOL]);
    const offered = new Set(request.tools.filter((t) => !conversationTools.has(t.name)).map((t) => realNameOf(t.name)));
    const sameTools = (s: Scenario): boolean => {
      const own = toolsFor(s, "agent").map((t) => t.name);
      return own.length === offered.size && own.every((n) => offered.has(n));
    };
    const turns = agentConversation(request);
    const agrees = (s: Scenario): boolean => agreesWithReference(s, turns, ["agent_text", "agent_calls", "user_text"]);
    return pickOne(prompted, [agrees, sameTools], `opens with ${quote(firstUser.content)}`);
  }

  private identifyUserRequest(request: ChatRequest): Scenario {
    const system = lastSystemMessage(request.messages);
    if (!system) throw invalidRequest("A user-simulator request needs a system message carrying the scenario's goal.", "messages");
    const exact = this.scenarios.filter((s) => this.userSystemMessages.get(s) === system.content);
    const turns = userConversation(request).turns;
    const agrees = (s: Scenario): boolean => agreesWithReference(s, turns, ["agent_text", "user_text"]);
    if (exact.length > 0) return pickOne(exact, [agrees], "has this user system message");
    const containing = this.scenarios.filter((s) => s.user.goal.trim() !== "" && system.content.includes(s.user.goal.trim()));
    // A goal that is part of a longer goal also found in the message is not the one meant.
    const longest = containing.filter(
      (s) => !containing.some((o) => o.user.goal.trim() !== s.user.goal.trim() && o.user.goal.includes(s.user.goal.trim())),
    );
    if (longest.length === 0) {
      throw invalidRequest(
        `No loaded scenario's goal is in the last system message. Loaded: ${nameList(this.scenarios)}. Name one with the model "${SCENARIO_MODEL_PREFIX}<scenario name>".`,
        "messages",
      );
    }
    return pickOne(longest, [agrees], "has its goal in the last system message");
  }
}

/**
 * One scenario out of those matching. Each preference in turn narrows the candidates, unless none
 * would be left: first the scenarios whose reference the conversation so far agrees with (an
 * insufficient-information variant shares its base's opening and goal but not its solution), then
 * for the agent those offering the same tools. Scenarios that would play the same reference
 * (augmented variants share the opening, the goal and the solution) are as good as one another,
 * so only candidates that would answer differently are ambiguous.
 */
function pickOne(candidates: readonly Scenario[], preferences: readonly ((s: Scenario) => boolean)[], how: string): Scenario {
  let pool = candidates;
  for (const preferred of preferences) {
    const narrowed = pool.filter(preferred);
    if (narrowed.length > 0) pool = narrowed;
  }
  const first = pool[0];
  if (first === undefined) throw new Error("pickOne needs at least one candidate");
  const reference = JSON.stringify(first.reference);
  if (pool.every((s) => JSON.stringify(s.reference) === reference)) return first;
  throw invalidRequest(
    `The request is ambiguous: ${pool.length} loaded scenarios with different reference solutions match (each ${how}): ${nameList(pool)}. Name one with the model "${SCENARIO_MODEL_PREFIX}<scenario name>".`,
    "model",
  );
}

function lastSystemMessage(messages: readonly WireMessage[]): { index: number; content: string } | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "system") return { index: i, content: m.content };
  }
  return null;
}

const LISTED = 10;

function nameList(scenarios: readonly Scenario[]): string {
  if (scenarios.length === 0) return "none";
  const names = scenarios.slice(0, LISTED).map((s) => s.name);
  const more = scenarios.length - names.length;
  return more > 0 ? `${names.join(", ")} and ${more} more` : names.join(", ");
}

function quote(text: string): string {
  const short = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return JSON.stringify(short);
}
