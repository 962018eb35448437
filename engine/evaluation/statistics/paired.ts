// Two agents over one suite, scenario by scenario: each scenario's trials are averaged first, so a
// scenario is one pair whatever its trial counts. The mean difference gets a paired bootstrap
// interval (the differences resampled by scenario), and success (score at the threshold) gets
// McNemar's test in its exact form: under "no difference", the scenarios that flipped one way are
// Binomial(flipped, 1/2), which is also the sign test on wins and losses of success.
import { scenarioMeanInterval, mean, type BootstrapOptions, type Interval } from "./intervals.js";

/** Two-sided exact binomial p-value for `b` flips one way and `c` the other (McNemar 1947, exact form). */
export function exactMcNemar(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) throw new RangeError(`McNemar needs counts, got ${b} and ${c}`);
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  // 2 * P(X <= k) for X ~ Binomial(n, 1/2), as exact integers: 2 * sum C(n, i) over 2^n, scaled to
  // 15 significant digits before the one inexact division.
  let term = 1n;
  let sum = 1n;
  for (let i = 1; i <= k; i++) {
    term = (term * BigInt(n - i + 1)) / BigInt(i);
    sum += term;
  }
  const scale = 10n ** 15n;
  return Math.min(1, Number((2n * sum * scale) / 2n ** BigInt(n)) / Number(scale));
}

interface PairedScenario {
  readonly scenario: string;
  /** Mean over A's trials, and over B's. */
  readonly a: number;
  readonly b: number;
}

export interface PairedComparison {
  readonly scenarios: number;
  /** B scored higher (by more than the tolerance), lower, the same. */
  readonly wins: number;
  readonly losses: number;
  readonly ties: number;
  /** Mean of B - A over the scenarios. */
  readonly mean_difference: number;
  /** Percentile bootstrap over scenarios of the mean difference, 95%; null under MIN_INTERVAL_SCENARIOS pairs. */
  readonly interval: Interval | null;
  /** Success is a mean score at the threshold (every trial succeeded, for scores in [0, 1] and threshold 1). */
  readonly success: {
    readonly threshold: number;
    readonly a: number;
    readonly b: number;
    /** Scenarios A failed and B passed, and the other way round. */
    readonly only_b: number;
    readonly only_a: number;
    readonly test: "exact McNemar (two-sided binomial on the discordant scenarios)";
    readonly p_value: number;
  };
}

const TIE_TOLERANCE = 1e-9;
const SUCCESS_TOLERANCE = 1e-6;

/** Paired statistics of B against A; null when no scenario is paired. */
export function comparePaired(pairs: readonly PairedScenario[], threshold = 1, options: BootstrapOptions = {}): PairedComparison | null {
  if (pairs.length === 0) return null;
  const diffs = pairs.map((p) => p.b - p.a);
  const succeeds = (x: number): boolean => x >= threshold - SUCCESS_TOLERANCE;
  const onlyB = pairs.filter((p) => succeeds(p.b) && !succeeds(p.a)).length;
  const onlyA = pairs.filter((p) => succeeds(p.a) && !succeeds(p.b)).length;
  return {
    scenarios: pairs.length,
    wins: diffs.filter((d) => d > TIE_TOLERANCE).length,
    losses: diffs.filter((d) => d < -TIE_TOLERANCE).length,
    ties: diffs.filter((d) => Math.abs(d) <= TIE_TOLERANCE).length,
    mean_difference: mean(diffs),
    interval: scenarioMeanInterval(diffs, options),
    success: {
      threshold,
      a: pairs.filter((p) => succeeds(p.a)).length,
      b: pairs.filter((p) => succeeds(p.b)).length,
      only_b: onlyB,
      only_a: onlyA,
      test: "exact McNemar (two-sided binomial on the discordant scenarios)",
      p_value: exactMcNemar(onlyB, onlyA),
    },
  };
}
