import { test } from "node:test";
import assert from "node:assert/strict";
import { MATCH_TIE_EPSILON, type MatchProblem } from "../../engine/evaluation/matching/index.js";
import { buildMatchGraph } from "../../engine/evaluation/matching/graph.js";
import { SimilarityCache } from "../../engine/evaluation/matching/cache.js";
import type { MatchStrategy } from "../../engine/evaluation/matching/strategy.js";
import { MatchSweep, type IndexWindow } from "../../engine/evaluation/matching/sweep.js";
import { seededRandom, totalOf } from "./matching-brute-force.js";
import {
  ancestorLists,
  checkInstance,
  emptyTally,
  type Instance,
  type Oracle,
  ORACLES,
  pick,
  randomReferences,
  randomWindow,
  shuffled,
  syntheticSimilarity,
} from "./matching-instances.js";

// The original random shapes (up to 6 nodes), each instance checked under every strategy:
// "auto" (what bestMatch does), variable elimination forced, the down-set sweep forced, the exact
// search (the fallback past both methods' memory bounds) forced.
// matching-wide.test.ts covers wider DAGs.

type Shape = "antichain" | "chain" | "sparse" | "dense" | "star" | "funnel";
const SHAPES: readonly Shape[] = ["antichain", "chain", "sparse", "dense", "star", "funnel"];
const STRATEGIES: readonly MatchStrategy[] = ["auto", "elimination", "sweep", "search"];

function randomInstance(seed: number, shape: Shape, oracle: Oracle): Instance {
  const rand = seededRandom(seed);
  const nodeCount = pick(rand, [0, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 6]);
  // T^M stays under ~17,000 so the brute force stays quick.
  const maxSpan = nodeCount <= 4 ? 8 : nodeCount === 5 ? 7 : 5;
  const span = 1 + Math.floor(rand() * maxSpan);
  const { lo, hi } = randomWindow(rand, span);

  const order = shuffled(rand, nodeCount); // a topological order unrelated to the node ids
  const edges: [number, number][] = [];
  const density = shape === "sparse" ? 0.25 : shape === "dense" ? 0.7 : 0;
  for (let i = 0; i < nodeCount; i++) {
    for (let j = i + 1; j < nodeCount; j++) {
      const add =
        (shape === "chain" && j === i + 1) ||
        (shape === "star" && i === 0) ||
        (shape === "funnel" && j === nodeCount - 1) ||
        rand() < density;
      if (add) edges.push([order[i]!, order[j]!]);
    }
  }
  if (edges.length > 0 && rand() < 0.1) edges.push(pick(rand, edges)); // duplicates are harmless

  const references = randomReferences(rand, ancestorLists(nodeCount, edges));
  const similarity = syntheticSimilarity(seed, rand, references, oracle);
  return {
    problem: { nodeCount, edges, references, lo, hi, similarity },
    describe: `seed ${seed}, ${shape}, ${oracle}, M=${nodeCount}, lo=${lo}, hi=${hi}, edges=${JSON.stringify(edges)}, refs=${JSON.stringify(references)}`,
  };
}

const INSTANCES_PER_SHAPE = 1_400; // 6 shapes x 1,400 = 8,400 instances, 3 strategies each

for (const [s, shape] of SHAPES.entries()) {
  test(`matches the brute force on ${INSTANCES_PER_SHAPE} random ${shape} instances, under every strategy`, () => {
    const tally = emptyTally();
    for (let i = 0; i < INSTANCES_PER_SHAPE; i++) {
      const seed = 100_000 * (s + 1) + i;
      checkInstance(randomInstance(seed, shape, ORACLES[i % ORACLES.length]!), STRATEGIES, tally);
    }
    assert.equal(tally.instances, INSTANCES_PER_SHAPE);
    // The generator must actually exercise the tie-break and (except without edges) references.
    assert.ok(tally.withSeveralOptima > INSTANCES_PER_SHAPE / 10, `only ${tally.withSeveralOptima} instances had ties`);
    if (shape !== "antichain") assert.ok(tally.withReferences > INSTANCES_PER_SHAPE / 4, `only ${tally.withReferences} had references`);
  });
}

test("threshold sweeps give the same answers with and without pruning, and agree with enumeration", () => {
  let checks = 0;
  let yes = 0;
  for (let i = 0; i < 1_500; i++) {
    const seed = 900_000 + i;
    const { problem, describe } = randomInstance(seed, SHAPES[i % SHAPES.length]!, ORACLES[i % ORACLES.length]!);
    if (problem.nodeCount === 0) continue;
    const graph = buildMatchGraph(problem.nodeCount, problem.edges, problem.references);
    const span = problem.hi - problem.lo + 1;
    const prunedCache = new SimilarityCache(problem.similarity, graph.references, problem.lo, span);
    const plainCache = new SimilarityCache(problem.similarity, graph.references, problem.lo, span);
    const pruned = new MatchSweep(graph, problem.lo, problem.hi, prunedCache, null, true);
    const plain = new MatchSweep(graph, problem.lo, problem.hi, plainCache, null, false);
    const best = pruned.best();
    assert.equal(plain.best(), best, describe);
    // The backward sweep behind pruning must not ask the oracle about anything new.
    assert.equal(prunedCache.calls, plainCache.calls, describe);

    const rand = seededRandom(seed);
    for (let k = 0; k < 4; k++) {
      const windows: IndexWindow[] = Array.from({ length: problem.nodeCount }, () => {
        const a = problem.lo + Math.floor(rand() * span);
        const b = problem.lo + Math.floor(rand() * span);
        return rand() < 0.4 ? { min: problem.lo, max: problem.hi } : { min: Math.min(a, b), max: Math.max(a, b) };
      });
      const threshold = k === 0 ? best - MATCH_TIE_EPSILON : rand() * problem.nodeCount;
      const expected = someMappingReaches(problem, windows, threshold);
      assert.equal(pruned.reaches(windows, threshold), expected, `pruned, ${JSON.stringify(windows)} >= ${threshold} (${describe})`);
      assert.equal(plain.reaches(windows, threshold), expected, `unpruned, ${JSON.stringify(windows)} >= ${threshold} (${describe})`);
      checks++;
      if (expected) yes++;
    }
  }
  assert.ok(yes > checks / 5 && yes < (checks * 4) / 5, `${yes} of ${checks} thresholds reachable: not a balanced check`);
});

function someMappingReaches(problem: MatchProblem, windows: readonly IndexWindow[], threshold: number): boolean {
  const indices = windows.map((w) => w.min);
  for (;;) {
    if (problem.edges.every(([u, v]) => indices[u]! <= indices[v]!) && totalOf(problem, indices) >= threshold) return true;
    let digit = problem.nodeCount - 1;
    while (digit >= 0 && indices[digit] === windows[digit]!.max) indices[digit] = windows[digit--]!.min;
    if (digit < 0) return false;
    indices[digit]!++;
  }
}
