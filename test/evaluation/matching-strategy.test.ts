import { test } from "node:test";
import assert from "node:assert/strict";
import {
  bestMatch,
  matchWithStrategy,
  MATCH_TIE_EPSILON,
  type MatchProblem,
  type SimilarityOracle,
} from "../../engine/evaluation/matching/index.js";
import { bruteForceMatch, hashInts, seededRandom, totalOf } from "./matching-brute-force.js";
import { ancestorLists, ORACLES, pick, randomReferences, shuffled, syntheticSimilarity } from "./matching-instances.js";

/** Root 0, children 1..k each after the root and referencing it, sink k+1 after every child. */
function fan(children: number, lo: number, hi: number, similarity: SimilarityOracle): MatchProblem {
  const edges: [number, number][] = [];
  const references: number[][] = [[]];
  for (let c = 1; c <= children; c++) {
    edges.push([0, c], [c, children + 1]);
    references.push([0]);
  }
  references.push([]);
  return { nodeCount: children + 2, edges, references, lo, hi, similarity };
}

/** Every one of `tops` nodes before every one of `bottoms` nodes; bottoms reference tops when asked. */
function completeBipartite(tops: number, bottoms: number, lo: number, hi: number, referenceAllTops: boolean): MatchProblem {
  const edges: [number, number][] = [];
  const references: number[][] = Array.from({ length: tops }, () => []);
  for (let b = tops; b < tops + bottoms; b++) {
    for (let t = 0; t < tops; t++) edges.push([t, b]);
    references.push(referenceAllTops ? Array.from({ length: tops }, (_, t) => t) : []);
  }
  const similarity: SimilarityOracle = (v, index, refIndex) => (hashInts([v, index, ...references[v]!.map(refIndex)]) % 7) / 6;
  return { nodeCount: tops + bottoms, edges, references, lo, hi, similarity };
}

test("the tie slack is shared across components, not granted to each", () => {
  // Two unrelated milestones, each 0.6ε short at index 0 and exact at 1. Each alone would take
  // index 0 (a tie), but both at 0 fall 1.2ε short of the best total 2: not a tie any more.
  const short = 1 - 0.6 * MATCH_TIE_EPSILON;
  const problem: MatchProblem = {
    nodeCount: 2,
    edges: [],
    references: [[], []],
    lo: 0,
    hi: 1,
    similarity: (_node, index) => (index === 0 ? short : 1),
  };
  for (const strategy of ["auto", "elimination", "sweep"] as const) {
    assert.deepEqual(
      matchWithStrategy(problem, strategy).result.assignment.map((a) => a.index),
      [0, 1],
      strategy,
    );
  }
  assert.deepEqual(bruteForceMatch(problem).chosen, [0, 1]);
});

test("12 unrelated milestones over 300 messages are 12 one-node problems", () => {
  // The old single sweep refused this (3^12 down-set pairs); per component it is trivial.
  const similarity: SimilarityOracle = (node, index) => (index === 10 * node + 7 ? 1 : (hashInts([node, index]) % 4) / 8);
  const { result, strategies } = matchWithStrategy(
    { nodeCount: 12, edges: [], references: Array.from({ length: 12 }, () => []), lo: 0, hi: 299, similarity },
    "auto",
  );
  assert.equal(strategies.length, 12);
  assert.deepEqual(
    result.assignment.map((a) => a.index),
    Array.from({ length: 12 }, (_, v) => 10 * v + 7),
  );
  assert.equal(result.total, 12);
});

test("a root, 10 children referencing it and a sink: elimination agrees with a direct O(k·T³) computation", () => {
  const lo = 2;
  const hi = 41;
  const similarity: SimilarityOracle = (node, index, refIndex) => {
    const base = (hashInts([node, index]) % 5) / 8;
    if (node === 0 || node === 11) return base;
    return index - refIndex(0) === node ? 1 : base / 2;
  };
  const problem = fan(10, lo, hi, similarity);
  const { result, strategies } = matchWithStrategy(problem, "auto");
  assert.deepEqual(strategies, ["elimination"]);

  // best = max over root r <= sink s of root(r) + sink(s) + Σ_c max_{r <= x <= s} child_c(x, r).
  let best = -Infinity;
  for (let r = lo; r <= hi; r++) {
    for (let s = r; s <= hi; s++) {
      let total = similarity(0, r, () => NaN) + similarity(11, s, () => NaN);
      for (let c = 1; c <= 10; c++) {
        let top = -Infinity;
        for (let x = r; x <= s; x++)
          top = Math.max(
            top,
            similarity(c, x, () => r),
          );
        total += top;
      }
      best = Math.max(best, total);
    }
  }
  assert.ok(Math.abs(result.total - best) <= 1e-9, `${result.total} vs ${best}`);
  const indices = result.assignment.map((a) => a.index);
  for (const [u, v] of problem.edges) assert.ok(indices[u]! <= indices[v]!);
  // With 6 children the sweep (3^6 down-set pairs) is affordable too and must pick the same mapping.
  const smaller = fan(6, lo, hi, (node, index, refIndex) => similarity(node === 7 ? 11 : node, index, refIndex));
  assert.deepEqual(matchWithStrategy(smaller, "sweep").result, matchWithStrategy(smaller, "elimination").result);
});

