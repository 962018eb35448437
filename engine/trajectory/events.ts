// The lines a trajectory file holds after its header: the episode's own events, then, for a run
// that `toolsandbox run` scored, one evaluation event after the end, and for a run with a
// role-play judge (`run --judge`) one judgement event last. The episode emits neither (both are
// computed from the finished episode), so they are not EpisodeEvents.
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

export type TrajectoryEvent = EpisodeEvent | EvaluationEvent | JudgementEvent;
