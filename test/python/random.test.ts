// CPython's random.Random, pinned by outputs of CPython itself. The literals were produced with
// Python 3.11.7 on this machine, e.g.
//   python3 -c "import random; r=random.Random(489); print([r.randint(0,0xffffffff) for _ in range(5)])"
// (each test names the expression it reproduces).
import { test } from "node:test";
import assert from "node:assert/strict";
import { PythonRandom } from "../../engine/python/random.js";

test("randint(0, 0xffffffff) from Random(489) draws what CPython draws (33-bit rejection sampling)", () => {
  const r = new PythonRandom(489);
  assert.deepEqual(
    Array.from({ length: 5 }, () => r.randint(0, 0xffffffff)),
    [3779683183, 3972264225, 1548973024, 3975442733, 3251391945],
  );
});

test("getrandbits(32) gives the raw tempered outputs", () => {
  const r = new PythonRandom(489);
  assert.deepEqual([r.getrandbits(32), r.getrandbits(32), r.getrandbits(32)], [4032595798n, 3967006310n, 771719745n]);
});

test("getrandbits of 1, 31, 33, 64, 100 and 0 bits in sequence", () => {
  // r=random.Random(489); r.getrandbits(1), r.getrandbits(31), r.getrandbits(33), r.getrandbits(64), r.getrandbits(100), r.getrandbits(0)
  const r = new PythonRandom(489);
  assert.deepEqual(
    [r.getrandbits(1), r.getrandbits(31), r.getrandbits(33), r.getrandbits(64), r.getrandbits(100), r.getrandbits(0)],
    [1n, 1983503155n, 5066687041n, 9338661150054680010n, 937852446495514168837473395567n, 0n],
  );
});

test("random() builds a 53-bit float from two outputs", () => {
  const r = new PythonRandom(489);
  assert.deepEqual([r.random(), r.random(), r.random()], [0.9389118770036148, 0.17968000931157013, 0.4326175339985626]);
});

test("ToolTalk-style ids: reminder ids and verification codes from a fresh Random(489)", () => {
  // ["%02x-%04x" % (r.randint(0,0xff), r.randint(0,0xffff)) for _ in range(3)]
  const ids = new PythonRandom(489);
  const hex = (n: number, width: number): string => n.toString(16).padStart(width, "0");
  assert.deepEqual(
    Array.from({ length: 3 }, () => `${hex(ids.randint(0, 0xff), 2)}-${hex(ids.randint(0, 0xffff), 4)}`),
    ["5b-dd80", "20-d9ca", "07-1add"],
  );
  // ["%06d" % r.randint(0,999999) for _ in range(3)]
  const codes = new PythonRandom(489);
  assert.deepEqual(
    Array.from({ length: 3 }, () => String(codes.randint(0, 999999)).padStart(6, "0")),
    ["984520", "968507", "188408"],
  );
});

test("randint over a range with negative bounds", () => {
  const r = new PythonRandom(489);
  assert.deepEqual(
    Array.from({ length: 10 }, () => r.randint(-3, 3)),
    [-2, 1, 0, 1, -3, 3, 2, 1, 0, -3],
  );
});

test("seeding: 0, a seed wider than 32 bits, and a negative seed (its absolute value)", () => {
  const first2 = (r: PythonRandom): bigint[] => [r.getrandbits(32), r.getrandbits(32)];
  assert.deepEqual(first2(new PythonRandom(0)), [3626764237n, 1654615998n]);
  assert.deepEqual(first2(new PythonRandom(2n ** 64n + 5n)), [2192917427n, 3085273184n]);
  assert.deepEqual(first2(new PythonRandom(-489)), [4032595798n, 3967006310n]);
});

test("the state regenerates correctly past one block of 624 outputs", () => {
  // r=random.Random(489); [r.getrandbits(32) for _ in range(700)]; r.getrandbits(32)
  const r = new PythonRandom(489);
  for (let i = 0; i < 700; i++) r.getrandbits(32);
  assert.equal(r.getrandbits(32), 479276664n);
});

test("clone() continues independently from the same state", () => {
  const r = new PythonRandom(489);
  r.randint(0, 0xffff);
  const copy = r.clone();
  const a = [r.randint(0, 0xffff), r.randint(0, 0xffff)];
  assert.deepEqual([copy.randint(0, 0xffff), copy.randint(0, 0xffff)], a);
  // Advancing the copy does not move the original.
  copy.random();
  const next = r.clone().random();
  assert.equal(r.random(), next);
});

test("invalid arguments are refused", () => {
  const r = new PythonRandom(1);
  assert.throws(() => new PythonRandom(1.5), RangeError);
  assert.throws(() => r.getrandbits(-1), RangeError);
  assert.throws(() => r.randint(3, 2), RangeError);
  assert.throws(() => r.randbelow(0), RangeError);
});
