// The milestone/minefield matcher: the best mapping of DAG nodes to message indices
// (reference §5.9), found exactly and in time polynomial in the number of candidate indices.
//
// Feasible set. Upstream's DFS enumerates pairs (topological order π of the DAG, non-decreasing
// index sequence s_1 <= … <= s_M in [lo, hi]) and matches π_k at s_k. Each pair gives a mapping
// that respects every edge u -> v (u precedes v in π, so s at u <= s at v). Conversely, take any
// mapping that respects the edges and sort the nodes by (index, position in a fixed topological
// order): for an edge u -> v either index(u) < index(v) or the indices tie and the topological
// position puts u first, so the sorted order is topological and its indices are non-decreasing.
// Both therefore describe exactly the mappings [lo, hi]^M that respect the edges; the DFS merely
// reaches a mapping once per compatible order. A node's similarity reads only its own index and
// its references' indices, all ancestors, so its value depends on the mapping, not on the order
// the DFS happened to assign it in. matching-sweep.ts maximises over that set.
//
// Tie-break (documented, deterministic). Let best be the maximum total. Every mapping whose
// total is >= best - MATCH_TIE_EPSILON counts as optimal (similarities computed along different
// paths may differ in the last bits), and among those the matcher returns the one whose index
// vector (index of node 0, index of node 1, …) is lexicographically smallest: earlier nodes
// first, each at the earliest message that still allows an optimal mapping. This deliberately
// differs from upstream, whose winner depends on its heap order and exact float sums.
//
// Algorithm. A forward sweep gives best (and a backward sweep the bounds used for pruning).
// Then the nodes are fixed in order 0..M-1: node v's index is the smallest i for which some
// mapping with index(v) <= i (earlier nodes held at their fixed indices) reaches the threshold;
// "best total with index(v) <= i" is non-decreasing in i, so a binary search finds it with
// ceil(log2 T) threshold sweeps. Every sweep sums a mapping's similarities in the same order,
// so the mapping that justified one choice is found again, with the same total, by the next
// search: the search never comes up empty. In all 2 + M·ceil(log2 T) sweeps, each polynomial
// in T (matching-sweep.ts gives the bound); the oracle is asked once per distinct
// (node, index, reference indices) the first sweep reaches, thanks to SimilarityCache.

import { buildMatchGraph, type MatchGraph } from "./matching-graph.js";
import { SimilarityCache, type SimilarityOracle } from "./matching-cache.js";
import { MatchSweep, type IndexWindow } from "./matching-sweep.js";

export type { SimilarityOracle } from "./matching-cache.js";

/** Totals within this of the maximum are ties, settled by the lexicographic rule above. */
export const MATCH_TIE_EPSILON = 1e-9;

export interface MatchProblem {
  /** Nodes 0..nodeCount-1, the milestones (or minefields) in list order. */
  nodeCount: number;
  /** [u, v]: v must be matched at an index >= u's. Equal indices are allowed. */
  edges: readonly (readonly [number, number])[];
  /**
   * references[v]: the nodes whose matched index v's similarity reads; each must be an ancestor.
   * A reference to the initial state is not listed: the oracle resolves it itself.
   */
  references: readonly (readonly number[])[];
  /** Candidate message indices, inclusive (upstream: first user message .. last message). */
  lo: number;
  hi: number;
  similarity: SimilarityOracle;
}

export interface MatchResult {
  /**
   * Sum of the assignment's similarities, added in node order. 0 for an empty DAG: the caller
   * turns that into a milestone score of 1 and a minefield score of 0 (reference §5.10).
   */
  total: number;
  /** assignment[v]: the index node v is matched at and its similarity there. Empty for no nodes. */
  assignment: readonly { index: number; similarity: number }[];
}

/** The best valid mapping under the tie-break rule above. Throws on an invalid problem. */
export function bestMatch(p: MatchProblem): MatchResult {
  const graph = buildMatchGraph(p.nodeCount, p.edges, p.references);
  if (!Number.isSafeInteger(p.lo) || !Number.isSafeInteger(p.hi)) {
    throw new Error(`bestMatch: lo and hi must be integers, got ${String(p.lo)} and ${String(p.hi)}`);
  }
  if (p.lo > p.hi) throw new Error(`bestMatch: lo (${p.lo}) is greater than hi (${p.hi}); there is no candidate index`);
  if (graph.nodeCount === 0) return { total: 0, assignment: [] };

  const cache = new SimilarityCache(p.similarity, graph.references, p.lo, p.hi - p.lo + 1);
  const sweep = new MatchSweep(graph, p.lo, p.hi, cache);
  const windows: IndexWindow[] = Array.from({ length: graph.nodeCount }, () => ({ min: p.lo, max: p.hi }));
  // Always finite: matching every node at lo respects every edge.
  const threshold = sweep.best() - MATCH_TIE_EPSILON;

  for (let v = 0; v < graph.nodeCount; v++) {
    // Invariant: some mapping inside `windows` with index(v) <= high reaches the threshold (the
    // one that justified the previous node's choice). Fixed ancestors and descendants narrow
    // the range before searching.
    let { low, high } = searchRange(graph, windows, v, p.lo, p.hi);
    while (low < high) {
      const mid = low + Math.floor((high - low) / 2);
      const trial = windows.map((w, u) => (u === v ? { min: w.min, max: mid } : w));
      if (sweep.reaches(trial, threshold)) high = mid;
      else low = mid + 1;
    }
    windows[v] = { min: low, max: low };
  }

  const indices = windows.map((w) => w.min);
  const assignment = indices.map((index, v) => ({
    index,
    similarity: cache.get(v, index, graph.references[v]!.map((u) => indices[u]!)),
  }));
  let total = 0;
  for (const { similarity } of assignment) total += similarity;
  return { total, assignment };
}

/** Indices node v can take given the nodes already fixed (all nodes before v). */
function searchRange(graph: MatchGraph, windows: readonly IndexWindow[], v: number, lo: number, hi: number): { low: number; high: number } {
  let low = lo;
  let high = hi;
  for (let u = 0; u < v; u++) {
    const fixed = windows[u]!.min;
    if ((graph.ancestors[v]! >> u) & 1) low = Math.max(low, fixed);
    if ((graph.descendants[v]! >> u) & 1) high = Math.min(high, fixed);
  }
  return { low, high };
}
