// Reference implementation for the matcher's tests: enumerate every vector in [lo, hi]^M, keep
// the ones that respect the edges, and apply the documented rule literally (maximum total, then
// the lexicographically smallest index vector among totals within the tie epsilon). Gates are
// applied literally too: a node whose gate fails counts 0.

import { MATCH_TIE_EPSILON, type MatchProblem } from "../../engine/evaluation/matching/index.js";

interface BruteForceResult {
  /** Maximum total over valid mappings (each summed in node order). */
  best: number;
  /** The mapping the tie-break rule names. */
  chosen: number[];
  /** How many valid mappings exist. */
  validCount: number;
  /** How many of them are optimal (within the tie epsilon of the best): > 1 exercises the tie-break. */
  optimaCount: number;
}

export function bruteForceMatch(p: MatchProblem): BruteForceResult {
  const m = p.nodeCount;
  const indices = new Array<number>(m).fill(p.lo);
  const valid: { indices: number[]; total: number }[] = [];
  // Node 0 is the most significant digit, so vectors come out in lexicographic order.
  for (;;) {
    if (p.edges.every(([u, v]) => indices[u]! <= indices[v]!)) {
      valid.push({ indices: [...indices], total: totalOf(p, indices) });
    }
    let digit = m - 1;
    while (digit >= 0 && indices[digit] === p.hi) indices[digit--] = p.lo;
    if (digit < 0) break;
    indices[digit]!++;
  }
  const best = valid.reduce((top, x) => Math.max(top, x.total), -Infinity);
  const optima = valid.filter((x) => x.total >= best - MATCH_TIE_EPSILON);
  return { best, chosen: optima[0]!.indices, validCount: valid.length, optimaCount: optima.length };
}

/** Total of a mapping, summed in node order. */
export function totalOf(p: MatchProblem, indices: readonly number[]): number {
  let total = 0;
  for (let v = 0; v < p.nodeCount; v++) total += nodeValue(p, v, indices);
  return total;
}

/** Node v's value in a mapping: its similarity, or 0 when one of its gates fails (the documented meaning). */
export function nodeValue(p: MatchProblem, v: number, indices: readonly number[]): number {
  const index = indices[v]!;
  for (const gate of p.gates?.[v] ?? []) {
    const refIndex = indices[gate.ref]!;
    const holds = "holds" in gate ? gate.holds(index, refIndex) : gate.key(index) === gate.key(refIndex);
    if (!holds) return 0;
  }
  return p.similarity(v, index, (ref) => indices[ref]!);
}

/** Small deterministic PRNG (mulberry32) so random instances are the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit hash of a list of integers: a pure function, so every caller sees the same table. */
export function hashInts(values: readonly number[]): number {
  let h = 0x811c9dc5;
  for (const x of values) {
    h = Math.imul(h ^ (x & 0xffff), 0x01000193);
    h = Math.imul(h ^ (x >>> 16), 0x01000193);
    h ^= h >>> 13;
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
