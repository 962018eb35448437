// The catalogue of scenario strength (docs/strength.md): every mutator and variant by its stable
// name. A mutant is a wrong agent made from the reference solution, which the scenario must fail;
// a variant is a right agent told another way, which it must pass. The names are part of the
// CLI's contract (`--mutators`, the report lines, the JSON), so they never change meaning.
import { SCORE_TOLERANCE } from "../evaluation/pass-k.js";

export const MUTATORS = [
  "drop-call",
  "drop-reply",
  "wrong-argument",
  "extra-write",
  "swap-dependent",
  "stop-early",
  "wrong-reply-value",
  "act-without-asking",
] as const;
export type MutatorName = (typeof MUTATORS)[number];

export const VARIANTS = ["reorder-independent", "extra-read", "paraphrase-reply", "split-parallel"] as const;
export type VariantName = (typeof VARIANTS)[number];

export type OperatorName = MutatorName | VariantName;
export const OPERATORS: readonly OperatorName[] = [...MUTATORS, ...VARIANTS];

/** One line per operator, for `--help` and the docs. */
export const OPERATOR_DESCRIPTIONS: Readonly<Record<OperatorName, string>> = {
  "drop-call": "each call of the reference left out",
  "drop-reply": "each agent message that states a value replaced by one that states none",
  "wrong-argument":
    "each argument given a plausible wrong value of its kind: another row's value from the world, a neighbouring number, a time a day later on the scenario clock, the other boolean",
  "extra-write": "a state-changing allowed tool called on a row the task never names",
  "swap-dependent": "two adjacent steps whose order matters, swapped",
  "stop-early": "the agent stops before its last step",
  "wrong-reply-value": "the final message states another value of the same kind",
  "act-without-asking": "in an insufficient-information scenario, the agent acts instead of asking",
  "reorder-independent": "two adjacent steps with no data or state dependency, in the other order",
  "extra-read": "a read-only allowed tool called before acting",
  "paraphrase-reply": "the final message reworded, with the same values",
  "split-parallel": "parallel calls made one per turn",
};

export function isMutator(name: OperatorName): name is MutatorName {
  return (MUTATORS as readonly string[]).includes(name);
}

export function isOperatorName(name: string): name is OperatorName {
  return (OPERATORS as readonly string[]).includes(name);
}

/**
 * How a mutant ended (Stryker's states, read for scenarios):
 * killed: scored under the threshold; survived: at or above it, with a milestone or minefield
 * looking at what changed; no-coverage: at or above it, and nothing looks at what changed;
 * timeout: the episode hit its message limit (counted as detected); runtime-error: not a playable
 * episode (left out of the score); equivalent: no observer could tell it from the reference (left
 * out of the score); ignored: its mutator was turned off.
 */
export type MutantState = "killed" | "survived" | "no-coverage" | "timeout" | "runtime-error" | "equivalent" | "ignored";

/** How a variant ended: passed, refused (under the threshold), or not playable. */
export type VariantState = "passed" | "refused" | "runtime-error";

/** A run succeeds at or above this score (the threshold pass^k uses by default), within its rounding. */
const SUCCESS_THRESHOLD = 1;

export function succeeds(score: number): boolean {
  return score >= SUCCESS_THRESHOLD - SCORE_TOLERANCE;
}
