import { test } from "node:test";
import assert from "node:assert/strict";
import { matchWithStrategy, type MatchGate, type MatchProblem } from "../../engine/evaluation/matching/index.js";
import { giveTable, poisonTakenTables, takeTable } from "../../engine/evaluation/matching/buffers.js";
import { ComponentLookup, SimilarityCache } from "../../engine/evaluation/matching/cache.js";
import { analyseMatchDag } from "../../engine/evaluation/matching/dag.js";
import { EliminationSolver } from "../../engine/evaluation/matching/elimination/index.js";
import { GateCache, validateGates } from "../../engine/evaluation/matching/gates.js";
import { hashInts } from "./matching-brute-force.js";
import { ORACLES, seededRandom, syntheticSimilarity } from "./matching-instances.js";

// Elimination reuses its large tables across passes and calls (matching-buffers.ts): a reused
// table holds whatever was written last, so every entry a pass reads must have been written by
// it. Problems are matched twice, with every table taken filled first with +1e6 and then with
// -1e6 (values no pass computes): an entry read before it was written would win or lose its
// maximum and change a marginal, the mapping or the total.

const MESSAGES = 72;

/** A root, `children` nodes after it (some reading it, some gated on it), and a sink after them gated on each: the bench's shape, small. */
function gatedFan(seed: number, children: number): MatchProblem {
  const rand = seededRandom(seed);
  const sink = children + 1;
  const edges: [number, number][] = [];
  const references: number[][] = [[]];
  const gates: MatchGate[][] = [[]];
  const key = (index: number): number => hashInts([seed, index]) % 2;
  for (let c = 1; c <= children; c++) {
    edges.push([0, c], [c, sink]);
    references.push(rand() < 0.5 ? [0] : []);
    gates.push(rand() < 0.5 ? [{ ref: 0, key }] : []);
  }
  references.push([]);
  gates.push(Array.from({ length: children }, (_, i) => ({ ref: i + 1, key })));
  return {
    nodeCount: children + 2,
    edges,
    references,
    gates,
    lo: 3,
    hi: 2 + MESSAGES,
    similarity: syntheticSimilarity(seed, rand, references, ORACLES[seed % 3]!),
  };
}

/** `run` with every taken table filled with `value` first. */
function poisoned<T>(value: number, run: () => T): T {
  poisonTakenTables(value);
  try {
    return run();
  } finally {
    poisonTakenTables(null);
  }
}

/** Node `target`'s marginal by elimination, every window full except `fixed` (node → index). */
function marginalOf(problem: MatchProblem, target: number, fixed: ReadonlyMap<number, number>): Float64Array {
  const dag = analyseMatchDag(problem.nodeCount, problem.edges, problem.references);
  const gates = validateGates(dag.nodeCount, problem.gates, dag.isAncestor);
  const span = problem.hi - problem.lo + 1;
  const cache = new SimilarityCache(problem.similarity, dag.references, problem.lo, span);
  const nodes = dag.components[0]!;
  assert.equal(nodes.length, problem.nodeCount, "one component");
  const component = {
    nodes,
    nodeCount: nodes.length,
    references: dag.references,
    gates: gates.perNode,
    orders: dag.reducedEdges,
    isAncestor: dag.isAncestor,
  };
  const solver = new EliminationSolver(
    component,
    new ComponentLookup(cache, nodes),
    new GateCache(gates.flat, problem.lo, span),
    problem.lo,
    problem.hi,
  );
  const windows = nodes.map((v) => (fixed.has(v) ? { min: fixed.get(v)!, max: fixed.get(v)! } : { min: problem.lo, max: problem.hi }));
  const marginal = solver.marginal(target, windows);
  assert.ok(marginal, "a valid mapping exists");
  const values = marginal.values.slice();
  solver.release();
  cache.release();
  return values;
}

test("a pass reads no table entry before writing it: the same marginals whatever the taken tables held", () => {
  for (let seed = 1; seed <= 10; seed++) {
    const problem = gatedFan(seed, 3 + (seed % 3));
    const sink = problem.nodeCount - 1;
    for (const [target, fixed] of [
      [0, new Map<number, number>()],
      [sink, new Map([[0, problem.lo + 5]])],
      [1, new Map([[0, problem.lo + 2]])],
    ] as const) {
      const high = poisoned(1e6, () => marginalOf(problem, target, fixed));
      const low = poisoned(-1e6, () => marginalOf(problem, target, fixed));
      assert.deepEqual([...low], [...high], `seed ${seed}, node ${target}`);
    }
    const high = poisoned(1e6, () => matchWithStrategy(problem, "elimination").result);
    assert.deepEqual(
      poisoned(-1e6, () => matchWithStrategy(problem, "elimination").result),
      high,
      `seed ${seed}`,
    );
  }
});

test("a table handed back twice is an internal error, not a silently shared table", () => {
  const table = takeTable(1 << 13);
  giveTable(table);
  assert.throws(() => giveTable(table), /handed back twice/);
  takeTable(1 << 13); // take it out again, so later users of the pool are unaffected
});
