// The intervals and the paired test against textbook values: Wilson's interval against Newcombe
// (1998, Stat Med 17:857, Table I, method 3) and 8 of 10 (statsmodels' proportion_confint gives the
// same 0.4902-0.9433); the exact McNemar p-value against the binomial sum done by hand; the
// bootstrap against its exact distribution, which for 0/1 data is a binomial one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { aggregateByCategory } from "../../engine/evaluation/categories.js";
import {
  bootstrapMeanInterval,
  formatInterval,
  MIN_INTERVAL_SCENARIOS,
  quantile,
  scenarioMeanInterval,
  wilsonInterval,
} from "../../engine/evaluation/statistics/intervals.js";
import { comparePaired, exactMcNemar } from "../../engine/evaluation/statistics/paired.js";

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const ends = (i: { low: number; high: number } | null): [number, number] | null => (i === null ? null : [round4(i.low), round4(i.high)]);

test("Wilson's interval equals Newcombe's published values and 8/10's", () => {
  assert.deepEqual(ends(wilsonInterval(8, 10)), [0.4902, 0.9433]);
  assert.deepEqual(ends(wilsonInterval(81, 263)), [0.2553, 0.3662]);
  assert.deepEqual(ends(wilsonInterval(15, 148)), [0.0624, 0.1605]);
  assert.deepEqual(ends(wilsonInterval(0, 20)), [0, 0.1611]);
  assert.deepEqual(ends(wilsonInterval(1, 29)), [0.0061, 0.1718]);
  // All successes: the upper end is exactly 1, not 1.0000000000000002.
  assert.equal(wilsonInterval(29, 29)?.high, 1);
  assert.equal(wilsonInterval(0, 0), null);
  assert.throws(() => wilsonInterval(3, 2), /0 <= successes <= n/);
});

test("exact McNemar: 10 flips one way and 2 the other give p = 2 * (1 + 12 + 66) / 2^12", () => {
  assert.equal(exactMcNemar(10, 2), 158 / 4096);
  assert.equal(exactMcNemar(2, 10), 158 / 4096);
  // No discordant scenario, or a perfect balance: no evidence at all.
  assert.equal(exactMcNemar(0, 0), 1);
  assert.equal(exactMcNemar(3, 3), 1);
  // 6 to 0: 2 / 64.
  assert.equal(round4(exactMcNemar(6, 0)), round4(2 / 64));
  // Large counts stay exact: 500 to 500 is p = 1 (capped), 600 to 400 is tiny but not 0.
  assert.equal(exactMcNemar(500, 500), 1);
  assert.ok(exactMcNemar(600, 400) < 1e-9);
});

test("the bootstrap of 9 successes in 10 gives the exact bootstrap distribution's 2.5% and 97.5% points, 0.7 and 1", () => {
  // Each resample's mean is Binomial(10, 0.9) / 10: P(<= 0.6) = 0.0128 and P(<= 0.7) = 0.0702, so
  // the 2.5% point is 0.7; P(<= 0.9) = 0.651, so the 97.5% point is 1.
  const values = [0, 1, 1, 1, 1, 1, 1, 1, 1, 1];
  assert.deepEqual(ends(bootstrapMeanInterval(values)), [0.7, 1]);
  assert.deepEqual(ends(bootstrapMeanInterval(values, { seed: 7 })), [0.7, 1]);
});

test("the bootstrap is reproducible: the same seed gives the same interval, another seed may not", () => {
  const values = [0.1, 0.45, 0.5, 0.8, 1, 1, 0.3, 0.65, 0.9, 0.2, 0.55];
  const a = bootstrapMeanInterval(values, { seed: 1 });
  assert.deepEqual(bootstrapMeanInterval(values, { seed: 1 }), a);
  assert.notDeepEqual(bootstrapMeanInterval(values, { seed: 2 }), a);
  // The interval contains the mean and stays within the data's range.
  const m = values.reduce((x, y) => x + y) / values.length;
  assert.ok(a !== null && a.low < m && m < a.high && a.low >= 0.1 && a.high <= 1);
  assert.deepEqual(ends(bootstrapMeanInterval([0.4, 0.4, 0.4])), [0.4, 0.4]);
  assert.equal(bootstrapMeanInterval([]), null);
});

test("quantiles interpolate as numpy's default (type 7)", () => {
  assert.equal(quantile([1, 2, 3, 4], 0.5), 2.5);
  assert.equal(quantile([1, 2, 3, 4], 0.25), 1.75);
  assert.equal(quantile([5], 0.975), 5);
});

test("paired comparison: wins, losses, ties, mean difference and McNemar on the scenarios that flipped", () => {
  const pairs = [
    { scenario: "a", a: 1, b: 1 },
    { scenario: "b", a: 0, b: 1 },
    { scenario: "c", a: 0.5, b: 1 },
    { scenario: "d", a: 1, b: 0.5 },
    { scenario: "e", a: 0.2, b: 0.2 },
  ];
  const c = comparePaired(pairs);
  assert.ok(c !== null);
  assert.deepEqual([c.wins, c.losses, c.ties], [2, 1, 2]);
  assert.equal(round4(c.mean_difference), 0.2);
  // Success flipped to B in b and c, to A in d: McNemar on 2 and 1 is p = 1.
  assert.deepEqual([c.success.only_b, c.success.only_a, c.success.p_value], [2, 1, 1]);
  // Five pairs are under MIN_INTERVAL_SCENARIOS: no interval, rather than a confident-looking one.
  assert.equal(c.interval, null);
  assert.equal(comparePaired([]), null);
});

test("no bootstrap interval under MIN_INTERVAL_SCENARIOS scenarios; from there on, the plain bootstrap's", () => {
  assert.equal(MIN_INTERVAL_SCENARIOS, 10);
  // Issue 38's n = 2: two differences gave [-0.64, -0.09]; a category of one gave [0.89, 0.89].
  assert.equal(scenarioMeanInterval([-0.64, -0.09]), null);
  assert.equal(scenarioMeanInterval([0.89]), null);
  assert.equal(formatInterval(scenarioMeanInterval([0.89])), "[n too small]");
  const nine = [1, 0, 1, 1, 0.5, 1, 0, 1, 1];
  assert.equal(scenarioMeanInterval(nine), null);
  const ten = [...nine, 0.25];
  assert.deepEqual(scenarioMeanInterval(ten), bootstrapMeanInterval(ten));
  const pairs = ten.map((b, i) => ({ scenario: String(i), a: 0.5, b }));
  assert.deepEqual(comparePaired(pairs)?.interval, bootstrapMeanInterval(ten.map((b) => b - 0.5)));
  // Categories and apps follow the same rule: a category of one has no interval.
  const rows = aggregateByCategory([{ categories: ["STATE_DEPENDENCY"], score: 0.89, turn_count: 3 }]);
  assert.deepEqual(
    rows.map((r) => [r.category, r.interval]),
    [
      ["STATE_DEPENDENCY", null],
      ["ALL_CATEGORIES", null],
    ],
  );
});
