// What the evaluation of one episode produces. It is data, not a log: `run` writes it into the
// trajectory (the `evaluation` event), `eval` prints it, the panel and the editor show where each
// milestone matched and why. Everything here is plain JSON (no undefined, no non-finite numbers).
import type { ConstraintExplanation, MeasuredConstraint } from "./measures/types.js";

/** The state a constraint was compared against: the initial world or a node's matched message. */
export interface ReferenceUsed {
  /** "initial", or the id of the referenced milestone (minefield). */
  readonly id: string;
  /** The message index whose state was used. */
  readonly index: number;
}

export interface ConstraintResult {
  readonly kind: MeasuredConstraint["kind"];
  readonly table: string;
  readonly similarity: number;
  /** Null for a constraint without a reference (a plain snapshot). */
  readonly reference: ReferenceUsed | null;
  /** Which rows were paired, each column's similarity, the column that pulled the score down. */
  readonly explanation: ConstraintExplanation;
}

export interface NodeResult {
  readonly id: string;
  /** The message index the node was matched at; null when its best similarity is 0. */
  readonly matched_at: number | null;
  /**
   * The message the constraint results describe: `matched_at` when matched; otherwise the
   * closest miss (the most constraints above 0, then the highest similarity, then the earliest
   * message). Null when there was no candidate message at all.
   */
  readonly explained_at: number | null;
  readonly similarity: number;
  /** The constraints written in the scenario, in order. */
  readonly constraints: readonly ConstraintResult[];
  /** The automatic guardrails (reference 5.7), in the order guardrails.ts derives them. */
  readonly guardrails: readonly ConstraintResult[];
}

export interface EvaluationResult {
  /** The milestone score, or 0 when a minefield matched or the episode ended the way upstream crashes. */
  readonly score: number;
  /** Mean best similarity over the milestones; 1 when there are none. */
  readonly milestone_score: number;
  /** Mean best similarity over the minefields; 0 when there are none. */
  readonly minefield_score: number;
  /** Upstream's effective turn count (reference 5.11); max_messages when the episode counts as crashed. */
  readonly turn_count: number;
  /** Why `score` is 0 although milestones matched (a minefield, an upstream crash); null otherwise. */
  readonly zero_reason: string | null;
  /** The candidate message indices, inclusive: the opening user message to the last message. Null when there is none. */
  readonly window: { readonly first: number; readonly last: number } | null;
  readonly milestones: readonly NodeResult[];
  readonly minefields: readonly NodeResult[];
}
