// 95% intervals for suite and category scores. A success rate (a proportion of runs) gets the
// Wilson score interval, which stays inside [0, 1] and behaves at 0/n and n/n where the normal
// approximation does not. A mean score (scores in [0, 1], one per scenario) gets a percentile
// bootstrap over scenarios: scenarios are the sampling unit, since trials of one scenario are
// averaged first. The bootstrap is seeded, so the same data always gives the same interval.
import { SeededRandom } from "../../episode/random.js";

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** The 0.975 quantile of the standard normal: a two-sided 95% interval. */
const Z_95 = 1.959963984540054;

/** Resamples per bootstrap: the interval's ends move by well under 0.01 between seeds at this count. */
export const BOOTSTRAP_RESAMPLES = 2000;

/** The seed every bootstrap uses unless told otherwise, so reports are reproducible. */
export const BOOTSTRAP_SEED = 20260101;

/** Wilson's score interval for `successes` of `n` (Wilson 1927; Agresti & Coull 1998). Null when n is 0. */
export function wilsonInterval(successes: number, n: number, z = Z_95): Interval | null {
  if (!Number.isInteger(successes) || !Number.isInteger(n) || successes < 0 || successes > n) {
    throw new RangeError(`Wilson needs integers 0 <= successes <= n, got ${successes} of ${n}`);
  }
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0/n and n/n the end is exactly 0 or 1; rounding must not push it past.
  return { low: successes === 0 ? 0 : Math.max(0, centre - half), high: successes === n ? 1 : Math.min(1, centre + half) };
}

export interface BootstrapOptions {
  readonly seed?: number;
  readonly resamples?: number;
  /** Two-sided coverage; default 0.95. */
  readonly level?: number;
}

/**
 * The percentile bootstrap interval of the mean of `values` (Efron & Tibshirani 1993, ch. 13):
 * `resamples` samples of the same size drawn with replacement, their means sorted, and the
 * (1 - level) / 2 and (1 + level) / 2 quantiles taken with linear interpolation (numpy's default).
 * Null for no values; a single value (or all equal) gives a zero-width interval.
 */
export function bootstrapMeanInterval(values: readonly number[], options: BootstrapOptions = {}): Interval | null {
  if (values.length === 0) return null;
  if (values.some((v) => !Number.isFinite(v))) throw new RangeError("bootstrap needs finite values");
  const means = bootstrapMeans(values, options.resamples ?? BOOTSTRAP_RESAMPLES, options.seed ?? BOOTSTRAP_SEED);
  const level = options.level ?? 0.95;
  return { low: quantile(means, (1 - level) / 2), high: quantile(means, (1 + level) / 2) };
}

/**
 * Fewest scenarios a mean's bootstrap interval is given for. Below it the percentile bootstrap is
 * too narrow to be read as 95%: it spreads the resampled means by the data's own spread (the
 * (n - 1) / n shrink, and no t correction), so for normal data it covers about 85% at n = 5 and
 * 90% at n = 10; and at n = 2 it has only three distinct resampled means, and a category of one
 * gives a zero-width interval. Under this count the interval is null and printed "[n too small]".
 */
export const MIN_INTERVAL_SCENARIOS = 10;

/** The bootstrap interval of a mean over scenarios, or null when there are fewer than MIN_INTERVAL_SCENARIOS. */
export function scenarioMeanInterval(values: readonly number[], options: BootstrapOptions = {}): Interval | null {
  return values.length < MIN_INTERVAL_SCENARIOS ? null : bootstrapMeanInterval(values, options);
}

/** The sorted means of `resamples` resamples of `values`, drawn with a generator seeded with `seed`. */
function bootstrapMeans(values: readonly number[], resamples: number, seed: number): number[] {
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  const random = SeededRandom.fromSeed(seed);
  const n = values.length;
  const data = Float64Array.from(values);
  const means = new Float64Array(resamples);
  // nextUint32 * n / 2^32 is uniform over [0, n); the bias of truncating it to an index is below n / 2^32.
  const scale = n / 0x1_0000_0000;
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += data[(random.nextUint32() * scale) >>> 0]!;
    means[r] = sum / n;
  }
  return Array.from(means.sort());
}

/** The q-quantile of sorted values, interpolating linearly between order statistics (Hyndman & Fan type 7). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new RangeError("quantile of no values");
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (at - below);
}

export const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** "[0.49, 0.94]" for the console; a null interval (fewer than MIN_INTERVAL_SCENARIOS scenarios) is "[n too small]". */
export const formatInterval = (i: Interval | null): string =>
  i === null ? "[n too small]" : `[${i.low.toFixed(2)}, ${i.high.toFixed(2)}]`;
