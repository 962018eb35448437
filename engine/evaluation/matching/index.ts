// The milestone/minefield matcher: the best mapping of DAG nodes to message indices
// (reference §5.9), found exactly; in time polynomial in the number of candidate indices T and,
// for the structures milestone DAGs have (chains, trees, stars, fans, forests), in the number
// of nodes M too. E.g. a root, 10 children referencing it and a sink over 300 messages: O(M·T²);
// with the sink also gated on every child's index (below), O(M·K·T²) for K gate classes.
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
// the DFS happened to assign it in. The strategies below maximise over that set.
//
// Gates. A node's value is its similarity times its gates, 0/1 conditions on its index and ONE
// ancestor's (the evaluator's guardrails: "this table is as it was at that milestone"). They
// could be references, but a sink guarded against ten parallel milestones would then be one
// similarity over eleven indices (T^11). Instead each gated node gets an auxiliary bit b_v
// ("its gates all hold"): its term becomes b_v · similarity, and each gate the pairwise hard
// constraint b_v = 1 ⇒ gate holds. b_v = 0 is always allowed and scores 0, so maximising over
// b_v gives back the gated value exactly, and every gate is a factor over two nodes' indices
// and the bit: small induced width, fast elimination (matching-gates.ts,
// matching-elimination-factors.ts). The sweep reads a gate's node like a reference. The
// mappings, the totals and the tie-break are the same as with the gates multiplied in.
//
// Tie-break (documented, deterministic). Let best be the maximum total. Every mapping whose
// total is >= best - MATCH_TIE_EPSILON counts as optimal (similarities computed along different
// paths may differ in the last bits), and among those the matcher returns the one whose index
// vector (index of node 0, index of node 1, …) is lexicographically smallest: earlier nodes
// first, each at the earliest message that still allows an optimal mapping. This deliberately
// differs from upstream, whose winner depends on its heap order and exact float sums.
//
// Algorithm (the strategies' files give their costs).
// 0. Runs. When the caller says which consecutive indices are interchangeable
//    (sameAsPrevious), each run of them becomes one index and the answer maps back to the
//    runs' starts: exactly the same mapping (index-compression.ts proves it), over R runs instead of
//    T messages.
//    Periodic trimming. With index classes, a stretch whose classes repeat with a period p (a
//    loop of look-alike traffic) keeps its first M·p and last p indices: every mapping using
//    the rest has a lexicographically smaller twin inside them with the same values
//    (periodic-trim.ts proves it), so the answer is the same, over a stretch of M·p + p indices.
// 1. Components. The DAG splits into weakly connected components (matching-dag.ts); each is
//    solved by its own ComponentSolver, variable elimination or the down-set sweep, whichever is
//    cheaper for its shape (matching-strategy.ts). For M unrelated nodes that is M problems of
//    one node instead of one sweep over 3^M down-set pairs.
// 2. Best. best = the sum of the components' best totals (the maximum of a sum of functions of
//    disjoint variables under disjoint constraints), and threshold = best - MATCH_TIE_EPSILON.
// 3. Tie-break. The epsilon makes the rule NOT decompose into per-component tie-breaks: the
//    slack is shared. (With components A and B, a mapping 0.6ε short on A and exact on B is
//    optimal, as is one exact on A and 0.6ε short on B, but not one 0.6ε short on both.) So
//    the nodes are fixed in global node order 0..M-1, each at the smallest index i such that a
//    valid mapping with the earlier nodes at their fixed indices and this node at i reaches
//    the threshold. Such a mapping's best total is (best of v's component with v at i) + (the
//    current best of every other component, with its own earlier nodes fixed), since the
//    other components do not see v; so the component is asked for its smallest i reaching
//    need = threshold - Σ others, and its current best becomes that mapping's total. The
//    choice is the lexicographically smallest optimal vector by induction: each step keeps
//    exactly the optimal mappings that agree with the rule's choice so far.
// Oracle calls: every strategy reads similarities through one SimilarityCache, so each
// (node, index, reference indices) is asked at most once per call; the first pass of each
// component asks exactly the combinations that occur in some valid mapping (without gates; with
// them, at most those: where a gate fails the similarity may be left unasked). Gates are read
// through their own cache: each (pair gate, index, reference index) and each (key function,
// index) at most once per call.
// Rounding: totals are summed in different orders by different passes (last-bit differences,
// ~1e-16 per node); a mapping within that distance of the threshold may count on one side in
// one place and on the other elsewhere. Such a mapping is within ε of the best either way.

import { analyseMatchDag, type IndexWindow, type MatchDag } from "./dag.js";
import { ComponentLookup, SimilarityCache } from "./cache.js";
import { GateCache, validateGates, type GateRef } from "./gates.js";
import { componentClasses, indexClasses } from "./classes.js";
import { compressRuns } from "./index-compression.js";
import { trimPeriodicStretches } from "./periodic-trim.js";
import { ProgressClock, progressTitle } from "./search.js";
import { componentSolver, type MatchComponent, type MatchStrategy } from "./strategy.js";

import type { MatchProblem, MatchResult } from "./problem.js";

export type { SimilarityOracle, SimilarityRowOracle } from "./cache.js";
export type { MatchProblem, MatchResult } from "./problem.js";
export type { MatchGate } from "./gates.js";

/** Totals within this of the maximum are ties, settled by the lexicographic rule above. */
export const MATCH_TIE_EPSILON = 1e-9;

