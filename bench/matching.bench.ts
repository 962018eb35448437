// Times the milestone matcher (bestMatch) on the shapes issue 3 names: the worst case of 12
// milestones in a wide DAG over a 300-message trajectory (target: under 100 ms), and chains,
// stars and bipartite DAGs beside it, plus the usual 6 milestones over 60 messages. Figures
// only, no verdicts. The guarded rows add gates like the evaluator's automatic guardrails
// (matching-gates.ts): the wide DAG's sink then depends on the indices of all ten children. Times include a cheap synthetic similarity (an integer hash), so they are
// the matcher's own cost; real measures are slower per call, which is why the oracle call
// count is printed too (each distinct (node, index, reference indices) is asked once).
//
//   npm run bench:matching              (5 timed calls per case after the first)
//   npm run bench:matching -- 20        (20)
//
// runMatchingBench() is exported for the evaluation bench (bench:eval) to include these rows.

import { performance } from "node:perf_hooks";
import { matchWithStrategy, type MatchGate, type MatchProblem, type SimilarityOracle } from "../engine/evaluation/matching/index.js";
import { startBenchReport } from "./report.js";

export interface MatchingBenchCase {
  readonly name: string;
  readonly nodeCount: number;
  readonly edges: readonly (readonly [number, number])[];
  readonly references: readonly (readonly number[])[];
  /** Gates per node (the evaluator's guardrails against milestones), if any. */
  readonly gates?: readonly (readonly MatchGate[])[];
  /** Candidate messages: indices 1..messages. */
  readonly messages: number;
}

export interface MatchingBenchRow {
  readonly name: string;
  readonly nodes: number;
  readonly messages: number;
  /** The method each connected component used, counted ("elimination", "2 x sweep", …). */
  readonly strategies: string;
  /** The case's first call, milliseconds (the first case's runs on cold code). */
  readonly firstMs: number;
  /** Mean of the timed calls after it. */
  readonly meanMs: number;
  /** Similarity calls in one bestMatch call. */
  readonly oracleCalls: number;
}

/** A well-mixed 32-bit hash of three integers, without allocating. */
function mix(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35) ^ Math.imul(c + 0x165667b1, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
  return (h ^ (h >>> 15)) >>> 0;
}

/**
 * A stand-in for real measures: hashed scores in eighths (plenty of ties), and 1 when a node
 * sits at its preferred distance after its first reference (like "a reminder was added after
 * the contact was found"), which couples the nodes the way references do.
 */
function syntheticSimilarity(references: readonly (readonly number[])[], counter: { calls: number }): SimilarityOracle {
  return (node, index, refIndex) => {
    counter.calls++;
    const refs = references[node]!;
    const ref = refs.length > 0 ? refIndex(refs[0]!) : -1;
    const h = mix(node, index, ref);
    return ref >= 0 && index - ref === 1 + (node % 3) && h % 3 === 0 ? 1 : (h % 5) / 8;
  };
}

function wideFan(children: number): Pick<MatchingBenchCase, "nodeCount" | "edges" | "references"> {
  const edges: [number, number][] = [];
  const references: number[][] = [[]];
  for (let c = 1; c <= children; c++) {
    edges.push([0, c], [c, children + 1]);
    references.push([0]);
  }
  references.push([]);
  return { nodeCount: children + 2, edges, references };
}

function chain(n: number): Pick<MatchingBenchCase, "nodeCount" | "edges" | "references"> {
  const edges = Array.from({ length: n - 1 }, (_, i) => [i, i + 1] as const);
  return { nodeCount: n, edges, references: Array.from({ length: n }, (_, i) => (i === 0 ? [] : [i - 1])) };
}

function star(children: number): Pick<MatchingBenchCase, "nodeCount" | "edges" | "references"> {
  const edges = Array.from({ length: children }, (_, i) => [0, i + 1] as const);
  return { nodeCount: children + 1, edges, references: [[], ...edges.map(() => [0])] };
}

/**
 * Which state a watched table is in at a message, as guardrails see it: the table changes a
 * few times during the episode (here every 70 messages), so indices fall into a few classes.
 */
const tableState = (index: number): number => Math.floor(index / 70);
const settingState = (index: number): number => (index < 20 ? 0 : 1);

/** wideFan with the evaluator's guardrails: each child gated on the root, the sink on every child. */
function guardedFan(children: number): Pick<MatchingBenchCase, "nodeCount" | "edges" | "references" | "gates"> {
  const fan = wideFan(children);
  const gates: MatchGate[][] = [[]];
  for (let c = 1; c <= children; c++) gates.push([{ ref: 0, key: tableState }]);
  gates.push(Array.from({ length: children }, (_, c) => ({ ref: c + 1, key: settingState })));
  return { ...fan, gates };
}

