// Which runs a score may count. A run that ended because a model endpoint, a role or the engine
// failed says nothing about the agent: it is "errored", shown as such and left out of means and
// pass^k (as Inspect keeps errored samples out of its scores and τ²-bench books them as
// infrastructure errors), unless the user asks for errors to count as failures (score 0). A run
// whose agent never acted has no score yet. Damaged files (engine/trajectory/run-damage.ts) are
// never scored either.

/** How a run stands for scoring. */
export type RunStatus = "scored" | "errored" | "damaged" | "unscored";

/**
 * End reasons after which the run says nothing reliable about the agent's skill: a model endpoint
 * or a role failed, an outside agent's connection went away (`agent_disconnected`), or the episode
 * ran past its time limit (`timed_out`; `timeout` is read too, for files written by other tools).
 * A hung or vanished process is as likely the machine's or the network's doing as the agent's, so
 * these count only under `--errors-as-failures`, as 0.
 */
export const ERRORED_END_REASONS: ReadonlySet<string> = new Set([
  "model_error",
  "role_error",
  "agent_disconnected",
  "timed_out",
  "timeout",
]);

/** True for an errored end; null (no end: the engine failed before the episode ended) is errored too. */
export const isErroredEnd = (reason: string | null): boolean => reason === null || ERRORED_END_REASONS.has(reason);

export interface ScoringPolicy {
  /** Count errored runs as failures scoring 0 instead of leaving them out (`--errors-as-failures`). */
  readonly errorsAsFailures: boolean;
}

export const DEFAULT_POLICY: ScoringPolicy = { errorsAsFailures: false };

/** The score a run counts with under `policy`: its score, 0 for an errored run when errors are failures, else null (left out). */
export function countedScore(run: { readonly status: RunStatus; readonly score: number | null }, policy: ScoringPolicy): number | null {
  if (run.status === "scored") return run.score;
  if (run.status === "errored" && policy.errorsAsFailures) return 0;
  return null;
}
