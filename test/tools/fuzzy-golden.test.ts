// Our re-implementation of rapidfuzz's scorers against scores the rapidfuzz wheel computed for the
// same pairs (scripts/golden/rapidfuzz_golden.py). Equality is exact: upstream compares these
// floats with a cutoff, so a last-bit difference could keep or drop a row.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { defaultProcess, ratio } from "../../engine/tools/fuzzy/ratios.js";
import { partialTokenRatio, tokenRatio, tokenSetRatio, tokenSortRatio } from "../../engine/tools/fuzzy/token-ratios.js";
import { partialRatioProcessed, wRatioProcessed } from "../../engine/tools/fuzzy/wratio.js";

interface Golden {
  rapidfuzz: string;
  processed: Record<string, string>;
  columns: string[];
  cases: [string, string, ...number[]][];
}

const golden = JSON.parse(readFileSync(join(__dirname, "fixtures", "rapidfuzz-golden.json"), "utf8")) as Golden;

const scorers: Record<string, (s1: string, s2: string) => number> = {
  wratio: wRatioProcessed,
  partial_ratio: partialRatioProcessed,
  ratio: (a, b) => ratio(defaultProcess(a), defaultProcess(b)),
  token_sort_ratio: (a, b) => tokenSortRatio(defaultProcess(a), defaultProcess(b)),
  token_set_ratio: (a, b) => tokenSetRatio(defaultProcess(a), defaultProcess(b)),
  token_ratio: (a, b) => tokenRatio(defaultProcess(a), defaultProcess(b)),
  partial_token_ratio: (a, b) => partialTokenRatio(defaultProcess(a), defaultProcess(b)),
};

test("the golden file covers every scorer and enough pairs to mean something", () => {
  assert.deepEqual(golden.columns.slice(2), Object.keys(scorers));
  assert.ok(golden.cases.length > 2000, `${golden.cases.length} cases`);
  assert.ok(
    golden.cases.some(([a, b]) => Math.min(defaultProcess(a).length, defaultProcess(b).length) > 64),
    "a needle longer than 64",
  );
});

test("default_process gives rapidfuzz's text for every golden string", () => {
  const wrong = Object.entries(golden.processed).filter(([input, expected]) => defaultProcess(input) !== expected);
  assert.deepEqual(wrong, []);
});

for (const [column, index] of golden.columns.slice(2).map((c, i) => [c, i + 2] as const)) {
  test(`${column} equals rapidfuzz ${golden.rapidfuzz} on all ${golden.cases.length} pairs`, () => {
    const scorer = scorers[column];
    assert.ok(scorer, column);
    const wrong = golden.cases
      .filter((c) => scorer(c[0], c[1]) !== c[index])
      .map((c) => `${JSON.stringify(c[0])} vs ${JSON.stringify(c[1])}: rapidfuzz ${c[index]}, ours ${scorer(c[0], c[1])}`);
    assert.deepEqual(wrong.slice(0, 5), []);
  });
}

test("the known divergence from the old port is gone: WRatio('Good', \"How's it going\") is 57", () => {
  assert.equal(wRatioProcessed("Good", "How's it going"), 57);
});
