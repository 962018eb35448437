import { test } from "node:test";
import assert from "node:assert/strict";
import { isSuccess, passHatK, passHatKForTask } from "../../../engine/evaluation/pass-k.js";

/** The share of k-subsets of `outcomes` that are all successes, by enumeration. */
function bruteForce(outcomes: readonly boolean[], k: number): number {
  let all = 0;
  let good = 0;
  const walk = (start: number, chosen: boolean[]): void => {
    if (chosen.length === k) {
      all++;
      if (chosen.every(Boolean)) good++;
      return;
    }
    for (let i = start; i < outcomes.length; i++) walk(i + 1, [...chosen, outcomes[i]!]);
  };
  walk(0, []);
  return good / all;
}

test("C(c,k)/C(n,k) is the chance that k trials drawn without replacement all succeed", () => {
  for (let n = 1; n <= 6; n++) {
    for (let c = 0; c <= n; c++) {
      const outcomes = Array.from({ length: n }, (_, i) => i < c);
      for (let k = 1; k <= n; k++) {
        assert.ok(Math.abs(passHatKForTask(n, c, k) - bruteForce(outcomes, k)) < 1e-12, `n=${n} c=${c} k=${k}`);
      }
    }
  }
});

test("exact values: pass^1 is the success rate, and simple fractions come out exact", () => {
  assert.equal(passHatKForTask(4, 3, 1), 0.75);
  assert.equal(passHatKForTask(4, 3, 2), 0.5);
  assert.equal(passHatKForTask(4, 4, 4), 1);
  assert.equal(passHatKForTask(4, 2, 3), 0);
});

test("large trial counts do not overflow", () => {
  assert.equal(passHatKForTask(2000, 2000, 1000), 1);
  assert.ok(Math.abs(passHatKForTask(2000, 1999, 1000) - 0.5) < 1e-12);
});

test("impossible arguments are refused", () => {
  assert.throws(() => passHatKForTask(3, 4, 1), RangeError);
  assert.throws(() => passHatKForTask(3, 2, 0), RangeError);
  assert.throws(() => passHatKForTask(3, 2, 4), RangeError);
  assert.throws(() => passHatKForTask(3, 1.5, 1), RangeError);
});

test("pass^k over tasks is the mean of the per-task estimates", () => {
  const report = passHatK([
    { task: "a", scores: [1, 1, 0.5, 1] },
    { task: "b", scores: [0, 0, 0, 1] },
  ]);
  assert.deepEqual(report.tasks, [
    { task: "a", trials: 4, successes: 3 },
    { task: "b", trials: 4, successes: 1 },
  ]);
  assert.deepEqual(report.pass_hat_k, [
    { k: 1, value: 0.5 },
    { k: 2, value: 0.25 },
    { k: 3, value: 0.125 },
    { k: 4, value: 0 },
  ]);
  assert.equal(report.average_score, 4.5 / 8);
  assert.equal(report.threshold, 1);
});

test("the average score counts each task once, whatever its number of trials", () => {
  // Task a: 1 of 1 trials; task b: 0, 0, 0. Over trials that would be 1/4; over tasks it is (1 + 0) / 2.
  const report = passHatK([
    { task: "a", scores: [1] },
    { task: "b", scores: [0, 0, 0] },
  ]);
  assert.equal(report.average_score, 0.5);
});

test("the success threshold is a parameter, with tau-bench's 1e-6 tolerance", () => {
  assert.equal(isSuccess(0.9999995), true);
  assert.equal(isSuccess(0.99999), false);
  assert.equal(isSuccess(0.7, 0.7), true);
  const report = passHatK([{ task: "a", scores: [0.8, 0.6, 0.9] }], { threshold: 0.75 });
  assert.deepEqual(report.tasks, [{ task: "a", trials: 3, successes: 2 }]);
  assert.equal(report.pass_hat_k[0]?.value, 2 / 3);
});

test("tasks with different trial counts: k goes up to the fewest", () => {
  const report = passHatK([
    { task: "a", scores: [1, 1, 1] },
    { task: "b", scores: [1, 0] },
  ]);
  assert.deepEqual(report.pass_hat_k, [
    { k: 1, value: 0.75 },
    { k: 2, value: 0.5 },
  ]);
});

test("no tasks gives an empty curve", () => {
  assert.deepEqual(passHatK([]), { threshold: 1, tasks: [], pass_hat_k: [], average_score: 0 });
});

test("bad input is refused with the task named", () => {
  assert.throws(() => passHatK([{ task: "a", scores: [] }]), /task "a" has no trials/);
  assert.throws(() => passHatK([{ task: "a", scores: [Number.NaN] }]), /task "a"/);
  assert.throws(
    () =>
      passHatK([
        { task: "a", scores: [1] },
        { task: "a", scores: [0] },
      ]),
    /listed twice/,
  );
  assert.throws(() => passHatK([{ task: "a", scores: [1] }], { threshold: Number.POSITIVE_INFINITY }), RangeError);
});
