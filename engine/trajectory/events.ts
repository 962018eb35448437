// The lines a trajectory file holds after its header: the episode's own events, then, for a run
// that `toolsandbox run` scored, one evaluation event after the end, and for a run with a
// role-play judge (`run --judge`) one judgement event, and for a failed run reviewed by a model
// (`run --review`) one review event last. The episode emits none of these (they are computed from
// the finished episode), so they are not EpisodeEvents.
import type { EpisodeEvent, ModelCall, ModelSettings } from "../episode/types.js";
import type { EvaluationResult } from "../evaluation/result.js";

export interface EvaluationEvent {
  readonly type: "evaluation";
  readonly result: EvaluationResult;
}

/** One criterion of the role-play rubric as the judge scored it (1 to 5), with its reason. */
export interface CriterionScore {
  readonly id: string;
  readonly score: number;
  readonly reason: string;
}

/** The role-play judge's verdict (schemas/trajectory.schema.json `judgementEvent`). */
export interface JudgementEvent {
  readonly type: "judgement";
  /** "openai:<model>". */
  readonly judge: string;
  readonly settings: ModelSettings;
  /** The judge's instructions, verbatim as sent. */
  readonly rubric: string;
  /** In the rubric's order; empty when the judgement failed. */
  readonly criteria: readonly CriterionScore[];
  /** Mean of the criteria's scores; null when the judgement failed. */
  readonly overall: number | null;
  /** One line saying why there are no scores. */
  readonly failure?: string;
  /** The judge's request (telemetry); absent when none was made. */
  readonly call?: ModelCall;
}

/** The party the failure reviewer blames (the cause rules' kinds, evaluation/failure-causes.ts). */
export type ReviewKind = "infrastructure" | "scenario" | "user" | "agent";

/**
 * The failure reviewer's verdict on a failed or errored run (`run --review`), beside the cause the
 * rules give, never instead of it (schemas/trajectory.schema.json `reviewEvent`).
 */
export interface ReviewEvent {
  readonly type: "review";
  /** "openai:<model>". */
  readonly reviewer: string;
  readonly settings: ModelSettings;
  /** The reviewer's instructions, verbatim as sent. */
  readonly instructions: string;
  /** Who the reviewer blames and why, in one line; null when the review failed. */
  readonly verdict: { readonly kind: ReviewKind; readonly reason: string } | null;
  /** One line saying why there is no verdict. */
  readonly failure?: string;
  /** The reviewer's request (telemetry); absent when none was made. */
  readonly call?: ModelCall;
}

export type TrajectoryEvent = EpisodeEvent | EvaluationEvent | JudgementEvent | ReviewEvent;
