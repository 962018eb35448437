// τ-bench's pass^k (Sierra; reference peers.md D.1/D.2): the chance that k trials of a task, drawn
// without replacement from its n recorded trials, all succeed, estimated without bias as
// C(c, k) / C(n, k) for c successes and averaged over tasks. pass^1 is the plain success rate;
// the curve falls as k grows unless the agent is reliable.
//
// τ-bench counts a trial as a success when its reward is within 1e-6 of 1. ToolSandbox scores are
// similarities in [0, 1], so the threshold is a parameter (default 1, with the same tolerance).
// τ-bench requires every task to have the same number of trials; the estimator is unbiased per
// task whatever its n, so here tasks may differ and pass^k is reported for k up to the smallest n.
// With equal counts the numbers are τ-bench's.

/** How pass^k is estimated, as reports name it. */
export const PASS_HAT_K_ESTIMATOR =
  "unbiased: C(c, k) / C(n, k) per scenario with c successes in its n counted trials, averaged over scenarios; k up to the fewest trials";

/** τ-bench's tolerance on "reward == 1". */
export const SCORE_TOLERANCE = 1e-6;

interface TaskTrials {
  readonly task: string;
  /** One score per trial, in [0, 1]. */
  readonly scores: readonly number[];
}

interface PassHatKOptions {
  /** A trial succeeds when its score >= threshold - SCORE_TOLERANCE. Default 1. */
  readonly threshold?: number;
}

export interface TaskReliability {
  readonly task: string;
  readonly trials: number;
  readonly successes: number;
}

export interface PassHatKReport {
  readonly threshold: number;
  readonly tasks: readonly TaskReliability[];
  /** pass^k for k = 1..(fewest trials of any task), in order of k. */
  readonly pass_hat_k: readonly { readonly k: number; readonly value: number }[];
  /**
   * Mean over tasks of each task's mean trial score: a task counts once, as in every other mean
   * (docs/statistics.md). τ-bench prints the mean over all trials next to pass^k; with the same
   * number of trials per task, as τ-bench requires, the two are the same figure.
   */
  readonly average_score: number;
}

function binomial(n: number, k: number): bigint {
  let value = 1n;
  // After step j, value = C(n, j + 1): every division is exact.
  for (let j = 0; j < k; j++) value = (value * BigInt(n - j)) / BigInt(j + 1);
  return value;
}

/**
 * C(c, k) / C(n, k) for one task. The binomials are exact big integers, so the ratio is as exact
 * as one division can be (3 of 4 trials at k = 2 gives 0.5, not 0.49999999999999994). Past the
 * range of a double the product of (c - j) / (n - j) over j < k takes over.
 */
export function passHatKForTask(n: number, c: number, k: number): number {
  if (![n, c, k].every(Number.isInteger) || c < 0 || c > n || k < 1 || k > n) {
    throw new RangeError(`pass^k needs integers 0 <= c <= n and 1 <= k <= n, got n=${n} c=${c} k=${k}`);
  }
  if (c < k) return 0;
  const denominator = Number(binomial(n, k));
  if (Number.isFinite(denominator)) return Number(binomial(c, k)) / denominator;
  let value = 1;
  for (let j = 0; j < k; j++) value *= (c - j) / (n - j);
  return value;
}

export function isSuccess(score: number, threshold = 1): boolean {
  return score >= threshold - SCORE_TOLERANCE;
}

export function passHatK(tasks: readonly TaskTrials[], options: PassHatKOptions = {}): PassHatKReport {
  const threshold = options.threshold ?? 1;
  if (!Number.isFinite(threshold)) throw new RangeError(`threshold must be a finite number, got ${threshold}`);
  const seen = new Set<string>();
  for (const { task, scores } of tasks) {
    if (seen.has(task)) throw new RangeError(`task "${task}" is listed twice; give all its trials in one entry`);
    seen.add(task);
    if (scores.length === 0) throw new RangeError(`task "${task}" has no trials`);
    const bad = scores.find((s) => !Number.isFinite(s));
    if (bad !== undefined) throw new RangeError(`task "${task}" has a score that is not a finite number: ${bad}`);
  }
  const reliability = tasks.map(({ task, scores }) => ({
    task,
    trials: scores.length,
    successes: scores.filter((s) => isSuccess(s, threshold)).length,
  }));
  const maxK = reliability.length > 0 ? Math.min(...reliability.map((t) => t.trials)) : 0;
  const pass_hat_k = Array.from({ length: maxK }, (_, i) => {
    const k = i + 1;
    const value = reliability.reduce((sum, t) => sum + passHatKForTask(t.trials, t.successes, k), 0) / reliability.length;
    return { k, value };
  });
  const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  const average_score = tasks.length > 0 ? mean(tasks.map((t) => mean(t.scores))) : 0;
  return { threshold, tasks: reliability, pass_hat_k, average_score };
}
