import { test } from "node:test";
import assert from "node:assert/strict";
import { SeededRandom } from "../../engine/episode/random.js";

const draw = (r: SeededRandom, n: number): number[] => Array.from({ length: n }, () => r.nextUint32());

test("the same seed gives the same sequence and different seeds different ones", () => {
  assert.deepEqual(draw(SeededRandom.fromSeed(42), 8), draw(SeededRandom.fromSeed(42), 8));
  assert.notDeepEqual(draw(SeededRandom.fromSeed(42), 8), draw(SeededRandom.fromSeed(43), 8));
  // The high bits of a large seed count: 1 and 2^32 + 1 share their low 32 bits.
  assert.notDeepEqual(draw(SeededRandom.fromSeed(1), 8), draw(SeededRandom.fromSeed(2 ** 32 + 1), 8));
  assert.notDeepEqual(draw(SeededRandom.fromSeed(-1), 8), draw(SeededRandom.fromSeed(2 ** 32 - 1), 8));
});

test("a clone continues from the same state without affecting the original", () => {
  const original = SeededRandom.fromSeed(9);
  draw(original, 3);
  const copy = original.clone();
  const fromCopy = draw(copy, 5);
  draw(copy, 100);
  assert.deepEqual(draw(original, 5), fromCopy);
});

test("uuid4 gives version-4 RFC 4122 ids, reproducible from the seed", () => {
  const a = SeededRandom.fromSeed(3);
  const ids = [a.uuid4(), a.uuid4(), a.uuid4()];
  for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(new Set(ids).size, 3);
  const b = SeededRandom.fromSeed(3);
  assert.deepEqual([b.uuid4(), b.uuid4(), b.uuid4()], ids);
});

test("a seed that is not a safe integer is refused", () => {
  assert.throws(() => SeededRandom.fromSeed(1.5), RangeError);
  assert.throws(() => SeededRandom.fromSeed(Number.NaN), RangeError);
  assert.throws(() => SeededRandom.fromSeed(2 ** 60), RangeError);
});