/** The best valid mapping under the tie-break rule above. Throws on an invalid problem. */
export function bestMatch(p: MatchProblem): MatchResult {
  return matchWithStrategy(p, "auto").result;
}

/**
 * bestMatch with the per-component method forced ("auto" is bestMatch's choice), also naming
 * the method each component used (components ordered by smallest node). For tests and benches.
 */
export function matchWithStrategy(p: MatchProblem, strategy: MatchStrategy): { result: MatchResult; strategies: MatchStrategy[] } {
  const dag = analyseMatchDag(p.nodeCount, p.edges, p.references);
  if (!Number.isSafeInteger(p.lo) || !Number.isSafeInteger(p.hi)) {
    throw new Error(`bestMatch: lo and hi must be integers, got ${String(p.lo)} and ${String(p.hi)}`);
  }
  if (p.lo > p.hi) throw new Error(`bestMatch: lo (${p.lo}) is greater than hi (${p.hi}); there is no candidate index`);
  if (dag.nodeCount === 0) return { result: { total: 0, assignment: [] }, strategies: [] };

  const gates = validateGates(dag.nodeCount, p.gates, dag.isAncestor);
  const runs = compressRuns(p);
  if (runs) {
    const solved = matchWithStrategy(runs.problem, strategy);
    const assignment = solved.result.assignment.map(({ index, similarity }) => ({ index: runs.starts[index]!, similarity }));
    return { result: { total: solved.result.total, assignment }, strategies: solved.strategies };
  }
  const trimmed = trimPeriodicStretches(p);
  if (trimmed) {
    const solved = matchWithStrategy(trimmed.problem, strategy);
    const assignment = solved.result.assignment.map(({ index, similarity }) => ({ index: trimmed.starts[index]!, similarity }));
    return { result: { total: solved.result.total, assignment }, strategies: solved.strategies };
  }
  const progress = p.onProgress ?? writeProgressLine;
  const span = p.hi - p.lo + 1;
  const clock = new ProgressClock(progress, progressTitle(dag.nodeCount, span, "the cheapest method"));
  const similaritiesAsked = (calls: number): void => clock.tick(() => `${calls.toLocaleString("en-US")} similarities computed`);
  const cache = new SimilarityCache(p.similarity, dag.references, p.lo, span, p.similarityRow ?? null, similaritiesAsked);
  const gateCache = new GateCache(gates.flat, p.lo, p.hi - p.lo + 1);
  const components = dag.components.map((nodes) => localComponent(dag, gates.perNode, nodes));
  const classes = indexClasses(p);
  const solvers = components.map((c) =>
    componentSolver(
      c,
      new ComponentLookup(cache, c.nodes),
      gateCache,
      p.lo,
      p.hi,
      strategy,
      progress,
      classes && componentClasses(classes, c.nodes),
    ),
  );
  const windows: IndexWindow[][] = components.map((c) => c.nodes.map(() => ({ min: p.lo, max: p.hi })));
  // current[c]: the best total of component c with its nodes fixed so far.
  const current = solvers.map((solver) => solver.best());
  // Always finite: matching every node at lo respects every edge.
  const threshold = sumInOrder(current) - MATCH_TIE_EPSILON;

  const place = new Map<number, { component: number; local: number }>();
  components.forEach((c, component) => {
    c.nodes.forEach((v, local) => {
      place.set(v, { component, local });
    });
  });
  for (let v = 0; v < dag.nodeCount; v++) {
    const { component, local } = place.get(v)!;
    let others = 0;
    current.forEach((total, c) => {
      if (c !== component) others += total;
    });
    const { index, total } = solvers[component]!.choose(local, windows[component]!, threshold - others, current[component]!);
    windows[component]![local] = { min: index, max: index };
    current[component] = total;
    p.onPlaced?.(v + 1, dag.nodeCount);
  }

  const indices = Array.from({ length: dag.nodeCount }, (_, v) => {
    const { component, local } = place.get(v)!;
    return windows[component]![local]!.min;
  });
  const assignment = indices.map((index, v) => ({
    index,
    similarity: gates.perNode[v]!.every(({ ref, gate }) => gateCache.holds(gate, index, indices[ref]!))
      ? cache.get(
          v,
          index,
          dag.references[v]!.map((u) => indices[u]!),
        )
      : 0,
  }));
  const total = sumInOrder(assignment.map((a) => a.similarity));
  for (const solver of solvers) solver.release();
  cache.release();
  return { result: { total, assignment }, strategies: solvers.map((s) => s.strategy) };
}

/** The component over `nodes` renumbered 0..k-1 in ascending problem order. */
function localComponent(dag: MatchDag, gates: readonly (readonly GateRef[])[], nodes: readonly number[]): MatchComponent {
  const local = new Map<number, number>(nodes.map((v, i) => [v, i]));
  return {
    nodes,
    nodeCount: nodes.length,
    references: nodes.map((v) => dag.references[v]!.map((u) => local.get(u)!)),
    gates: nodes.map((v) => gates[v]!.map(({ ref, gate }) => ({ ref: local.get(ref)!, gate }))),
    orders: dag.reducedEdges.filter(([u]) => local.has(u)).map(([u, v]) => [local.get(u)!, local.get(v)!] as const),
    isAncestor: (u, v) => dag.isAncestor(nodes[u]!, nodes[v]!),
  };
}

function writeProgressLine(line: string): void {
  process.stderr.write(`toolsandbox: ${line}\n`);
}

function sumInOrder(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
