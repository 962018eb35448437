import { test } from "node:test";
import assert from "node:assert/strict";
import { checkAllOrderings, permutations } from "../../engine/episode/parallel-orderings.js";

test("orderings come in itertools.permutations order, the original first", () => {
  assert.deepEqual(
    [...permutations(3)],
    [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ],
  );
  const four = [...permutations(4)].map((o) => o.join(""));
  assert.equal(four.length, 24);
  assert.equal(new Set(four).size, 24);
  assert.deepEqual([...permutations(1)], [[0]]);
});

test("the first failing ordering wins, otherwise the original one", () => {
  // "b before a" fails: the second ordering [1, 0] is the first to fail.
  const run = (order: readonly number[]) => ({ outcome: order.join(""), failed: order[0] === 1 });
  const failing = checkAllOrderings(2, run);
  assert.deepEqual(failing.order, [1, 0]);
  assert.equal(failing.outcome, "10");
  assert.equal(failing.failed, true);
  assert.equal(failing.checked, 2);

  const fine = checkAllOrderings(3, (order) => ({ outcome: order.join(""), failed: false }));
  assert.deepEqual(fine.order, [0, 1, 2]);
  assert.equal(fine.outcome, "012");
  assert.equal(fine.checked, 6);
});

test("orderings past the cap are not checked", () => {
  const seen: string[] = [];
  const result = checkAllOrderings(
    4,
    (order) => {
      seen.push(order.join(""));
      return { outcome: order.join(""), failed: order.join("") === "3210" };
    },
    5,
  );
  assert.deepEqual(seen, ["0123", "0132", "0213", "0231", "0312"]);
  assert.equal(result.failed, false);
  assert.equal(result.outcome, "0123");
  assert.equal(result.checked, 5);
});
