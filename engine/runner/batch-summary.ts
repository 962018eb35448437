// What a batch run adds to summary.json: with --trials above 1, each scenario's trial scores and
// τ-bench's pass^k over them; after Ctrl-C, how many episodes were never started. The file is
// replaced atomically (a temporary file renamed over it), so a reader, or a run killed while
// writing it, never sees half a summary.
import { passHatK, type PassHatKReport } from "../evaluation/pass-k.js";
import { countedScore, DEFAULT_POLICY, type ScoringPolicy } from "../evaluation/outcome.js";
import { PASS_HAT_K_ESTIMATOR } from "../evaluation/pass-k.js";
import { resultStatus, type RunSummary, type ScenarioResult } from "./summary.js";

export interface TrialsSummary {
  /** Trials per scenario; trial k was played with the run's seed + k - 1. */
  readonly per_scenario: number;
  /** A trial succeeds when its score is 1 (within τ-bench's 1e-6). */
  readonly success_threshold: number;
  /** pass^k for k = 1..(fewest counted trials of any scenario). */
  readonly pass_hat_k: PassHatKReport["pass_hat_k"];
  /** How pass^k is estimated. */
  readonly estimator: string;
  /** Errored trials left out of pass^k (0 with errors_as_failures, which counts them as failures). */
  readonly errored_left_out: number;
  /** Mean over scenarios of their counted trials' mean score (a scenario counts once): summary.json's score.mean. */
  readonly average_score: number;
  /** Each scenario's counted trials: their scores in trial order, and how many succeeded. */
  readonly scenarios: readonly { readonly name: string; readonly scores: readonly number[]; readonly successes: number }[];
}

export interface BatchSummary extends RunSummary {
  readonly trials?: TrialsSummary;
  /** Present when the run was stopped (Ctrl-C) before every episode had started. */
  readonly interrupted?: { readonly episodes_not_started: number };
  /** `run --shard I/N`: this summary covers part `index` of `count`; its scenarios carry `plan_index`. */
  readonly shard?: { readonly index: number; readonly count: number };
}

/**
 * The trials section. Only counted trials enter pass^k (outcome.ts): an errored trial (a model,
 * role or engine failure) is left out, or counts as a failure scoring 0 under `errorsAsFailures`
 * (τ-bench's way); a trial cancelled by Ctrl-C did not run its course and is left out, as are the
 * trials never started. Null when no scenario has a counted trial.
 */
export function trialsSummary(
  results: readonly ScenarioResult[],
  trialsPerScenario: number,
  policy: ScoringPolicy = DEFAULT_POLICY,
): TrialsSummary | null {
  const scores = new Map<string, number[]>();
  let erroredLeftOut = 0;
  for (const r of results) {
    const status = resultStatus(r);
    const score = countedScore({ status, score: r.score }, policy);
    if (score === null) {
      if (status === "errored") erroredLeftOut++;
      continue;
    }
    const list = scores.get(r.name) ?? [];
    list.push(score);
    scores.set(r.name, list);
  }
  if (scores.size === 0) return null;
  const report = passHatK([...scores].map(([task, s]) => ({ task, scores: s })));
  return {
    per_scenario: trialsPerScenario,
    success_threshold: report.threshold,
    pass_hat_k: report.pass_hat_k,
    estimator: PASS_HAT_K_ESTIMATOR,
    errored_left_out: erroredLeftOut,
    average_score: report.average_score,
    scenarios: report.tasks.map((t) => ({ name: t.task, scores: scores.get(t.task) ?? [], successes: t.successes })),
  };
}

/** "pass^k over 3 trials, a success scoring 1: pass^1 0.833  pass^2 0.667  pass^3 0.500" for the console. */
export const passHatKLine = (trials: TrialsSummary): string =>
  `pass^k over ${trials.per_scenario} trials, a success scoring ${trials.success_threshold}: ${trials.pass_hat_k
    .map(({ k, value }) => `pass^${k} ${value.toFixed(3)}`)
    .join("  ")}${trials.errored_left_out === 0 ? "" : ` (${trials.errored_left_out} errored trials left out)`}`;
