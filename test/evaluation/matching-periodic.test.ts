// Periodic trimming (matching/periodic-trim.ts) against the brute force: problems whose
// similarities, references and gates see only a message's kind, over a sequence of kinds with
// stretches that repeat (a loop of look-alike traffic between other messages), must be matched
// exactly as over every message, tie-break included, under every strategy; and the trimming must
// actually have cut most of them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { matchWithStrategy, type MatchGate, type MatchProblem } from "../../engine/evaluation/matching/index.js";
import { trimPeriodicStretches } from "../../engine/evaluation/matching/periodic-trim.js";
import { bruteForceMatch, hashInts, seededRandom } from "./matching-brute-force.js";
import { ancestorLists, pick, randomReferences, shuffled, type Rand } from "./matching-instances.js";

// Ties, zeros and thirds (float sums that depend on the order they are added in).
const VALUES = [0, 0, 0, 1, 0.5, 0.25, 1 / 3, 2 / 3, 1 - 1e-12];

/** Kinds of messages: a few random ones, a stretch repeating a short pattern, a few more, maybe another stretch. */
function kindSequence(rand: Rand, nodeCount: number): number[] {
  const kinds: number[] = [];
  const random = (n: number): void => {
    for (let k = 0; k < n; k++) kinds.push(Math.floor(rand() * 5));
  };
  const stretch = (): void => {
    const period = pick(rand, nodeCount >= 3 ? [1, 1, 2] : [1, 2, 2, 3]);
    const pattern = Array.from({ length: period }, () => Math.floor(rand() * 4));
    const length = nodeCount * period + period + 1 + Math.floor(rand() * 4);
    for (let k = 0; k < length; k++) kinds.push(pattern[k % period]!);
  };
  random(Math.floor(rand() * 3));
  stretch();
  random(Math.floor(rand() * 3));
  if (nodeCount <= 2 && rand() < 0.5) stretch();
  return kinds;
}

function randomDag(rand: Rand, nodeCount: number): [number, number][] {
  const order = shuffled(rand, nodeCount);
  const edges: [number, number][] = [];
  for (let a = 0; a < nodeCount; a++) for (let b = a + 1; b < nodeCount; b++) if (rand() < 0.5) edges.push([order[a]!, order[b]!]);
  return edges;
}

function periodicProblem(seed: number): { problem: MatchProblem; describe: string } {
  const rand = seededRandom(seed);
  const nodeCount = pick(rand, [1, 2, 2, 3, 3]);
  const kinds = kindSequence(rand, nodeCount);
  const lo = Math.floor(rand() * 3);
  const hi = lo + kinds.length - 1;
  const kind = (index: number): number => kinds[index - lo]!;
  const edges = randomDag(rand, nodeCount);
  const ancestors = ancestorLists(nodeCount, edges);
  const references = randomReferences(rand, ancestors);
  const gates: MatchGate[][] = ancestors.map((anc, v) => {
    if (anc.length === 0 || rand() < 0.6) return [];
    const ref = pick(rand, anc);
    return rand() < 0.5
      ? [{ ref, key: (index: number) => hashInts([seed, 3, kind(index)]) % 2 }]
      : [{ ref, holds: (index: number, refIndex: number) => hashInts([seed, 4, v, kind(index), kind(refIndex)]) % 3 !== 0 }];
  });
  const problem: MatchProblem = {
    nodeCount,
    edges,
    references,
    lo,
    hi,
    similarity: (v, index, refIndex) =>
      VALUES[hashInts([seed, v, kind(index), ...references[v]!.map((u) => kind(refIndex(u)))]) % VALUES.length]!,
    ...(gates.some((list) => list.length > 0) ? { gates } : {}),
    classes: { matched: (_v, index) => kind(index), referenced: (_u, index) => kind(index) },
  };
  return { problem, describe: `seed ${seed}, ${nodeCount} nodes, kinds ${kinds.join("")} from ${lo}, edges ${JSON.stringify(edges)}` };
}

test("stretches of repeating messages are trimmed and the match is the brute force's over every message", () => {
  let trimmed = 0;
  const instances = 300;
  for (let i = 0; i < instances; i++) {
    const { problem, describe } = periodicProblem(7_300_000 + i);
    const { classes: _classes, ...plain } = problem;
    const brute = bruteForceMatch(plain);
    const cut = trimPeriodicStretches(problem);
    if (cut && cut.starts.length < problem.hi - problem.lo + 1) trimmed++;
    for (const strategy of ["auto", "elimination", "sweep", "search"] as const) {
      const { result } = matchWithStrategy(problem, strategy);
      assert.ok(Math.abs(result.total - brute.best) <= 1e-9, `${strategy}: total ${result.total} vs ${brute.best} (${describe})`);
      assert.deepEqual(
        result.assignment.map((a) => a.index),
        brute.chosen,
        `${strategy} (${describe})`,
      );
    }
  }
  assert.ok(trimmed > instances * 0.9, `only ${trimmed} of ${instances} instances were trimmed`);
});

test("a stretch keeps its first M·p and last p messages, and what it keeps is in order", () => {
  // Two nodes, period 2 (kinds 0,1,0,1,…) over 20 messages after one message of kind 9.
  const kinds = [9, ...Array.from({ length: 20 }, (_, k) => k % 2)];
  const problem: MatchProblem = {
    nodeCount: 2,
    edges: [[0, 1]],
    references: [[], []],
    lo: 0,
    hi: kinds.length - 1,
    similarity: () => 0,
    classes: { matched: (_v, i) => kinds[i]!, referenced: (_u, i) => kinds[i]! },
  };
  const cut = trimPeriodicStretches(problem);
  assert.ok(cut);
  // The stretch is 1..20: 1..4 (2 nodes x period 2) and 19..20 stay.
  assert.deepEqual([...cut.starts], [0, 1, 2, 3, 4, 19, 20]);
});
