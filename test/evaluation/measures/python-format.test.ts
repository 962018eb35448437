import { test } from "node:test";
import assert from "node:assert/strict";
import { floatFormats, formatFixed, pyFormat } from "../../../engine/evaluation/measures/python-format.js";
import { pyEquals, pyFloat, pyInt } from "../../../engine/python/values.js";

// Expected strings were printed by CPython 3 (f"{x:.0f}", ..., f"{x:.3f}").
test("float normalisation rounds the exact binary value half to even, like Python", () => {
  assert.deepEqual(floatFormats(2.5), ["2", "2.5", "2.50", "2.500"]);
  assert.deepEqual(floatFormats(0.125), ["0", "0.1", "0.12", "0.125"]);
  assert.deepEqual(floatFormats(2.675), ["3", "2.7", "2.67", "2.675"]);
  assert.deepEqual(floatFormats(1.5), ["2", "1.5", "1.50", "1.500"]);
  assert.deepEqual(floatFormats(0.5), ["0", "0.5", "0.50", "0.500"]);
  assert.deepEqual(floatFormats(-2.5), ["-2", "-2.5", "-2.50", "-2.500"]);
  // Not halves in binary: 0.0005 is slightly above, 1.0005 and 0.045 slightly below.
  assert.deepEqual(floatFormats(0.0005), ["0", "0.0", "0.00", "0.001"]);
  assert.deepEqual(floatFormats(1.0005), ["1", "1.0", "1.00", "1.000"]);
  assert.equal(formatFixed(0.045, 2), "0.04");
  assert.deepEqual(floatFormats(123456.789), ["123457", "123456.8", "123456.79", "123456.789"]);
});

test("float normalisation differs from Number.toFixed exactly on binary ties", () => {
  assert.equal((2.5).toFixed(0), "3");
  assert.equal(formatFixed(2.5, 0), "2");
  assert.equal((0.125).toFixed(2), "0.13");
  assert.equal(formatFixed(0.125, 2), "0.12");
});

test("fixed notation keeps Python's sign, huge and tiny values, and non-finite spellings", () => {
  assert.deepEqual(floatFormats(-0.4), ["-0", "-0.4", "-0.40", "-0.400"]);
  assert.deepEqual(floatFormats(-0), ["-0", "-0.0", "-0.00", "-0.000"]);
  assert.equal(formatFixed(1e22, 1), "10000000000000000000000.0");
  assert.equal(formatFixed(5e-324, 3), "0.000");
  assert.equal(formatFixed(Infinity, 2), "inf");
  assert.equal(formatFixed(-Infinity, 2), "-inf");
  assert.equal(formatFixed(NaN, 2), "nan");
});

test("str.format fills named fields, with specs, conversions and escaped braces", () => {
  assert.deepEqual(pyFormat("It is {days} days till Christmas Day", { days: 12 }), { ok: true, text: "It is 12 days till Christmas Day" });
  assert.deepEqual(pyFormat("{t:.2f} and {t:.0f}", { t: 2.675 }), { ok: true, text: "2.67 and 3" });
  assert.deepEqual(
    pyFormat("{a:>8.2f}|{b:,}|{c:+d}|{d:^7}|{e!r}|{g}|{h:05.1f}|{i:.3s}|{j}|{k:>3}", {
      a: Math.PI,
      b: 1234567,
      c: 5,
      d: "ab",
      e: "x",
      g: true,
      h: -2.25,
      i: "abcdef",
      j: null,
      k: true,
    }),
    { ok: true, text: "    3.14|1,234,567|+5|  ab   |'x'|True|-02.2|abc|None|  1" },
  );
  assert.deepEqual(pyFormat("{x:,.2f}", { x: 1234567.891 }), { ok: true, text: "1,234,567.89" });
  assert.deepEqual(pyFormat("{{literal}} {x}", { x: "v" }), { ok: true, text: "{literal} v" });
  assert.deepEqual(pyFormat("{x!s}", { x: 1.5 }), { ok: true, text: "1.5" });
});

test("str.format reports what Python would refuse instead of guessing", () => {
  assert.deepEqual(pyFormat("It is {days} days", { temperature: "20" }), { ok: false, error: "no extracted value for {days}" });
  const failures = ["{0}", "{}", "{a[0]}", "{x:.2f}", "oops }", "{x", "{x:{y}}", "{x:.2g}"];
  for (const template of failures) {
    const result = pyFormat(template, { x: "text", a: [1], y: 1 });
    assert.equal(result.ok, false, template);
  }
});

test("Python float() and int() conversions used by the extractors", () => {
  assert.equal(pyFloat(20), 20);
  assert.equal(pyFloat(" 12.5 "), 12.5);
  assert.equal(pyFloat("1_000.5"), 1000.5);
  assert.equal(pyFloat("-inf"), -Infinity);
  assert.equal(pyFloat(true), 1);
  assert.equal(pyFloat("12 degrees"), null);
  assert.equal(pyFloat(null), null);
  assert.equal(pyFloat({ a: 1 }), null);
  assert.equal(pyInt(2.7), 2);
  assert.equal(pyInt(-2.7), -2);
  assert.ok(Object.is(pyInt(-0.5), 0));
  assert.equal(pyInt(" 7 "), 7);
  assert.equal(pyInt("7.5"), null);
  assert.equal(pyInt(Infinity), null);
});

test("Python == on decoded JSON: bools are ints, containers compare deeply", () => {
  assert.ok(pyEquals(1, 1.0));
  assert.ok(pyEquals(true, 1));
  assert.ok(!pyEquals("1", 1));
  assert.ok(!pyEquals(null, 0));
  assert.ok(pyEquals({ a: [1, { b: null }] }, { a: [1, { b: null }] }));
  assert.ok(!pyEquals({ a: 1 }, { a: 1, b: 2 }));
  assert.ok(!pyEquals([1, 2], [2, 1]));
});
