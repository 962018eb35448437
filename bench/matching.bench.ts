// Times the milestone matcher on realistic sizes (6 milestones, 60 candidate messages, with
// references) and, on a small case, against exhaustive enumeration. Figures only, no verdicts.
// Run: npm run bench:matching

import { performance } from "node:perf_hooks";
import { bestMatch, type MatchProblem, type SimilarityOracle } from "../engine/evaluation/matching.js";
import { bruteForceMatch, hashInts } from "../test/evaluation/matching-brute-force.js";

/** A cheap stand-in for real measures: hashed scores, boosted at a preferred distance after each reference. */
function syntheticSimilarity(references: readonly (readonly number[])[], counter: { calls: number }): SimilarityOracle {
  return (node, index, refIndex) => {
    counter.calls++;
    const refs = references[node]!.map((u) => refIndex(u));
    const h = hashInts([node, index, ...refs]);
    const base = (h % 5) / 8; // plenty of ties
    return refs.every((r) => index - r === 2) && h % 3 === 0 ? 1 : base;
  };
}

interface Shape {
  name: string;
  nodeCount: number;
  edges: [number, number][];
  references: number[][];
}

const SHAPES: Shape[] = [
  {
    name: "chain, each refs previous",
    nodeCount: 6,
    edges: [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]],
    references: [[], [0], [1], [2], [3], [4]],
  },
  { name: "antichain, no refs", nodeCount: 6, edges: [], references: [[], [], [], [], [], []] },
  {
    name: "root + 5 children refs root",
    nodeCount: 6,
    edges: [[0, 1], [0, 2], [0, 3], [0, 4], [0, 5]],
    references: [[], [0], [0], [0], [0], [0]],
  },
  {
    name: "two chains joined, 2 live refs",
    nodeCount: 6,
    edges: [[0, 1], [2, 3], [1, 4], [3, 4], [4, 5]],
    references: [[], [0], [], [2], [1, 3], [4]],
  },
];

function time(run: () => void, repeat: number): number {
  run(); // warm-up
  const start = performance.now();
  for (let i = 0; i < repeat; i++) run();
  return (performance.now() - start) / repeat;
}

function pad(text: string, width: number): string {
  return text.padEnd(width);
}

console.log("bestMatch, M = 6, T = 60 (lo = 5, hi = 64)");
console.log(`${pad("shape", 34)}${pad("ms / call", 12)}oracle calls`);
for (const shape of SHAPES) {
  const counter = { calls: 0 };
  const problem: MatchProblem = { ...shape, lo: 5, hi: 64, similarity: syntheticSimilarity(shape.references, counter) };
  const ms = time(() => bestMatch(problem), 3);
  counter.calls = 0;
  bestMatch(problem);
  console.log(`${pad(shape.name, 34)}${pad(ms.toFixed(1), 12)}${counter.calls}`);
}

console.log("\nsmall case, M = 6, T = 8: bestMatch versus enumerating all 8^6 = 262,144 vectors");
for (const shape of SHAPES) {
  const problem: MatchProblem = { ...shape, lo: 0, hi: 7, similarity: syntheticSimilarity(shape.references, { calls: 0 }) };
  const matcherMs = time(() => bestMatch(problem), 5);
  const bruteMs = time(() => bruteForceMatch(problem), 1);
  console.log(`${pad(shape.name, 34)}bestMatch ${pad(matcherMs.toFixed(2) + " ms", 12)}brute force ${bruteMs.toFixed(0)} ms`);
}
