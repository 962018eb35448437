// The lines a trajectory file holds after its header: the episode's own events, then, for a run
// that `toolsandbox run` scored, one evaluation event after the end. The episode never emits the
// evaluation (it is computed from the finished episode), so it is not an EpisodeEvent.
import type { EpisodeEvent } from "../episode/types.js";
import type { EvaluationResult } from "../evaluation/result.js";

export interface EvaluationEvent {
  readonly type: "evaluation";
  readonly result: EvaluationResult;
}

export type TrajectoryEvent = EpisodeEvent | EvaluationEvent;
