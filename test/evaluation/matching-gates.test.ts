import { test } from "node:test";
import assert from "node:assert/strict";
import {
  bestMatch,
  matchWithStrategy,
  type MatchGate,
  type MatchProblem,
  type SimilarityOracle,
} from "../../engine/evaluation/matching/index.js";
import type { MatchStrategy } from "../../engine/evaluation/matching/strategy.js";
import { hashInts, nodeValue } from "./matching-brute-force.js";
import {
  ancestorLists,
  checkInstance,
  emptyTally,
  type Instance,
  ORACLES,
  type Oracle,
  pick,
  randomGates,
  randomReferences,
  randomWindow,
  seededRandom,
  shuffled,
  syntheticSimilarity,
} from "./matching-instances.js";

// Gates (0/1 conditions between a node and one ancestor, like the evaluator's guardrails): the
// brute force multiplies them in literally; every strategy must agree with it, ask each pair
// gate once per (index, reference index) and each key function once per index.

function describeGates(gates: readonly (readonly MatchGate[])[]): string {
  return JSON.stringify(gates.map((list) => list.map((g) => `${"key" in g ? "key" : "pair"}@${g.ref}`)));
}

type GatedShape = "random" | "chain" | "fan" | "funnel";

/** Up to 6 nodes, small T: DAGs with references and gates mixed (a gate's node is often a reference too). */
function gatedInstance(seed: number, shape: GatedShape, oracle: Oracle): Instance {
  const rand = seededRandom(seed);
  const nodeCount = pick(rand, [2, 3, 3, 4, 4, 5, 5, 6]);
  const maxSpan = nodeCount <= 4 ? 7 : nodeCount === 5 ? 6 : 4;
  const span = 2 + Math.floor(rand() * (maxSpan - 1));
  const { lo, hi } = randomWindow(rand, span);
  const order = shuffled(rand, nodeCount);
  const edges: [number, number][] = [];
  for (let i = 0; i < nodeCount; i++) {
    for (let j = i + 1; j < nodeCount; j++) {
      const add =
        (shape === "chain" && j === i + 1) ||
        (shape === "fan" && ((i === 0 && j < nodeCount - 1) || (j === nodeCount - 1 && i > 0))) ||
        (shape === "funnel" && j === nodeCount - 1) ||
        (shape === "random" && rand() < 0.45);
      if (add) edges.push([order[i]!, order[j]!]);
    }
  }
  const ancestors = ancestorLists(nodeCount, edges);
  const references = randomReferences(rand, ancestors, 0.5);
  const gates = randomGates(seed, rand, ancestors, references, 0.7);
  const similarity = syntheticSimilarity(seed, rand, references, oracle);
  return {
    problem: { nodeCount, edges, references, gates, lo, hi, similarity },
    describe: `seed ${seed}, ${shape}, ${oracle}, M=${nodeCount}, lo=${lo}, hi=${hi}, edges=${JSON.stringify(edges)}, refs=${JSON.stringify(references)}, gates=${describeGates(gates)}`,
  };
}

const GATED_SHAPES: readonly GatedShape[] = ["random", "chain", "fan", "funnel"];
const ALL: readonly MatchStrategy[] = ["auto", "elimination", "sweep", "search"];
const INSTANCES_PER_SHAPE = 300;

for (const [s, shape] of GATED_SHAPES.entries()) {
  test(`matches the brute force on ${INSTANCES_PER_SHAPE} random ${shape} instances with gates, under every strategy`, () => {
    const tally = emptyTally();
    for (let i = 0; i < INSTANCES_PER_SHAPE; i++) {
      checkInstance(gatedInstance(5_000_000 + 100_000 * s + i, shape, ORACLES[i % ORACLES.length]!), ALL, tally);
    }
    // The generator must exercise ties, references and gates that decide the outcome.
    assert.ok(tally.withSeveralOptima > INSTANCES_PER_SHAPE / 10, `only ${tally.withSeveralOptima} instances had ties`);
    assert.ok(tally.withReferences > INSTANCES_PER_SHAPE / 3, `only ${tally.withReferences} had references`);
    assert.ok(tally.withBindingGates > INSTANCES_PER_SHAPE / 5, `only ${tally.withBindingGates} had gates that lower the best total`);
  });
}

/**
 * The guardrail shape, small: a root, children gated on it (some referencing it), and a sink
 * gated on every child (so its gates read up to `children` indices) — or, with `extraSinks`,
 * several sinks gated on the children.
 */
