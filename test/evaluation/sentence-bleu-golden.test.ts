// Our sentence BLEU against what sacrebleu 2.6.0's `sentence_bleu` (default arguments) computed
// for the same pairs (scripts/golden/sacrebleu_golden.py). Scores and precisions within 1e-9:
// JavaScript's Math.exp/Math.log need not round the last bit as Python's libm does; lengths and
// n-gram counts exactly.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { sentenceBleu } from "../../engine/benchmarks/dialogtool/tasks/bleu.js";
import { tokenize13a } from "../../engine/benchmarks/dialogtool/tasks/tokenize-13a.js";

interface GoldenCase {
  hypothesis: string;
  references: string[];
  score: number;
  precisions: number[];
  bp: number;
  sys_len: number;
  ref_len: number;
  counts: number[];
  totals: number[];
}

interface Golden {
  sacrebleu: string;
  tokens: Record<string, string[]>;
  cases: GoldenCase[];
}

const TOLERANCE = 1e-9;

function isNumberArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((n) => typeof n === "number");
}

function readGolden(): Golden {
  const parsed = JSON.parse(readFileSync(join(__dirname, "fixtures", "sacrebleu-golden.json"), "utf8")) as Partial<Golden>;
  if (typeof parsed.sacrebleu !== "string" || typeof parsed.tokens !== "object" || !Array.isArray(parsed.cases)) {
    throw new Error("sacrebleu-golden.json: expected {sacrebleu, tokens, cases}");
  }
  parsed.cases.forEach((c: Partial<GoldenCase>, index) => {
    const wellFormed =
      typeof c.hypothesis === "string" &&
      Array.isArray(c.references) &&
      typeof c.score === "number" &&
      isNumberArray(c.precisions) &&
      typeof c.bp === "number" &&
      typeof c.sys_len === "number" &&
      typeof c.ref_len === "number" &&
      isNumberArray(c.counts) &&
      isNumberArray(c.totals);
    if (!wellFormed) throw new Error(`sacrebleu-golden.json: case ${index} is malformed`);
  });
  return parsed as Golden;
}

const golden = readGolden();

function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= TOLERANCE;
}

test("the golden file is sacrebleu 2.6.0 and covers the cases that matter", () => {
  assert.equal(golden.sacrebleu, "2.6.0");
  assert.ok(golden.cases.length >= 300, `${golden.cases.length} cases`);
  const has = (what: string, predicate: (c: GoldenCase) => boolean) => assert.ok(golden.cases.some(predicate), what);
  has("an empty hypothesis", (c) => c.sys_len === 0);
  has("an empty reference", (c) => c.ref_len === 0);
  has("a brevity penalty", (c) => c.bp > 0 && c.bp < 1);
  has("several references", (c) => c.references.length >= 3);
  has("a smoothed precision (an order with no match)", (c) => c.counts.some((n, i) => n === 0 && (c.totals[i] ?? 0) > 0) && c.score > 0);
  has("a hypothesis shorter than four tokens that scores", (c) => c.sys_len < 4 && c.score > 0);
});

test(`the 13a tokens equal sacrebleu's for all ${Object.keys(golden.tokens).length} golden strings`, () => {
  const wrong = Object.entries(golden.tokens)
    .filter(([text, tokens]) => JSON.stringify(tokenize13a(text)) !== JSON.stringify(tokens))
    .map(([text, tokens]) => `${JSON.stringify(text)}: sacrebleu ${JSON.stringify(tokens)}, ours ${JSON.stringify(tokenize13a(text))}`);
  assert.deepEqual(wrong.slice(0, 5), []);
});

test(`sentence BLEU equals sacrebleu ${golden.sacrebleu} on all ${golden.cases.length} golden pairs`, () => {
  const wrong: string[] = [];
  for (const c of golden.cases) {
    const ours = sentenceBleu(c.hypothesis, c.references);
    const agrees =
      near(ours.score, c.score) &&
      near(ours.brevityPenalty, c.bp) &&
      ours.precisions.length === c.precisions.length &&
      ours.precisions.every((p, i) => near(p, c.precisions[i]!)) &&
      ours.hypLen === c.sys_len &&
      ours.refLen === c.ref_len &&
      JSON.stringify(ours.matches) === JSON.stringify(c.counts) &&
      JSON.stringify(ours.totals) === JSON.stringify(c.totals);
    if (!agrees) {
      wrong.push(
        `${JSON.stringify(c.hypothesis)} vs ${JSON.stringify(c.references)}: sacrebleu ${c.score} ` +
          `${JSON.stringify(c.precisions)} bp ${c.bp} ${c.sys_len}/${c.ref_len}; ours ${ours.score} ` +
          `${JSON.stringify(ours.precisions)} bp ${ours.brevityPenalty} ${ours.hypLen}/${ours.refLen}`,
      );
    }
  }
  assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} of ${golden.cases.length} pairs differ`);
});

// What a reader would check by hand; each figure is sacrebleu's (see the golden file).
test("an identical reply scores 100 and a reply sharing no word scores 0", () => {
  const reply = "I've sent the message to Fredrik Thordendal.";
  assert.ok(near(sentenceBleu(reply, [reply]).score, 100));
  const disjoint = sentenceBleu("alpha beta gamma delta", ["epsilon zeta eta theta"]);
  assert.equal(disjoint.score, 0);
  assert.deepEqual(disjoint.precisions, [0, 0, 0, 0]);
});

test("an empty reply scores 0 with no brevity credit; an empty reference gives 0 too", () => {
  const empty = sentenceBleu("", ["The meeting is at noon."]);
  assert.equal(empty.score, 0);
  assert.equal(empty.brevityPenalty, 0);
  assert.equal(sentenceBleu("The meeting is at noon.", [""]).score, 0);
});

test("a one-word reply matching a one-word reference scores 100 (effective order)", () => {
  assert.ok(near(sentenceBleu("hello", ["hello"]).score, 100));
});

test("a short reply is penalised for brevity: 'The cat sat.' against a seven-token reference", () => {
  const result = sentenceBleu("The cat sat.", ["The cat sat on the mat."]);
  assert.equal(result.hypLen, 4);
  assert.equal(result.refLen, 7);
  assert.ok(near(result.brevityPenalty, Math.exp(1 - 7 / 4)));
  assert.ok(near(result.score, 30.18153515504547), `${result.score}`);
});

test("repeated words are clipped to how often the reference uses them", () => {
  const result = sentenceBleu("the the the the the the the", ["the cat is on the mat"]);
  assert.deepEqual(result.matches.slice(0, 1), [2]);
  assert.ok(near(result.precisions[0]!, (100 * 2) / 7));
});

test("13a splits punctuation off words but keeps numbers like 3.14, 1,000 and apostrophes whole", () => {
  assert.deepEqual(tokenize13a("It costs 3.14 dollars, I've heard."), ["It", "costs", "3.14", "dollars", ",", "I've", "heard", "."]);
  assert.deepEqual(tokenize13a("pages 2-3, a well-known fact"), ["pages", "2", "-", "3", ",", "a", "well-known", "fact"]);
  assert.deepEqual(tokenize13a("Tom &amp; Jerry"), ["Tom", "&", "Jerry"]);
});

test("no reference at all is refused", () => {
  assert.throws(() => sentenceBleu("hello", []), /at least one reference/);
});
