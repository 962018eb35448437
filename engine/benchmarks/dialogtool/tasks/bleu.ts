// Sentence-level BLEU for DialogTool's response-generation task, equal to sacrebleu 2.6.0's
// `sentence_bleu(hypothesis, references)` with its defaults: the '13a' tokenizer, case kept,
// n-grams up to 4, 'exp' smoothing and effective order. No maintained npm package computes this,
// so it is ours, pinned to sacrebleu's own numbers by test/evaluation/sentence-bleu-golden.test.ts
// (fixtures from scripts/golden/sacrebleu_golden.py). The float operations keep sacrebleu's
// order, so results agree to the last bit or nearly (Math.exp/log may differ from libm by an ulp).

import { tokenize13a } from "./tokenize-13a.js";

/** sacrebleu's default maximum n-gram order. */
const BLEU_MAX_ORDER = 4;

interface SentenceBleu {
  /** 0..100, as sacrebleu reports it (not 0..1). */
  score: number;
  /** Per order 1..4, in percent; smoothed where nothing matched, 0 past the last order scored. */
  precisions: number[];
  brevityPenalty: number;
  /** Tokens in the hypothesis. */
  hypLen: number;
  /** Tokens in the reference whose length is closest to the hypothesis's (ties: the shorter). */
  refLen: number;
  /** Per order: hypothesis n-grams found in a reference, each clipped to its most frequent use there. */
  matches: number[];
  /** Per order: n-grams in the hypothesis. */
  totals: number[];
}

/**
 * Counts of every n-gram of each order 1..max, one map per order. Tokens never contain
 * whitespace, so a space-joined key cannot collide with another n-gram of the same order.
 */
function countNgrams(tokens: readonly string[]): Map<string, number>[] {
  const byOrder: Map<string, number>[] = [];
  for (let order = 1; order <= BLEU_MAX_ORDER; order++) {
    const counts = new Map<string, number>();
    for (let start = 0; start + order <= tokens.length; start++) {
      const key = tokens.slice(start, start + order).join(" ");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    byOrder.push(counts);
  }
  return byOrder;
}

/**
 * With several references an n-gram may be matched as often as the reference that uses it most
 * uses it (BLEU's clipping, taken across references).
 */
function mostUsesPerNgram(references: readonly string[][]): Map<string, number>[] {
  const merged = Array.from({ length: BLEU_MAX_ORDER }, () => new Map<string, number>());
  for (const tokens of references) {
    countNgrams(tokens).forEach((counts, orderIndex) => {
      const target = merged[orderIndex]!;
      for (const [ngram, count] of counts) target.set(ngram, Math.max(target.get(ngram) ?? 0, count));
    });
  }
  return merged;
}

/** The reference length the brevity penalty compares with: the closest, the shorter on a tie. */
function closestReferenceLength(hypLen: number, referenceLengths: readonly number[]): number {
  let best = referenceLengths[0]!;
  for (const length of referenceLengths) {
    const distance = Math.abs(hypLen - length);
    const bestDistance = Math.abs(hypLen - best);
    if (distance < bestDistance || (distance === bestDistance && length < best)) best = length;
  }
  return best;
}

/** Shorter than the reference costs exp(1 - r/c); an empty hypothesis gets 0. */
function brevityPenalty(hypLen: number, refLen: number): number {
  if (hypLen >= refLen) return 1;
  return hypLen > 0 ? Math.exp(1 - refLen / hypLen) : 0;
}

/**
 * BLEU of one hypothesis against one or more references, as sacrebleu's `sentence_bleu` computes
 * it with default arguments. Throws when `references` is empty (sacrebleu fails there too).
 */
export function sentenceBleu(hypothesis: string, references: readonly string[]): SentenceBleu {
  if (references.length === 0) throw new Error("sentence BLEU needs at least one reference");
  const hypTokens = tokenize13a(hypothesis);
  const refTokens = references.map(tokenize13a);
  const hypLen = hypTokens.length;
  const refLen = closestReferenceLength(
    hypLen,
    refTokens.map((tokens) => tokens.length),
  );
  const allowed = mostUsesPerNgram(refTokens);

  const matches: number[] = [];
  const totals: number[] = [];
  countNgrams(hypTokens).forEach((counts, orderIndex) => {
    let matched = 0;
    let total = 0;
    for (const [ngram, count] of counts) {
      total += count;
      matched += Math.min(count, allowed[orderIndex]!.get(ngram) ?? 0);
    }
    matches.push(matched);
    totals.push(total);
  });

  const penalty = brevityPenalty(hypLen, refLen);
  const precisions: number[] = new Array<number>(BLEU_MAX_ORDER).fill(0);
  const result = { precisions, brevityPenalty: penalty, hypLen, refLen, matches, totals };
  // Nothing matched at any order: sacrebleu reports 0 with all precisions 0, unsmoothed.
  if (matches.every((matched) => matched === 0)) return { score: 0, ...result };

  // Effective order: orders the hypothesis is too short to have are left out of the mean, so a
  // two-word reply can still score 100. 'exp' smoothing: the k-th order with no match gets
  // precision 100 / (2^k * total) instead of 0, halving again for each further empty order.
  let effectiveOrder = 0;
  let smoothing = 1;
  for (let index = 0; index < BLEU_MAX_ORDER; index++) {
    const total = totals[index]!;
    if (total === 0) break;
    effectiveOrder = index + 1;
    const matched = matches[index]!;
    if (matched === 0) {
      smoothing *= 2;
      precisions[index] = 100 / (smoothing * total);
    } else {
      precisions[index] = (100 * matched) / total;
    }
  }

  // Geometric mean of the scored precisions; summed left to right as sacrebleu sums.
  let logSum = 0;
  for (let index = 0; index < effectiveOrder; index++) logSum += Math.log(precisions[index]!);
  return { score: penalty * Math.exp(logSum / effectiveOrder), ...result };
}