function gatedFan(seed: number, children: number, lo: number, hi: number, oracle: Oracle, pairGates: boolean): MatchProblem {
  const rand = seededRandom(seed);
  const sink = children + 1;
  const edges: [number, number][] = [];
  const references: number[][] = [[]];
  for (let c = 1; c <= children; c++) {
    edges.push([0, c], [c, sink]);
    references.push(rand() < 0.4 ? [0] : []);
  }
  references.push(rand() < 0.3 ? [1] : []);
  const classes = (k: number, count: number) => (index: number) => hashInts([seed, k, index]) % count;
  const rootKey = classes(1, 2 + Math.floor(rand() * 2));
  const sinkKey = classes(2, 2);
  const gate = (ref: number, key: (index: number) => number): MatchGate =>
    pairGates ? { ref, holds: (index, refIndex) => key(index) === key(refIndex) } : { ref, key };
  const gates: MatchGate[][] = [[]];
  for (let c = 1; c <= children; c++) gates.push(rand() < 0.8 ? [gate(0, rootKey)] : []);
  gates.push(Array.from({ length: children }, (_, c) => gate(c + 1, sinkKey)));
  return { nodeCount: children + 2, edges, references, gates, lo, hi, similarity: syntheticSimilarity(seed, rand, references, oracle) };
}

test("matches the brute force on wide gated fans (a sink gated on 5 to 8 children)", () => {
  const tally = emptyTally();
  for (let i = 0; i < 60; i++) {
    const seed = 6_000_000 + i;
    const children = 5 + (i % 4);
    const span = children <= 6 ? 3 : 2;
    const lo = i % 3;
    const problem = gatedFan(seed, children, lo, lo + span - 1, ORACLES[i % ORACLES.length]!, i % 5 === 0);
    const describe = `seed ${seed}, gated fan of ${children}, lo=${lo}, T=${span}, refs=${JSON.stringify(problem.references)}, gates=${describeGates(problem.gates!)}`;
    checkInstance({ problem, describe }, i % 6 === 0 ? ALL : ["auto", "elimination"], tally);
  }
  assert.ok(tally.withBindingGates > 20, `only ${tally.withBindingGates} instances had gates that lower the best total`);
});

test("key gates and the same conditions as pair gates give the same mapping", () => {
  // Different code paths in elimination (class variables vs pairwise tables), same meaning.
  for (let i = 0; i < 12; i++) {
    const seed = 6_500_000 + i;
    const keyed = gatedFan(seed, 4 + (i % 3), 0, 14, ORACLES[i % ORACLES.length]!, false);
    const paired = gatedFan(seed, 4 + (i % 3), 0, 14, ORACLES[i % ORACLES.length]!, true);
    const expected = matchWithStrategy(keyed, "elimination").result;
    assert.deepEqual(matchWithStrategy(paired, "elimination").result, expected, `seed ${seed}`);
    assert.deepEqual(bestMatch(paired), expected, `seed ${seed}`);
  }
});

/**
 * The bench's case, synthetic: a root, 10 errands after it (gated on it; two reference it) and
 * a closing sink after all 10, gated on each errand's index. The expected optimum comes from a
 * direct O(T² · k · K) scan over (root, sink) that uses the structure: with the root at r and
 * the sink at s, each errand independently takes its best index in [r, s], and when the sink
 * counts, only among indices in the sink's key class.
 */