/** chain(n) with each node also gated on the previous one. */
function guardedChain(n: number): Pick<MatchingBenchCase, "nodeCount" | "edges" | "references" | "gates"> {
  return { ...chain(n), gates: Array.from({ length: n }, (_, i) => (i === 0 ? [] : [{ ref: i - 1, key: tableState }])) };
}

/** Every top node before every bottom node; bottom b references top b mod tops when asked. */
function bipartite(tops: number, bottoms: number, withReferences: boolean): Pick<MatchingBenchCase, "nodeCount" | "edges" | "references"> {
  const edges: (readonly [number, number])[] = [];
  const references: number[][] = Array.from({ length: tops }, () => []);
  for (let b = 0; b < bottoms; b++) {
    for (let t = 0; t < tops; t++) edges.push([t, tops + b]);
    references.push(withReferences ? [b % tops] : []);
  }
  return { nodeCount: tops + bottoms, edges, references };
}

export const MATCHING_BENCH_CASES: readonly MatchingBenchCase[] = [
  { name: "wide: root, 10 children ref root, sink", messages: 300, ...wideFan(10) },
  { name: "wide, guarded: + gates root/children/sink", messages: 300, ...guardedFan(10) },
  { name: "chain of 12, each refs previous", messages: 300, ...chain(12) },
  { name: "chain of 12, refs and gates previous", messages: 300, ...guardedChain(12) },
  { name: "star: root + 11 children ref root", messages: 300, ...star(11) },
  { name: "bipartite 2 x 10, bottoms ref a top", messages: 300, ...bipartite(2, 10, true) },
  { name: "bipartite 3 x 3 complete, no refs", messages: 300, ...bipartite(3, 3, false) },
  { name: "12 unrelated milestones", messages: 300, nodeCount: 12, edges: [], references: Array.from({ length: 12 }, () => []) },
  { name: "chain of 6, each refs previous", messages: 60, ...chain(6) },
  { name: "root + 5 children ref root", messages: 60, ...star(5) },
];

function summarise(strategies: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const s of strategies) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([s, n]) => (n === 1 ? s : `${n} x ${s}`)).join(", ");
}

/** Runs each case once cold and `repeat` more times; returns one row per case. */
export function runMatchingBench(repeat = 5, cases: readonly MatchingBenchCase[] = MATCHING_BENCH_CASES): MatchingBenchRow[] {
  return cases.map((c) => {
    const counter = { calls: 0 };
    const problem: MatchProblem = { ...c, lo: 1, hi: c.messages, similarity: syntheticSimilarity(c.references, counter) };
    let start = performance.now();
    const { strategies } = matchWithStrategy(problem, "auto");
    const firstMs = performance.now() - start;
    const oracleCalls = counter.calls;
    start = performance.now();
    for (let i = 0; i < repeat; i++) matchWithStrategy(problem, "auto");
    const meanMs = repeat > 0 ? (performance.now() - start) / repeat : firstMs;
    return { name: c.name, nodes: c.nodeCount, messages: c.messages, strategies: summarise(strategies), firstMs, meanMs, oracleCalls };
  });
}

export function formatMatchingBench(rows: readonly MatchingBenchRow[]): string {
  const lines = [
    `${"case".padEnd(40)}${"M".padStart(3)}${"T".padStart(5)}  ${"first ms".padStart(9)}${"mean ms".padStart(9)}${"oracle calls".padStart(14)}  method`,
  ];
  for (const r of rows) {
    lines.push(
      `${r.name.padEnd(40)}${String(r.nodes).padStart(3)}${String(r.messages).padStart(5)}  ${r.firstMs.toFixed(1).padStart(9)}${r.meanMs.toFixed(1).padStart(9)}${String(r.oracleCalls).padStart(14)}  ${r.strategies}`,
    );
  }
  return lines.join("\n");
}

/** Issue 3's target for the wide DAG (the rows whose name starts with "wide"). */
const TARGET_MS = 100;

function repeatFromArgs(): number {
  const arg = process.argv[2];
  if (arg === undefined) return 5;
  const n = Number(arg);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`bench:matching: the repeat count must be a positive integer, got "${arg}"`);
    process.exit(2);
  }
  return n;
}

if (require.main === module) {
  const report = startBenchReport("matching");
  const repeat = repeatFromArgs();
  console.log(`bestMatch, candidate messages 1..T; "first" is a case's first call (cold code on the first row), "mean" the next ${repeat}`);
  console.log(`issue 3 target: the wide 12-milestone DAG over 300 messages under ${TARGET_MS} ms\n`);
  const rows = runMatchingBench(repeat);
  console.log(formatMatchingBench(rows));
  for (const r of rows.filter((row) => row.name.startsWith("wide")))
    report.target(`${r.name}: mean under ${TARGET_MS} ms (${r.meanMs.toFixed(1)} ms)`, r.meanMs < TARGET_MS);
  report.write();
}
