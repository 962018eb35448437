// ROUGE-L F-measure as rouge-score 0.1.2 computes it for `RougeScorer(["rougeL"], use_stemmer=True)`,
// which upstream ToolSandbox uses for free-text columns (message content, reminder content,
// contact relationship). Scores feed milestone similarities, so they must agree with upstream
// to the last bit: the tokenizer, the stemmer and the order of the float operations follow it.

import { porterStem } from "./porter-stemmer.js";

/** rouge-score only stems tokens longer than this many characters. */
const STEM_MIN_EXCLUSIVE = 3;

/**
 * Stems recur across the many snapshot rows a milestone is compared with, so they are memoised.
 * The cache is dropped wholesale when full; results never depend on it.
 */
const STEM_CACHE_LIMIT = 50_000;
const stemCache = new Map<string, string>();

function cachedStem(word: string): string {
  let stem = stemCache.get(word);
  if (stem === undefined) {
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stem = porterStem(word);
    stemCache.set(word, stem);
  }
  return stem;
}

/**
 * The tokens rouge-score scores: lowercase, every run of characters outside [a-z0-9] becomes a
 * space (so accented and non-Latin letters vanish), split on whitespace, stem tokens longer than
 * three characters, and keep only non-empty [a-z0-9] tokens.
 */
export function rougeTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const word of text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .split(" ")) {
    if (word === "") continue;
    const token = word.length > STEM_MIN_EXCLUSIVE ? cachedStem(word) : word;
    if (/^[a-z0-9]+$/.test(token)) tokens.push(token);
  }
  return tokens;
}

/**
 * Length of the longest common subsequence of two token lists: O(n·m) time, and one row of
 * O(min(n, m)) integers, because free-text cells can be long.
 */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  const [outer, inner] = a.length >= b.length ? [a, b] : [b, a];
  if (inner.length === 0) return 0;
  // Integer ids make the inner-loop comparison cheap.
  const ids = new Map<string, number>();
  const idOf = (token: string): number => {
    let id = ids.get(token);
    if (id === undefined) {
      id = ids.size;
      ids.set(token, id);
    }
    return id;
  };
  const innerIds = Int32Array.from(inner, idOf);
  // row[j] = LCS of the outer prefix processed so far and inner[0..j).
  const row = new Int32Array(inner.length + 1);
  for (const token of outer) {
    const id = idOf(token);
    let diagonal = 0; // row[j - 1] before this pass overwrote it
    for (let j = 1; j <= inner.length; j++) {
      const above = row[j]!;
      row[j] = innerIds[j - 1] === id ? diagonal + 1 : Math.max(above, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[inner.length]!;
}

/**
 * ROUGE-L F-measure of `prediction` against `target`, in [0, 1]. Precision is relative to the
 * prediction's token count and recall to the target's; either list empty gives 0.
 */
export function rougeLF(target: string, prediction: string): number {
  const targetTokens = rougeTokens(target);
  const predictionTokens = rougeTokens(prediction);
  if (targetTokens.length === 0 || predictionTokens.length === 0) return 0;
  const common = lcsLength(targetTokens, predictionTokens);
  const precision = common / predictionTokens.length;
  const recall = common / targetTokens.length;
  // Same operation order as rouge-score's fmeasure, so the result is bit-identical.
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}
