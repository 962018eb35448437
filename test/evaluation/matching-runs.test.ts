// The run compression (index-compression.ts) against the brute force: a problem whose similarities,
// references and gates only see which run an index is in must be matched exactly as if every
// message were its own index. Two checks:
// - small random problems, compared with the brute force over the very same (uncompressed)
//   indices: the exactness argument itself, tie-break included;
// - DAG shapes past the lines where the matcher used to refuse (a 9-milestone wide DAG from 270
//   messages, 12 milestones from 2,000, chains from 750), over thousands of messages but a few
//   runs: the brute force enumerates the runs (one index per run), and the matcher must name the
//   runs' first messages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bestMatch, matchWithStrategy, type MatchGate, type MatchProblem } from "../../engine/evaluation/matching/index.js";
import { bruteForceMatch, hashInts, seededRandom } from "./matching-brute-force.js";
import {
  ancestorLists,
  ORACLES,
  pick,
  randomGates,
  randomReferences,
  randomWindow,
  shuffled,
  syntheticSimilarity,
  type Rand,
} from "./matching-instances.js";

/** Run boundaries over lo..hi: starts ascending, the first is lo. */
function randomStarts(rand: Rand, lo: number, hi: number, cut: number): number[] {
  const starts = [lo];
  for (let i = lo + 1; i <= hi; i++) if (rand() < cut) starts.push(i);
  return starts;
}

/** `small` (over runs 0..R-1) spread over lo..hi, each index acting as its run. */
function spread(small: MatchProblem, starts: readonly number[], lo: number, hi: number): MatchProblem {
  const runOf = new Int32Array(hi + 1);
  starts.forEach((start, r) => {
    const end = r + 1 < starts.length ? starts[r + 1]! : hi + 1;
    for (let i = start; i < end; i++) runOf[i] = r;
  });
  const keyFunctions = new Map<(i: number) => number, (i: number) => number>();
  const gate = (g: MatchGate): MatchGate => {
    if ("holds" in g) return { ref: g.ref, holds: (index, refIndex) => g.holds(runOf[index]!, runOf[refIndex]!) };
    let key = keyFunctions.get(g.key);
    if (!key) keyFunctions.set(g.key, (key = (index: number) => g.key(runOf[index]!)));
    return { ref: g.ref, key };
  };
  return {
    ...small,
    lo,
    hi,
    similarity: (v, index, refIndex) => small.similarity(v, runOf[index]!, (u) => runOf[refIndex(u)]!),
    ...(small.gates ? { gates: small.gates.map((list) => list.map(gate)) } : {}),
    sameAsPrevious: (index) => runOf[index] === runOf[index - 1],
  };
}

function randomDag(rand: Rand, nodeCount: number): [number, number][] {
  const order = shuffled(rand, nodeCount);
  const edges: [number, number][] = [];
  for (let a = 0; a < nodeCount; a++) for (let b = a + 1; b < nodeCount; b++) if (rand() < 0.4) edges.push([order[a]!, order[b]!]);
  return edges;
}

test("runs of interchangeable messages give exactly the brute force's answer over every message", () => {
  let merged = 0;
  for (let i = 0; i < 1500; i++) {
    const seed = 9_000_000 + i;
    const rand = seededRandom(seed);
    const nodeCount = pick(rand, [1, 2, 3, 3, 4, 4, 5]);
    const span = 1 + Math.floor(rand() * (nodeCount <= 4 ? 7 : 5));
    const { lo, hi } = randomWindow(rand, span);
    const edges = randomDag(rand, nodeCount);
    const ancestors = ancestorLists(nodeCount, edges);
    const references = randomReferences(rand, ancestors);
    const starts = randomStarts(rand, lo, hi, 0.4);
    const small: MatchProblem = {
      nodeCount,
      edges,
      references,
      lo: 0,
      hi: starts.length - 1,
      similarity: syntheticSimilarity(seed, rand, references, ORACLES[i % ORACLES.length]!),
      ...(rand() < 0.4 ? { gates: randomGates(seed, rand, ancestors, references) } : {}),
    };
    const big = spread(small, starts, lo, hi);
    const { sameAsPrevious: _none, ...uncompressed } = big;
    const brute = bruteForceMatch(uncompressed);
    const where = `seed ${seed}, ${nodeCount} nodes over ${lo}..${hi}, runs at ${JSON.stringify(starts)}, edges ${JSON.stringify(edges)}`;
    for (const strategy of ["auto", "elimination", "search"] as const) {
      const { result } = matchWithStrategy(big, strategy);
      assert.ok(Math.abs(result.total - brute.best) <= 1e-9, `${strategy}: total ${result.total} vs ${brute.best} (${where})`);
      assert.deepEqual(
        result.assignment.map((a) => a.index),
        brute.chosen,
        `${strategy} (${where})`,
      );
    }
    if (starts.length < span) merged++;
  }
  assert.ok(merged > 1000, `only ${merged} instances had a run longer than one message`);
});