test("a sink gated on 10 parallel milestones over 300 messages is matched exactly and fast", () => {
  const lo = 15;
  const hi = 314;
  const children = 10;
  const sink = children + 1;
  const rootKey = (index: number): number => (index < 20 ? 0 : index < 200 ? 1 : 2); // e.g. a table changed twice
  const sinkKey = (index: number): number => (index < 40 ? 0 : 1);
  const edges: [number, number][] = [];
  const references: number[][] = [[]];
  const gates: MatchGate[][] = [[]];
  for (let c = 1; c <= children; c++) {
    edges.push([0, c], [c, sink]);
    references.push(c >= 8 ? [0] : []);
    gates.push([{ ref: 0, key: rootKey }]);
  }
  references.push([]);
  gates.push(Array.from({ length: children }, (_, c) => ({ ref: c + 1, key: sinkKey })));
  const similarity: SimilarityOracle = (node, index, refIndex) => {
    const base = (hashInts([node, index]) % 9) / 8;
    if (node >= 8 && node <= 10) return index - refIndex(0) === 3 * node ? 1 : base / 2;
    return base;
  };
  const problem: MatchProblem = { nodeCount: children + 2, edges, references, gates, lo, hi, similarity };

  const { result, strategies } = matchWithStrategy(problem, "auto");
  // The polynomial method, not a sweep over every index triple; bench:matching times it.
  assert.deepEqual(strategies, ["elimination"]);

  const indices = result.assignment.map((a) => a.index);
  for (const [u, v] of edges) assert.ok(indices[u]! <= indices[v]!, `edge ${u}->${v}`);
  result.assignment.forEach((a, v) => {
    assert.equal(a.similarity, nodeValue(problem, v, indices), `node ${v}`);
  });

  // child(c, x, r): the errand's value at x with the root at r (0 when its gate fails).
  const child = (c: number, x: number, r: number): number => (rootKey(x) === rootKey(r) ? similarity(c, x, () => r) : 0);
  let best = -Infinity;
  for (let r = lo; r <= hi; r++) {
    // Running maxima over x in [r, s] as s grows: overall, and per sink key class.
    const any = new Array<number>(children + 1).fill(-Infinity);
    const inClass = Array.from({ length: children + 1 }, () => [-Infinity, -Infinity]);
    for (let s = r; s <= hi; s++) {
      let free = similarity(0, r, () => NaN); // the sink does not count
      let gated = free + similarity(sink, s, () => NaN); // the sink counts: every errand in s's class
      for (let c = 1; c <= children; c++) {
        const value = child(c, s, r);
        any[c] = Math.max(any[c]!, value);
        inClass[c]![sinkKey(s)] = Math.max(inClass[c]![sinkKey(s)]!, value);
        free += any[c]!;
        gated += inClass[c]![sinkKey(s)]!;
      }
      best = Math.max(best, free, gated);
    }
  }
  assert.ok(Math.abs(result.total - best) <= 1e-9, `${result.total} vs ${best}`);
  assert.ok(result.total > 10, "the instance must reward the gated mapping, not only scores of 0");
});

test("a failing gate zeroes its node, and a gate alone does not make its node readable", () => {
  // Node 1 scores 1 anywhere, but only counts where its key matches node 0's.
  const problem: MatchProblem = {
    nodeCount: 2,
    edges: [[0, 1]],
    references: [[], []],
    gates: [[], [{ ref: 0, key: (index) => (index >= 5 ? 1 : 0) }]],
    lo: 0,
    hi: 9,
    similarity: (node, index) => (node === 0 ? (index === 2 ? 0.5 : 0.25) : 1),
  };
  // Node 0 at 2 (0.5) leaves node 1 in class 0 (indices 2..4): total 1.5; node 0 at 5 gives 1.25.
  for (const strategy of ALL) {
    assert.deepEqual(matchWithStrategy(problem, strategy).result, {
      total: 1.5,
      assignment: [
        { index: 2, similarity: 0.5 },
        { index: 2, similarity: 1 },
      ],
    });
  }
  const reading: MatchProblem = { ...problem, similarity: (node, _index, refIndex) => (node === 1 ? refIndex(0) / 10 : 0) };
  assert.throws(() => bestMatch(reading), /node 1 read node 0, which is not in its reference list/);
  // Listed in both, the node reads it and is gated on it.
  const both: MatchProblem = { ...reading, references: [[], [0]] };
  const result = bestMatch(both);
  assert.equal(result.assignment[1]!.similarity, result.assignment[0]!.index / 10);
});

test("invalid gates are rejected with an error naming the fault", () => {
  const base: MatchProblem = { nodeCount: 2, edges: [[0, 1]], references: [[], []], lo: 0, hi: 3, similarity: () => 1 };
  const rejects = (gates: unknown, message: RegExp): void => {
    assert.throws(() => bestMatch({ ...base, gates: gates as MatchProblem["gates"] }), message);
  };
  rejects([[{ ref: 1, key: () => 0 }], []], /gate 0 of node 0 compares with node 1, which is not one of its ancestors/);
  rejects([[], [{ ref: 1, key: () => 0 }]], /gate 0 of node 1 compares with node 1/);
  rejects([[], [{ ref: 0 }]], /gate 0 of node 1 must have exactly one of holds\(index, refIndex\) and key\(index\)/);
  rejects([[], [{ ref: 0, key: () => 0, holds: () => true }]], /exactly one of/);
  rejects([[]], /gates must list one array per node \(2\), got 1/);
  rejects([[], [{ ref: 0, key: () => NaN }]], /the key of gate 0 at index 0 is NaN; expected a number/);
  rejects([[], [{ ref: 0, holds: () => 1 }]], /gate 0 returned 1 for \(0, 0\); expected true or false/);
});
