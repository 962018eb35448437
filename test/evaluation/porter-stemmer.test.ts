import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { porterStem } from "../../engine/evaluation/porter-stemmer.js";

// word<TAB>stem pairs produced by NLTK's PorterStemmer() (scripts/golden/porter_golden.py).
function goldenStems(): Array<[string, string]> {
  const text = readFileSync(join(__dirname, "fixtures", "porter-golden.tsv"), "utf8");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const fields = line.split("\t");
      if (fields.length !== 2) throw new Error(`malformed golden line: ${JSON.stringify(line)}`);
      return [fields[0]!, fields[1]!];
    });
}

test("every golden word stems exactly as NLTK's PorterStemmer does", () => {
  const golden = goldenStems();
  assert.ok(golden.length > 50_000, `expected a large golden list, got ${golden.length}`);
  const mismatches = golden.filter(([word, stem]) => porterStem(word) !== stem);
  assert.deepEqual(
    mismatches.slice(0, 20).map(([word, stem]) => ({ word, expected: stem, actual: porterStem(word) })),
    [],
    `${mismatches.length} of ${golden.length} stems differ`,
  );
});

test("NLTK's irregular forms win over the rules", () => {
  assert.equal(porterStem("dying"), "die");
  assert.equal(porterStem("lying"), "lie");
  assert.equal(porterStem("skies"), "sky");
  assert.equal(porterStem("news"), "news");
  assert.equal(porterStem("innings"), "inning");
  assert.equal(porterStem("proceed"), "proceed");
});

test("the NLTK departures from the published algorithm apply", () => {
  assert.equal(porterStem("ties"), "tie"); // four-letter "ies"
  assert.equal(porterStem("tied"), "tie"); // four-letter "ied"
  assert.equal(porterStem("fly"), "fli"); // y -> i without a preceding vowel in the stem
  assert.equal(porterStem("enjoy"), "enjoy"); // but not after a vowel
  assert.equal(porterStem("geology"), "geolog"); // "logi" judged with its "l"
  assert.equal(porterStem("hopefully"), "hope"); // "fulli" -> "ful"
});

test("classic Porter examples still hold", () => {
  const cases: Array<[string, string]> = [
    ["caresses", "caress"],
    ["ponies", "poni"],
    ["cats", "cat"],
    ["agreed", "agre"],
    ["feed", "feed"],
    ["hopping", "hop"],
    ["falling", "fall"],
    ["filing", "file"],
    ["relational", "relat"],
    ["conditional", "condit"],
    ["adoption", "adopt"],
    ["controlling", "control"],
    ["connections", "connect"],
    ["generously", "gener"],
    ["cried", "cri"],
    ["formally", "formal"],
  ];
  assert.deepEqual(
    cases.map(([word]) => [word, porterStem(word)]),
    cases,
  );
});

test("short words pass through lowercased; the irregular table is case-sensitive like NLTK's", () => {
  assert.equal(porterStem("as"), "as");
  assert.equal(porterStem("OK"), "ok");
  assert.equal(porterStem(""), "");
  assert.equal(porterStem("Dying"), "dy"); // lowercased "dying" through the rules, not the table
  assert.equal(porterStem("RUNNING"), "run");
});

test("a long run of y does not exhaust the stack", () => {
  // NLTK decides whether each y is a vowel recursively; with 50 y's it gives "y" * 49 + "i".
  assert.equal(porterStem(`${"y".repeat(200_000)}ing`), `${"y".repeat(199_999)}i`);
});
