import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { lcsLength, rougeLF, rougeTokens } from "../../engine/evaluation/rouge.js";

interface GoldenPair {
  target: string;
  prediction: string;
  fmeasure: number;
}

// Sentence pairs scored by a Python port over NLTK's stemmer (scripts/golden/porter_golden.py).
function goldenPairs(): GoldenPair[] {
  const parsed: unknown = JSON.parse(readFileSync(join(__dirname, "fixtures", "rouge-golden.json"), "utf8"));
  if (!Array.isArray(parsed)) throw new Error("rouge-golden.json must hold an array");
  return parsed.map((entry: unknown, index) => {
    const e = entry as Partial<Record<keyof GoldenPair, unknown>>;
    if (typeof e.target !== "string" || typeof e.prediction !== "string" || typeof e.fmeasure !== "number") {
      throw new Error(`rouge-golden.json entry ${index} is malformed`);
    }
    return { target: e.target, prediction: e.prediction, fmeasure: e.fmeasure };
  });
}

test("golden ROUGE-L F-measures are reproduced within 1e-12", () => {
  const pairs = goldenPairs();
  assert.ok(pairs.length >= 300, `expected at least 300 golden pairs, got ${pairs.length}`);
  const off = pairs
    .map((pair) => ({ ...pair, actual: rougeLF(pair.target, pair.prediction) }))
    .filter((pair) => !(Math.abs(pair.actual - pair.fmeasure) <= 1e-12));
  assert.deepEqual(off.slice(0, 10), [], `${off.length} of ${pairs.length} pairs differ`);
  // The golden set must span the whole range, or the comparison above proves little.
  assert.ok(pairs.some((p) => p.fmeasure === 0) && pairs.some((p) => p.fmeasure === 1));
  assert.ok(pairs.filter((p) => p.fmeasure > 0 && p.fmeasure < 1).length > 150);
});

test("empty or punctuation-only text scores 0 on either side", () => {
  assert.equal(rougeLF("", ""), 0);
  assert.equal(rougeLF("", "something"), 0);
  assert.equal(rougeLF("something", ""), 0);
  assert.equal(rougeLF("?!...", "?!..."), 0);
  assert.equal(rougeLF("hello", "--- ***"), 0);
});

test("case and punctuation do not matter; inflections are conflated by stemming", () => {
  assert.equal(rougeLF("Buy chocolate milk!", "buy, chocolate... MILK"), 1);
  assert.equal(rougeLF("running to the meetings", "run to the meeting"), 1);
  assert.deepEqual(rougeTokens("It's 10:30, John's meetings!"), ["it", "s", "10", "30", "john", "s", "meet"]);
});

test("non-ASCII letters are removed, not transliterated", () => {
  assert.deepEqual(rougeTokens("Café naïve 日本語"), ["caf", "na", "ve"]);
  assert.equal(rougeLF("日本語", "日本語"), 0);
  // Lowercasing happens first, so a Kelvin sign becomes an ASCII "k".
  assert.deepEqual(rougeTokens("\u212Aelvin"), ["kelvin"]);
});

test("only tokens longer than three characters are stemmed", () => {
  assert.deepEqual(rougeTokens("flies fly ties tied"), ["fli", "fly", "tie", "tie"]);
});

test("repeated words count once per occurrence in the common subsequence", () => {
  // target 4 tokens, prediction 1, LCS 1: P = 1, R = 1/4, F = 2 * 1 * 0.25 / 1.25
  assert.equal(rougeLF("the the the the", "the"), (2 * 1 * 0.25) / 1.25);
  assert.equal(rougeLF("the", "the the the the"), (2 * 0.25 * 1) / 1.25);
  // LCS of "a a b b" and "b b a a" is 2, so P = R = F = 0.5.
  assert.equal(rougeLF("a a b b", "b b a a"), 0.5);
});

test("word order matters through the longest common subsequence", () => {
  assert.equal(lcsLength(["a", "b", "c", "d"], ["d", "c", "b", "a"]), 1);
  assert.equal(lcsLength(["a", "b", "c", "d", "e"], ["x", "b", "y", "d", "e"]), 3);
  assert.equal(lcsLength([], ["a"]), 0);
  // Symmetric whichever list is shorter (the row is sized by the shorter one).
  assert.equal(lcsLength(["a", "x", "b"], ["a", "b", "c", "d", "b"]), 2);
  assert.equal(lcsLength(["a", "b", "c", "d", "b"], ["a", "x", "b"]), 2);
});

test("long texts are scored without quadratic memory", () => {
  const words = Array.from({ length: 8_000 }, (_, i) => `w${i % 997}`);
  const text = words.join(" ");
  assert.equal(rougeLF(text, text), 1);
  assert.equal(rougeLF(text, words.slice(0, 2_000).join(" ")), (2 * 1 * 0.25) / 1.25);
});