/** Root 0, `children` milestones reading it, a sink after them all gated on each (the evaluator's guardrails). */
function wideDag(children: number, runs: number, seed: number): MatchProblem {
  const sink = children + 1;
  const edges: [number, number][] = [];
  const references: number[][] = [[]];
  const gates: MatchGate[][] = [[]];
  const key = (run: number): number => hashInts([seed, 5, run]) % 2;
  for (let c = 1; c <= children; c++) {
    edges.push([0, c], [c, sink]);
    references.push([0]);
    gates.push([]);
  }
  references.push([]);
  gates.push(Array.from({ length: children }, (_, c) => ({ ref: c + 1, key })));
  return {
    nodeCount: children + 2,
    edges,
    references,
    gates,
    lo: 0,
    hi: runs - 1,
    similarity: (v, run, refIndex) => (hashInts([seed, v, run, references[v]!.length > 0 ? refIndex(0) : -1]) % 5) / 4,
  };
}

function chain(length: number, runs: number, seed: number): MatchProblem {
  return {
    nodeCount: length,
    edges: Array.from({ length: length - 1 }, (_, v): [number, number] => [v, v + 1]),
    references: Array.from({ length }, (_, v) => (v === 0 ? [] : [v - 1])),
    lo: 0,
    hi: runs - 1,
    similarity: (v, run, refIndex) => (hashInts([seed, v, run, v === 0 ? -1 : refIndex(v - 1)]) % 5) / 4,
  };
}

const SHAPES: readonly { name: string; small: MatchProblem; messages: number }[] = [
  { name: "9-milestone wide DAG over 400 messages (refused from 270)", small: wideDag(7, 4, 1), messages: 400 },
  { name: "9-milestone wide DAG over 10,000 messages", small: wideDag(7, 3, 2), messages: 10_000 },
  { name: "12-milestone wide DAG over 2,500 messages (refused from 2,000)", small: wideDag(10, 3, 3), messages: 2_500 },
  { name: "20-milestone wide DAG over 10,000 messages", small: wideDag(18, 2, 4), messages: 10_000 },
  { name: "6-milestone chain over 10,000 messages (refused from 750, crashed at 10,000)", small: chain(6, 6, 5), messages: 10_000 },
];

for (const { name, small, messages } of SHAPES) {
  test(`a ${name}, in a few runs, matches the brute force over the runs`, () => {
    const rand = seededRandom(messages + small.nodeCount);
    // Runs of random lengths: the first message, then cuts anywhere.
    const cuts = new Set<number>();
    while (cuts.size < small.hi) cuts.add(1 + Math.floor(rand() * (messages - 1)));
    const starts = [0, ...[...cuts].sort((a, b) => a - b)];
    const brute = bruteForceMatch(small);
    const result = bestMatch(spread(small, starts, 0, messages - 1));
    assert.ok(Math.abs(result.total - brute.best) <= 1e-9, `total ${result.total} vs ${brute.best}`);
    assert.deepEqual(
      result.assignment.map((a) => a.index),
      brute.chosen.map((run) => starts[run]!),
    );
  });
}
