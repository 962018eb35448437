// Why a run failed, by rules over what it recorded. Each failed or errored run gets one cause, the
// first rule that fires in this order (the earlier a party, the more it explains the rest):
//
//   infrastructure  errored-end             the run ended in model_error, role_error, ... (outcome.ts)
//   scenario        reference-misses        the scenario's own reference solution does not reach
//                                           its milestones (the check `validate` makes); the caller
//                                           plays the reference and passes what it found
//   simulated user  user-ended-before-goal  the user ended the conversation before saying anything to the agent
//   simulated user  user-contradicted-goal  the user told the agent a value for one of the scenario's
//                                           slots (see goalSlots) other than the one its goal,
//                                           opening or knowledge gives, without also saying that one
//   simulated user  user-unknown-value      the user said a value (a number, a phone number, an e-mail)
//                                           that is not in its goal, opening or knowledge, and that
//                                           nothing shown to it before had said
//   agent           minefield-hit           a minefield matched
//   agent           tool-error-unrecovered  a tool call failed and the agent never called that tool
//                                           successfully afterwards
//   agent           missed-milestone        a milestone was not (fully) reached
//   agent           below-threshold         none of the above, yet the score is under the threshold
//
// Each cause names its rule, the message it points at (null for the run as a whole) and the evidence
// in one line. What no rule can read (a user asking for the opposite of its goal in other words) is
// left to the optional LLM reviewer (`run --review`), whose verdict sits beside the rule's.
import type { Message } from "../episode/types.js";
import type { Scenario } from "../scenario/model.js";
import { isErroredEnd } from "./outcome.js";
import type { EvaluationResult } from "./result.js";

export type CauseKind = "infrastructure" | "scenario" | "user" | "agent";

export const CAUSE_KINDS: readonly CauseKind[] = ["infrastructure", "scenario", "user", "agent"];

export interface FailureCause {
  readonly kind: CauseKind;
  readonly rule: string;
  /** The message index the evidence is at; null when it is about the run as a whole. */
  readonly message: number | null;
  readonly evidence: string;
}

export interface CauseInput {
  /** The scenario as the run played it (a trajectory's header scenario). */
  readonly scenario: Scenario;
  readonly messages: readonly Message[];
  readonly endReason: string | null;
  readonly endDetail: string | null;
  readonly evaluation: EvaluationResult | null;
  /** What playing the scenario's reference found: null when not checked, else the milestones it misses (empty: it reaches them all). */
  readonly referenceMisses?: readonly string[] | null;
}

/** The cause of a failed or errored run; null for a run that succeeded (score at the threshold). */
export function failureCause(run: CauseInput, threshold = 1): FailureCause | null {
  if (isErroredEnd(run.endReason)) {
    return {
      kind: "infrastructure",
      rule: "errored-end",
      message: run.messages.length === 0 ? null : run.messages.length - 1,
      evidence: `the run ended in ${run.endReason ?? "an engine error"}${run.endDetail ? `: ${run.endDetail}` : ""}`,
    };
  }
  const score = run.evaluation?.score ?? null;
  if (score === null || score >= threshold - 1e-6) return null;
  if (run.referenceMisses && run.referenceMisses.length > 0) {
    return {
      kind: "scenario",
      rule: "reference-misses",
      message: null,
      evidence: `the scenario's reference solution does not reach milestone ${run.referenceMisses.join(", ")}`,
    };
  }
  return userCause(run) ?? agentCause(run, score, threshold);
}

function userCause(run: CauseInput): FailureCause | null {
  const { messages } = run;
  const toAgent = messages.filter((m) => m.sender === "user" && m.recipient === "agent");
  const ended = messages.find(
    (m) => m.sender === "user" && m.recipient === "execution_environment" && /^end_conversation\b/.test(m.content),
  );
  if (ended !== undefined && !toAgent.some((m) => m.sandbox_message_index < ended.sandbox_message_index)) {
    return {
      kind: "user",
      rule: "user-ended-before-goal",
      message: ended.sandbox_message_index,
      evidence: "the user ended the conversation before saying anything to the agent",
    };
  }
  const contradiction = contradictedGoal(run.scenario, toAgent);
  if (contradiction !== null) return contradiction;
  const { scenario } = run;
  const given = [scenario.user.goal, scenario.user.opening, ...scenario.user.knowledge.flatMap((k) => [k.fact, k.value ?? ""])].join("\n");
  for (const m of toAgent) {
    if (m.scripted) continue;
    const shown = messages
      .filter((x) => x.sandbox_message_index < m.sandbox_message_index && x.visible_to.includes("user"))
      .map((x) => x.content)
      .join("\n");
    const known = normalized(`${given}\n${shown}`);
    const unknown = valuesIn(m.content).find((v) => !known.includes(normalized(v)));
    if (unknown !== undefined) {
      return {
        kind: "user",
        rule: "user-unknown-value",
        message: m.sandbox_message_index,
        evidence: `the user said "${unknown}", which is not in its goal or knowledge and was never shown to it`,
      };
    }
  }
  return null;
}

/**
 * A slot is a kind of value the scenario pins to exactly one value across the user's goal, opening
 * and knowledge (facts and their `value`s): an e-mail address, a number of a given count of digits
 * (a phone number, an amount), or a quoted text (what a message should say, in double quotes, or a
 * knowledge `value` that is neither an e-mail nor a number). Two or more values of a kind make it
 * no slot: which one the user means cannot be told from the words.
 */
