import { test } from "node:test";
import assert from "node:assert/strict";
import { bestMatch, MATCH_TIE_EPSILON, type MatchProblem } from "../../engine/evaluation/matching.js";
import { buildMatchGraph } from "../../engine/evaluation/matching-graph.js";
import { SimilarityCache } from "../../engine/evaluation/matching-cache.js";
import { MatchSweep, type IndexWindow } from "../../engine/evaluation/matching-sweep.js";
import { bruteForceMatch, hashInts, seededRandom, totalOf } from "./matching-brute-force.js";

// Many equal values, zeros, and near-ties on both sides of the tie epsilon: 1e-12 apart is a
// tie, 1e-6 apart is not. Thirds make float sums depend on the order they are added in.
const PALETTE = [0, 0, 0, 1, 1, 0.5, 0.25, 0.75, 1 / 3, 2 / 3, 0.1, 1 - 1e-12, 0.5 + 1e-12, 0.5 - 1e-6, 1 - 1e-6];

type Shape = "antichain" | "chain" | "sparse" | "dense" | "star" | "funnel";
type Oracle = "table" | "offset" | "mostly-zero";
const SHAPES: readonly Shape[] = ["antichain", "chain", "sparse", "dense", "star", "funnel"];
const ORACLES: readonly Oracle[] = ["table", "offset", "mostly-zero"];

interface Instance {
  problem: MatchProblem;
  describe: string;
}

function randomInstance(seed: number, shape: Shape, oracle: Oracle): Instance {
  const rand = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const nodeCount = pick([0, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 6]);
  // T^M stays under ~17,000 so the brute force stays quick.
  const maxSpan = nodeCount <= 4 ? 8 : nodeCount === 5 ? 7 : 5;
  const span = 1 + Math.floor(rand() * maxSpan);
  const lo = Math.floor(rand() * 4);
  const hi = lo + span - 1;

  // A random topological order, deliberately unrelated to the node ids.
  const order = Array.from({ length: nodeCount }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
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
  if (edges.length > 0 && rand() < 0.1) edges.push(pick(edges)); // duplicates are harmless

  const ancestors = ancestorLists(nodeCount, edges);
  const references = ancestors.map((anc) => {
    if (anc.length === 0 || rand() < 0.35) return [];
    const count = 1 + Math.floor(rand() * Math.min(2, anc.length));
    const refs: number[] = [];
    while (refs.length < count) {
      const u = pick(anc);
      if (!refs.includes(u)) refs.push(u);
    }
    return refs;
  });
  const want = references.map(() => Math.floor(rand() * 3)); // "offset": preferred distance to the reference
  const similarity = (v: number, index: number, refIndex: (ref: number) => number): number => {
    const refIndices = references[v]!.map((u) => refIndex(u));
    const h = hashInts([seed, v, index, ...refIndices]);
    switch (oracle) {
      case "table":
        return PALETTE[h % PALETTE.length]!;
      case "mostly-zero":
        return h % 4 === 0 ? PALETTE[(h >>> 2) % PALETTE.length]! : 0;
      case "offset": {
        if (refIndices.length === 0) return PALETTE[h % PALETTE.length]!;
        // Like an addition measure: good only at the right distance after the reference.
        const distance = index - refIndices[0]!;
        return distance === want[v] ? 1 : distance > 0 ? 0.5 : (h % 3) / 4;
      }
    }
  };
  return {
    problem: { nodeCount, edges, references, lo, hi, similarity },
    describe: `seed ${seed}, ${shape}, ${oracle}, M=${nodeCount}, lo=${lo}, hi=${hi}, edges=${JSON.stringify(edges)}, refs=${JSON.stringify(references)}`,
  };
}

function ancestorLists(nodeCount: number, edges: readonly (readonly [number, number])[]): number[][] {
  const result: number[][] = [];
  for (let v = 0; v < nodeCount; v++) {
    const seen = new Set<number>();
    const stack = [v];
    while (stack.length > 0) {
      const x = stack.pop()!;
      for (const [u, w] of edges) if (w === x && !seen.has(u)) (seen.add(u), stack.push(u));
    }
    result.push([...seen].sort((a, b) => a - b));
  }
  return result;
}

interface Tally {
  instances: number;
  withSeveralOptima: number;
  withReferences: number;
}

/** Runs the matcher and the brute force on one instance and compares everything the rule promises. */
function checkInstance({ problem, describe }: Instance, tally: Tally): void {
  const asked = new Set<string>();
  const counted: MatchProblem = {
    ...problem,
    similarity: (v, index, refIndex) => {
      const key = [v, index, ...problem.references[v]!.map((u) => refIndex(u))].join(",");
      assert.ok(!asked.has(key), `oracle asked twice for ${key} (${describe})`);
      asked.add(key);
      return problem.similarity(v, index, refIndex);
    },
  };
  const result = bestMatch(counted);
  tally.instances++;
  if (problem.references.some((r) => r.length > 0)) tally.withReferences++;

  if (problem.nodeCount === 0) {
    assert.deepEqual(result, { total: 0, assignment: [] }, describe);
    return;
  }
  const brute = bruteForceMatch(problem);
  const indices = result.assignment.map((a) => a.index);

  assert.ok(Math.abs(result.total - brute.best) <= 1e-9, `total ${result.total} vs brute force ${brute.best} (${describe})`);
  assert.equal(indices.length, problem.nodeCount, describe);
  for (const index of indices) assert.ok(Number.isInteger(index) && index >= problem.lo && index <= problem.hi, describe);
  for (const [u, v] of problem.edges) assert.ok(indices[u]! <= indices[v]!, `edge ${u}->${v} broken (${describe})`);
  result.assignment.forEach((a, v) => {
    assert.equal(a.similarity, problem.similarity(v, a.index, (ref) => indices[ref]!), `similarity of node ${v} (${describe})`);
  });
  assert.equal(result.total, totalOf(problem, indices), `reported total is not the assignment's total (${describe})`);
  assert.deepEqual(indices, brute.chosen, `tie-break picked ${JSON.stringify(indices)}, rule names ${JSON.stringify(brute.chosen)} (${describe})`);

  if (countOptima(problem, brute.best) > 1) tally.withSeveralOptima++;
}

/** Number of valid mappings within the tie epsilon of the best total (to show ties are exercised). */
function countOptima(problem: MatchProblem, best: number): number {
  let count = 0;
  const indices = new Array<number>(problem.nodeCount).fill(problem.lo);
  for (;;) {
    if (problem.edges.every(([u, v]) => indices[u]! <= indices[v]!) && totalOf(problem, indices) >= best - MATCH_TIE_EPSILON) count++;
    let digit = problem.nodeCount - 1;
    while (digit >= 0 && indices[digit] === problem.hi) indices[digit--] = problem.lo;
    if (digit < 0) return count;
    indices[digit]!++;
  }
}

const INSTANCES_PER_SHAPE = 1_700; // 6 shapes x 1,700 = 10,200 instances

for (const [s, shape] of SHAPES.entries()) {
  test(`matches the brute force on ${INSTANCES_PER_SHAPE} random ${shape} instances`, () => {
    const tally: Tally = { instances: 0, withSeveralOptima: 0, withReferences: 0 };
    for (let i = 0; i < INSTANCES_PER_SHAPE; i++) {
      const seed = 100_000 * (s + 1) + i;
      checkInstance(randomInstance(seed, shape, ORACLES[i % ORACLES.length]!), tally);
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
    const pruned = new MatchSweep(graph, problem.lo, problem.hi, prunedCache, true);
    const plain = new MatchSweep(graph, problem.lo, problem.hi, plainCache, false);
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
