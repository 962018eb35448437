import { test } from "node:test";
import assert from "node:assert/strict";
import { bestMatch, type MatchProblem, type SimilarityOracle } from "../../engine/evaluation/matching/index.js";
import { bruteForceMatch } from "./matching-brute-force.js";

/** Similarity from a per-node table {index: value}; indices not listed score 0. */
function fromTables(tables: readonly Readonly<Record<number, number>>[]): SimilarityOracle {
  return (node, index) => tables[node]?.[index] ?? 0;
}

function indicesOf(problem: MatchProblem): number[] {
  return bestMatch(problem).assignment.map((a) => a.index);
}

test("a chain keeps its order even when each milestone alone would match elsewhere", () => {
  // Alone, node 0 is best at 5 and node 1 at 2; in a chain 0 -> 1 -> 2 they cannot both be.
  const problem: MatchProblem = {
    nodeCount: 3,
    edges: [
      [0, 1],
      [1, 2],
    ],
    references: [[], [], []],
    lo: 1,
    hi: 6,
    similarity: fromTables([{ 2: 0.8, 5: 1 }, { 2: 1, 6: 0.5 }, { 6: 1 }]),
  };
  const result = bestMatch(problem);
  assert.deepEqual(result.assignment, [
    { index: 2, similarity: 0.8 },
    { index: 2, similarity: 1 },
    { index: 6, similarity: 1 },
  ]);
  assert.equal(result.total, 2.8);
});

test("a diamond matches both branches between its top and bottom", () => {
  // 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3. Branch 2 is best at 7, which would be after node 3's best
  // (6), so the matcher must trade: 2 at 5 (0.9) keeps 3 at 6.
  const problem: MatchProblem = {
    nodeCount: 4,
    edges: [
      [0, 1],
      [0, 2],
      [1, 3],
      [2, 3],
    ],
    references: [[], [], [], []],
    lo: 0,
    hi: 8,
    similarity: fromTables([{ 1: 1 }, { 3: 1 }, { 5: 0.9, 7: 1 }, { 6: 1, 8: 0.5 }]),
  };
  const result = bestMatch(problem);
  assert.deepEqual(
    result.assignment.map((a) => a.index),
    [1, 3, 5, 6],
  );
  assert.equal(result.total, 3.9);
});

test("a parent and its child may share one message index", () => {
  // One tool-result message satisfies both milestones; upstream allows equal indices too.
  const problem: MatchProblem = {
    nodeCount: 2,
    edges: [[0, 1]],
    references: [[], []],
    lo: 0,
    hi: 5,
    similarity: fromTables([{ 3: 1 }, { 3: 1 }]),
  };
  assert.deepEqual(bestMatch(problem), {
    total: 2,
    assignment: [
      { index: 3, similarity: 1 },
      { index: 3, similarity: 1 },
    ],
  });
});

test("a reference-dependent similarity defeats the greedy choice for the earlier milestone", () => {
  // Node 0 is best at 2 (1.0) but node 1 ("a reminder was added after milestone 0") only
  // scores when node 0 sits at 4, just before the addition at 5. Greedy: 1.0 + 0; best: 0.9 + 1.
  const similarity: SimilarityOracle = (node, index, refIndex) => {
    if (node === 0) return index === 2 ? 1 : index === 4 ? 0.9 : 0;
    return index === 5 && refIndex(0) === 4 ? 1 : 0;
  };
  const problem: MatchProblem = { nodeCount: 2, edges: [[0, 1]], references: [[], [0]], lo: 0, hi: 6, similarity };
  const result = bestMatch(problem);
  assert.deepEqual(result.assignment, [
    { index: 4, similarity: 0.9 },
    { index: 5, similarity: 1 },
  ]);
  assert.equal(result.total, 1.9);
});

test("ties go to the earliest index, and near-ties within the epsilon count as ties", () => {
  const single = (values: Record<number, number>): number[] =>
    indicesOf({ nodeCount: 1, edges: [], references: [[]], lo: 0, hi: 9, similarity: fromTables([values]) });
  assert.deepEqual(single({ 3: 0.7, 5: 0.7 }), [3]);
  assert.deepEqual(single({ 3: 0.7 - 1e-12, 5: 0.7 }), [3], "1e-12 apart is a tie");
  assert.deepEqual(single({ 3: 0.7 - 1e-6, 5: 0.7 }), [5], "1e-6 apart is not");
  assert.deepEqual(single({}), [0], "nothing matches: the first candidate, similarity 0");
});

test("the tie-break fixes node 0 first, even if a later node then matches later", () => {
  // Two optimal mappings: (1, 3) and (2, 2). Node order decides: node 0 takes the earlier index.
  const similarity: SimilarityOracle = (node, index, refIndex) => {
    if (node === 0) return index === 1 || index === 2 ? 1 : 0;
    const ref = refIndex(0);
    return (ref === 1 && index === 3) || (ref === 2 && index === 2) ? 1 : 0;
  };
  const problem: MatchProblem = { nodeCount: 2, edges: [[0, 1]], references: [[], [0]], lo: 0, hi: 4, similarity };
  assert.deepEqual(indicesOf(problem), [1, 3]);
  assert.deepEqual(bruteForceMatch(problem).chosen, [1, 3]);
});