function goalSlots(scenario: Scenario): Map<string, SlotValue> {
  const found = new Map<string, Map<string, SlotValue>>();
  const add = (value: SlotValue): void => {
    const values = found.get(value.slot) ?? new Map<string, SlotValue>();
    values.set(value.key, value);
    found.set(value.slot, values);
  };
  const { goal, opening, knowledge } = scenario.user;
  for (const text of [goal, opening, ...knowledge.map((k) => k.fact)]) for (const v of slotValuesIn(text)) add(v);
  for (const { value } of knowledge) {
    if (value === null || value.trim() === "") continue;
    const [whole] = slotValuesIn(value).filter((v) => v.slot !== "text" && v.text === value.trim());
    add(whole ?? textValue(value));
  }
  const slots = new Map<string, SlotValue>();
  for (const [slot, values] of found) if (values.size === 1) slots.set(slot, [...values.values()][0]!);
  return slots;
}

interface SlotValue {
  /** "email", "digits:<n>" or "text". */
  readonly slot: string;
  /** The value as compared: lower case e-mail, the digits, or the text folded (case, spaces, end punctuation). */
  readonly key: string;
  /** As written. */
  readonly text: string;
}

function slotValuesIn(text: string): SlotValue[] {
  const values: SlotValue[] = valuesIn(text).map((v) =>
    v.includes("@")
      ? { slot: "email", key: v.toLowerCase(), text: v }
      : { slot: `digits:${v.replace(/\D/g, "").length}`, key: v.replace(/\D/g, ""), text: v },
  );
  for (const quoted of text.matchAll(/["\u201c]([^"\u201c\u201d\n]+)["\u201d]/g)) values.push(textValue(quoted[1]!));
  return values;
}

const textValue = (text: string): SlotValue => ({
  slot: "text",
  key: text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.,!?;:]+$/, ""),
  text: text.trim(),
});

function contradictedGoal(scenario: Scenario, toAgent: readonly Message[]): FailureCause | null {
  const slots = goalSlots(scenario);
  if (slots.size === 0) return null;
  for (const m of toAgent) {
    if (m.scripted) continue;
    const said = slotValuesIn(m.content);
    for (const value of said) {
      const pinned = slots.get(value.slot);
      // Saying the goal's own value in the same message ("not X, Y") is a correction, not a contradiction.
      if (pinned === undefined || pinned.key === value.key || said.some((v) => v.slot === value.slot && v.key === pinned.key)) continue;
      return {
        kind: "user",
        rule: "user-contradicted-goal",
        message: m.sandbox_message_index,
        evidence: `the user said "${value.text}" where its goal gives "${pinned.text}"`,
      };
    }
  }
  return null;
}

function agentCause(run: CauseInput, score: number, threshold: number): FailureCause {
  const evaluation = run.evaluation!;
  const mine = evaluation.minefields.find((m) => m.matched_at !== null);
  if (mine !== undefined) {
    return { kind: "agent", rule: "minefield-hit", message: mine.matched_at, evidence: `the agent stepped on minefield ${mine.id}` };
  }
  const failed = run.messages.find(
    (m) =>
      m.sender === "execution_environment" &&
      m.recipient === "agent" &&
      m.tool_call_exception !== null &&
      !run.messages.some(
        (later) =>
          later.sandbox_message_index > m.sandbox_message_index &&
          later.sender === "execution_environment" &&
          later.recipient === "agent" &&
          later.tool_call_exception === null &&
          later.openai_function_name === m.openai_function_name,
      ),
  );
  if (failed !== undefined) {
    return {
      kind: "agent",
      rule: "tool-error-unrecovered",
      message: failed.sandbox_message_index,
      evidence: `${failed.openai_function_name ?? "a tool"} failed (${firstLine(failed.tool_call_exception ?? "")}) and was never called successfully after`,
    };
  }
  const missed = evaluation.milestones.find((m) => m.similarity < 1);
  if (missed !== undefined) {
    return {
      kind: "agent",
      rule: "missed-milestone",
      message: missed.matched_at,
      evidence:
        missed.matched_at === null
          ? `milestone ${missed.id} was never reached`
          : `milestone ${missed.id} was reached only partly (${missed.similarity.toFixed(2)})`,
    };
  }
  return { kind: "agent", rule: "below-threshold", message: null, evidence: `the score ${score.toFixed(2)} is under ${threshold}` };
}

/** Values a user might invent: e-mail addresses, and numbers of 3 or more digits (phone numbers, amounts, codes). */
function valuesIn(text: string): string[] {
  const emails = text.match(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g) ?? [];
  const numbers = text.replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, " ").match(/\+?\d[\d\s().-]*\d/g) ?? [];
  return [...emails, ...numbers.map((n) => n.trim()).filter((n) => n.replace(/\D/g, "").length >= 3)];
}

/** Lower case without separators, so "+1 (245) 334-4098" and "+12453344098" are the same value. */
const normalized = (text: string): string => text.toLowerCase().replace(/[\s().-]/g, "");

const firstLine = (text: string): string => text.split("\n").find((l) => l.trim() !== "") ?? text;
