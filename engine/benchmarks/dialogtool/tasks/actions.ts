// DialogTool's awareness as a choice among actions (its Table 7, from SGD), not a yes/no: at each
// agent turn the right action is the reference's. A `calls:` step is Call_Tool; an `agent:` step
// takes the action it names (`action:`), else the one these rules derive from what came before it
// in the conversation (docs/dialogtool.md#actions says them in words):
//   1. the latest tool calls of this dialogue turn had one fail: Notify_Failure;
//   2. among those latest calls, one that changes the world succeeded: Notify_Success;
//   3. a question: Req_more ("anything else?"), Confirm ("Shall I ...?", "May I ...?" opening a
//      sentence, "is that right?"), Offer_Intent ("would you like ...?"), otherwise Request (it asks for a value);
//   4. a farewell ("goodbye", "have a nice day"): Goodbye;
//   5. the latest call returned a list and the reply says how many: Inform_Count;
//   6. anything else: Inform.
// The rules read only the messages the agent saw, so the teacher-forced run, the scripted chooser
// and mock-llm (which plays the reference to learn them) all get the same actions.
import type { JsonValue } from "../../../base/json.js";
import { Episode } from "../../../episode/episode.js";
import type { Message } from "../../../episode/types.js";
import { packById } from "../../../packs/registry.js";
import { createScriptedRoles } from "../../../roles/scripted.js";
import { DIALOG_ACTION_DOCS, DIALOG_ACTIONS, type DialogAction } from "../../../scenario/dialog-actions.js";
import type { ReferenceStep, Scenario } from "../../../scenario/model.js";
import { catalogNames } from "./catalog-names.js";

/** The action of a turn that calls tools. */
export const CALL_ACTION = "Call_Tool";
export type TurnAction = DialogAction | typeof CALL_ACTION;

/** What the agent under test chooses from, with what each means. */
export const TURN_ACTIONS: readonly TurnAction[] = [CALL_ACTION, ...DIALOG_ACTIONS];
export const TURN_ACTION_DOCS: Readonly<Record<TurnAction, string>> = {
  [CALL_ACTION]: "call one or more of the tools now",
  ...DIALOG_ACTION_DOCS,
};

export function isTurnAction(value: unknown): value is TurnAction {
  return TURN_ACTIONS.some((a) => a === value);
}

type AgentStep = Extract<ReferenceStep, { kind: "agent_text" | "agent_calls" }>;

export function agentSteps(scenario: Scenario): AgentStep[] {
  return scenario.reference.filter((s): s is AgentStep => s.kind === "agent_text" || s.kind === "agent_calls");
}

const isUserMessage = (m: Message): boolean => m.sender === "user" && m.recipient === "agent";

/** The user's answer reads as a yes. */
export function isAffirmative(text: string): boolean {
  return /^\W*(yes|yeah|yep|yup|sure|ok|okay|go ahead|please do|do it|confirm(ed)?|correct|that'?s (right|correct)|absolutely|of course|sounds good)\b/i.test(
    text.trim(),
  );
}

const REQ_MORE = /\b(anything else|something else|any other)\b/i;
// "May I ...?" opening a sentence asks leave; "When should I ...?" asks for a value.
const CONFIRM =
  /((^|[.!?]\s+)(may|shall|should|can) i\b|\b(can i go ahead|do you want me to|would you like me to|is (that|this) (correct|right|ok|okay)|are you sure|confirm|proceed)\b)/i;
const OFFER = /\b(would you like|do you want|how about)\b/i;
const GOODBYE = /\b(good ?bye|bye|have a (nice|great|good|lovely) (day|evening|one)|take care)\b/i;
const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

/** The action of the reference's reply `text`, said after `history` (the messages the agent saw before it). */
function deriveReplyAction(scenario: Scenario, text: string, history: readonly Message[]): DialogAction {
  const realName = catalogNames(scenario);
  const pack = packById(scenario.world.pack);
  const lastUser = history.map(isUserMessage).lastIndexOf(true);
  const sinceUser = history.slice(lastUser + 1);
  // The latest group of results: those after the agent's last run of calls began.
  const lastRequest = sinceUser.map((m) => m.recipient === "execution_environment").lastIndexOf(true);
  let groupStart = lastRequest;
  while (groupStart > 0 && sinceUser[groupStart - 1]?.recipient === "execution_environment") groupStart--;
  const latest = groupStart < 0 ? [] : sinceUser.slice(groupStart).filter((m) => m.sender === "execution_environment");
  if (latest.some((m) => m.tool_call_exception !== null)) return "Notify_Failure";
  const changed = latest.some(
    (m) => m.tool_call_exception === null && pack.toolByName(realName(m.openai_function_name ?? ""))?.action === true,
  );
  if (changed) return "Notify_Success";
  if (text.includes("?")) {
    if (REQ_MORE.test(text)) return "Req_more";
    if (CONFIRM.test(text)) return "Confirm";
    if (OFFER.test(text)) return "Offer_Intent";
    return "Request";
  }
  if (GOODBYE.test(text)) return "Goodbye";
  const counts = latest.flatMap((m) => listLengths(m.tool_trace?.[0]?.result ?? null));
  if (counts.some((n) => mentionsCount(text, n))) return "Inform_Count";
  return "Inform";
}

/** The lengths of the lists a result holds, at its top or one level down (ToolTalk wraps lists in an object). */
function listLengths(result: JsonValue): number[] {
  if (Array.isArray(result)) return [result.length];
  if (result !== null && typeof result === "object") return Object.values(result).flatMap((v) => (Array.isArray(v) ? [v.length] : []));
  return [];
}

function mentionsCount(text: string, n: number): boolean {
  if (new RegExp(`\\b${n}\\b`).test(text)) return true;
  const word = NUMBER_WORDS[n];
  return word !== undefined && new RegExp(`\\b${word}\\b`, "i").test(text);
}

/** The action of the reference's k-th agent step, said after `history`. */
function referenceStepAction(scenario: Scenario, step: AgentStep, history: readonly Message[]): TurnAction {
  if (step.kind === "agent_calls") return CALL_ACTION;
  return step.action ?? deriveReplyAction(scenario, step.text, history);
}

/** The agent's messages so far as the k of its next turn: how many agent turns it has taken. */
export function agentTurnsTaken(history: readonly Message[]): number {
  let turns = 0;
  history.forEach((m, i) => {
    if (m.sender !== "agent" || m.scripted === true) return;
    const previous = history[i - 1];
    if (previous?.sender !== "agent" || previous.scripted === true) turns++;
  });
  return turns;
}

/** The reference's action at the agent's next turn after `history`; null when the reference has no agent step left. */
export function nextReferenceAction(scenario: Scenario, history: readonly Message[]): TurnAction | null {
  const step = agentSteps(scenario)[agentTurnsTaken(history)];
  return step ? referenceStepAction(scenario, step, history) : null;
}

/**
 * The reference's action at each of its agent steps, learnt by playing the reference with the
 * scripted roles (mock-llm, which sees only the wire messages, uses this).
 */
export async function playedReferenceActions(scenario: Scenario): Promise<TurnAction[]> {
  const roles = createScriptedRoles(scenario);
  const actions: TurnAction[] = [];
  const episode = new Episode({
    scenario,
    agent: {
      id: roles.agent.id,
      respond: async (request) => {
        const action = nextReferenceAction(scenario, request.messages);
        if (action !== null) actions.push(action);
        return roles.agent.respond(request);
      },
    },
    user: roles.user,
    seed: 0,
  });
  await episode.run();
  return actions;
}