test("node ids need not follow the DAG: a child listed first is still matched after its parent", () => {
  const problem: MatchProblem = {
    nodeCount: 3,
    edges: [
      [2, 0],
      [1, 0],
    ],
    references: [[2], [], []],
    lo: 10,
    hi: 14,
    similarity: (node, index, refIndex) => (node === 0 ? (index - refIndex(2) === 1 ? 1 : 0) : node === 2 && index === 12 ? 1 : 0.5),
  };
  const result = bestMatch(problem);
  assert.deepEqual(
    result.assignment.map((a) => a.index),
    [13, 10, 12],
  );
  assert.equal(result.total, 2.5);
});

test("an empty DAG matches nothing and never calls the similarity", () => {
  let calls = 0;
  const result = bestMatch({
    nodeCount: 0,
    edges: [],
    references: [],
    lo: 0,
    hi: 3,
    similarity: () => {
      calls++;
      return 1;
    },
  });
  assert.deepEqual(result, { total: 0, assignment: [] });
  assert.equal(calls, 0);
});

test("the similarity is asked once per (node, index, reference indices)", () => {
  const asked = new Map<string, number>();
  const similarity: SimilarityOracle = (node, index, refIndex) => {
    const key = node === 0 ? `${node}@${index}` : `${node}@${index}/${refIndex(0)}`;
    asked.set(key, (asked.get(key) ?? 0) + 1);
    return (((node + 1) * index * 7) % 5) / 4;
  };
  // A reference listed twice is one dependency, not two.
  bestMatch({
    nodeCount: 3,
    edges: [
      [0, 1],
      [0, 2],
    ],
    references: [[], [0, 0], [0]],
    lo: 0,
    hi: 11,
    similarity,
  });
  assert.ok(asked.size > 0);
  for (const [key, count] of asked) assert.equal(count, 1, key);
  // Node 0 alone has 12 candidate indices; nodes 1 and 2 at most 12 x 12 (index, reference) pairs.
  assert.ok(asked.size <= 12 + 2 * 78, `${asked.size} distinct calls`);
});

test("a realistic size (6 milestones, 60 messages, references) agrees with a slower exact check", () => {
  // Chain 0..5, each milestone compared with the previous one. The expected optimum is
  // computed by an independent O(M·T²) chain recursion, which is exact for chains.
  const lo = 3;
  const hi = 62;
  const similarity: SimilarityOracle = (node, index, refIndex) => {
    const base = ((node * 31 + index * 17) % 11) / 10;
    if (node === 0) return base;
    return index - refIndex(node - 1) === node ? Math.min(1, base + 0.5) : base * 0.5;
  };
  const references = [[], [0], [1], [2], [3], [4]];
  const edges: [number, number][] = [
    [0, 1],
    [1, 2],
    [2, 3],
    [3, 4],
    [4, 5],
  ];
  const result = bestMatch({ nodeCount: 6, edges, references, lo, hi, similarity });
  let best = new Map<number, number>(); // index of the last chain node -> best total so far
  for (let i = lo; i <= hi; i++)
    best.set(
      i,
      similarity(0, i, () => NaN),
    );
  for (let v = 1; v < 6; v++) {
    const next = new Map<number, number>();
    for (let i = lo; i <= hi; i++) {
      let top = -Infinity;
      for (let j = lo; j <= i; j++) top = Math.max(top, best.get(j)! + similarity(v, i, () => j));
      next.set(i, top);
    }
    best = next;
  }
  assert.ok(Math.abs(result.total - Math.max(...best.values())) <= 1e-9);
});

test("invalid problems are rejected with an error naming the fault", () => {
  const base: MatchProblem = { nodeCount: 2, edges: [[0, 1]], references: [[], []], lo: 0, hi: 3, similarity: () => 1 };
  const rejects = (patch: Partial<MatchProblem>, message: RegExp): void => {
    assert.throws(() => bestMatch({ ...base, ...patch }), message);
  };
  rejects(
    {
      edges: [
        [0, 1],
        [1, 0],
      ],
    },
    /cycle through nodes 0, 1/,
  );
  rejects({ edges: [[1, 1]] }, /self-loop on node 1/);
  rejects({ edges: [[0, 2]] }, /edge 0 \(0 -> 2\) names a node outside 0\.\.1/);
  rejects({ references: [[1], []] }, /node 0 references node 1, which is not one of its ancestors/);
  rejects({ references: [[], [1]] }, /node 1 references node 1/);
  rejects({ nodeCount: 3, edges: [[0, 1]], references: [[], [], [0]] }, /node 2 references node 0/);
  rejects({ references: [[]] }, /one array per node \(2\), got 1/);
  rejects({ lo: 4, hi: 3 }, /lo \(4\) is greater than hi \(3\)/);
  rejects({ lo: 0.5 }, /lo and hi must be integers/);
  rejects({ nodeCount: -1 }, /non-negative integer/);
  rejects({ similarity: () => 1.5 }, /returned 1\.5; expected a number in \[0, 1\]/);
  rejects({ similarity: () => NaN }, /returned NaN/);
  rejects({ references: [[], [0]], similarity: (_n, _i, refIndex) => refIndex(1) }, /read node 1, which is not in its reference list/);
});