test("auto takes the sweep where elimination's messages would span a whole layer", () => {
  // Complete 4 x 4 bipartite DAG: eliminating any node leaves a message over the 4 nodes of the
  // other layer (T^4 entries), while the sweep sees 31 down-sets.
  assert.deepEqual(matchWithStrategy(completeBipartite(4, 4, 0, 39, false), "auto").strategies, ["sweep"]);
  // (At 20 messages elimination is cheap enough to be chosen; both must agree there.)
  const small = completeBipartite(4, 4, 0, 19, false);
  assert.deepEqual(matchWithStrategy(small, "elimination").result, matchWithStrategy(small, "sweep").result);
  // At 300 messages elimination is out of reach (T^3 tables for 3 x 3); the sweep is not.
  const wide = completeBipartite(3, 3, 0, 299, false);
  assert.deepEqual(matchWithStrategy(wide, "auto").strategies, ["sweep"]);
  assert.throws(() => matchWithStrategy(wide, "elimination"), /elimination would build a table of 27000000 entries/);
});

test("a problem neither table method can afford is matched by the exact search, not refused", () => {
  // 6 x 6 bipartite, every bottom node reading all six top nodes: 7-variable similarity tables,
  // past elimination's bound, and 2^6 + 2^6 down-sets each remembering six indices, past the sweep's.
  const problem = completeBipartite(6, 6, 0, 19, true);
  const lines: string[] = [];
  const { result, strategies } = matchWithStrategy({ ...problem, onProgress: (line) => lines.push(line) }, "auto");
  assert.deepEqual(strategies, ["search"]);
  const indices = result.assignment.map((a) => a.index);
  for (const [u, v] of problem.edges) assert.ok(indices[u]! <= indices[v]!, `edge ${u}->${v} broken`);
  assert.equal(result.total, totalOf(problem, indices));
  // Not enumerable over 20 messages (20^12 vectors), so the search is checked on the same shape
  // over 2 and 3 messages, forced, against the brute force.
  for (const hi of [1, 2]) {
    const small = completeBipartite(6, 6, 0, hi, true);
    const brute = bruteForceMatch(small);
    const searched = matchWithStrategy(small, "search").result;
    assert.equal(searched.total, brute.best, `over ${hi + 1} messages`);
    assert.deepEqual(
      searched.assignment.map((a) => a.index),
      brute.chosen,
      `over ${hi + 1} messages`,
    );
  }
});

test("every strategy asks the oracle exactly the (node, index, reference indices) of valid mappings, once each", () => {
  for (let i = 0; i < 60; i++) {
    const rand = seededRandom(7_000 + i);
    const nodeCount = 3 + Math.floor(rand() * 4);
    const order = shuffled(rand, nodeCount);
    const edges: [number, number][] = [];
    for (let a = 0; a < nodeCount; a++) for (let b = a + 1; b < nodeCount; b++) if (rand() < 0.4) edges.push([order[a]!, order[b]!]);
    const references = randomReferences(rand, ancestorLists(nodeCount, edges), 0.2);
    const problem: MatchProblem = {
      nodeCount,
      edges,
      references,
      lo: 1,
      hi: 4,
      similarity: syntheticSimilarity(i, rand, references, pick(rand, ORACLES)),
    };
    const describe = `instance ${i}: edges ${JSON.stringify(edges)}, refs ${JSON.stringify(references)}`;

    // Expected: the keys that occur in some valid mapping.
    const expected = new Set<string>();
    const indices = new Array<number>(nodeCount).fill(problem.lo);
    for (;;) {
      if (edges.every(([u, v]) => indices[u]! <= indices[v]!)) {
        for (let v = 0; v < nodeCount; v++) expected.add([v, indices[v], ...references[v]!.map((u) => indices[u])].join(","));
      }
      let digit = nodeCount - 1;
      while (digit >= 0 && indices[digit] === problem.hi) indices[digit--] = problem.lo;
      if (digit < 0) break;
      indices[digit]!++;
    }

    for (const strategy of ["auto", "elimination", "sweep", "search"] as const) {
      const asked: string[] = [];
      matchWithStrategy(
        {
          ...problem,
          similarity: (v, index, refIndex) => {
            asked.push([v, index, ...references[v]!.map(refIndex)].join(","));
            return problem.similarity(v, index, refIndex);
          },
        },
        strategy,
      );
      assert.equal(new Set(asked).size, asked.length, `${strategy} asked twice (${describe})`);
      if (strategy === "search") {
        // The search prunes: it asks about valid mappings only, but not necessarily all of them.
        for (const key of asked) assert.ok(expected.has(key), `search asked ${key}, in no valid mapping (${describe})`);
      } else {
        assert.deepEqual(new Set(asked), expected, `${strategy} (${describe})`);
      }
    }
  }
});

test("elimination and the sweep pick the same mapping at sizes the brute force cannot check", () => {
  for (let i = 0; i < 80; i++) {
    const rand = seededRandom(31_000 + i);
    const nodeCount = 4 + Math.floor(rand() * 4);
    const span = 6 + Math.floor(rand() * 10);
    const order = shuffled(rand, nodeCount);
    const edges: [number, number][] = [];
    const density = pick(rand, [0.15, 0.3, 0.6]);
    for (let a = 0; a < nodeCount; a++) for (let b = a + 1; b < nodeCount; b++) if (rand() < density) edges.push([order[a]!, order[b]!]);
    const references = randomReferences(rand, ancestorLists(nodeCount, edges), 0.3);
    const problem: MatchProblem = {
      nodeCount,
      edges,
      references,
      lo: 0,
      hi: span - 1,
      similarity: syntheticSimilarity(i, rand, references, ORACLES[i % 3]!),
    };
    const describe = `instance ${i}: T=${span}, edges ${JSON.stringify(edges)}, refs ${JSON.stringify(references)}`;
    const elimination = matchWithStrategy(problem, "elimination").result;
    assert.deepEqual(matchWithStrategy(problem, "sweep").result, elimination, describe);
    assert.deepEqual(bestMatch(problem), elimination, describe);
  }
});
