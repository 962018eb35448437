/**
 * rapidfuzz's WRatio: the plain ratio for strings of similar length, otherwise the best partial
 * alignment, each blended with a token ratio and scaled down as rapidfuzz scales them. Both inputs
 * are expected already processed (see defaultProcess); an empty one scores 0.
 */
import { codePoints } from "./indel.js";
import { defaultProcess, partialRatioOf, ratioOf } from "./ratios.js";
import { partialTokenRatio, tokenRatio } from "./token-ratios.js";

const UNBASE_SCALE = 0.95;

function wRatio(s1: string, s2: string): number {
  const a = codePoints(s1);
  const b = codePoints(s2);
  if (a.length === 0 || b.length === 0) return 0;
  const lengthRatio = a.length > b.length ? a.length / b.length : b.length / a.length;
  const plain = ratioOf(a, b);
  if (lengthRatio < 1.5) return Math.max(plain, tokenRatio(s1, s2) * UNBASE_SCALE);
  const partialScale = lengthRatio <= 8 ? 0.9 : 0.6;
  const partial = Math.max(plain, partialRatioOf(a, b) * partialScale);
  return Math.max(partial, partialTokenRatio(s1, s2) * UNBASE_SCALE * partialScale);
}

/**
 * Scores already computed, by query and choice. A search scores its query against every row of a
 * table (every place, with its aliases and address), and the same searches come back in every trial
 * and every episode of a scenario, so a run mostly asks again for scores it has computed. Bounded:
 * emptied when full, as nothing depends on what it holds.
 */
const scored = new Map<string, number>();
const MAX_SCORED = 200_000;

/** WRatio after rapidfuzz's default processing of both strings, as upstream's searches call it. */
export function wRatioProcessed(query: string, choice: string): number {
  // The query's length first, so no two pairs of strings give one key.
  const key = `${query.length}:${query}${choice}`;
  const known = scored.get(key);
  if (known !== undefined) return known;
  const score = wRatio(defaultProcess(query), defaultProcess(choice));
  if (scored.size >= MAX_SCORED) scored.clear();
  scored.set(key, score);
  return score;
}

/** partial_ratio after default processing, as upstream's holiday lookup calls it. */
export function partialRatioProcessed(query: string, choice: string): number {
  return partialRatioOf(codePoints(defaultProcess(query)), codePoints(defaultProcess(choice)));
}
