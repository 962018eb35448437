import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { firstUserMessageIndex, listMatchProblem } from "../../engine/evaluation/evaluate.js";
import { bestMatch, MATCH_TIE_EPSILON, type MatchProblem } from "../../engine/evaluation/matching/index.js";
import { StateCache } from "../../engine/evaluation/node-scorer.js";
import { packTables } from "../../engine/packs/tables.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";
import { longRunTrajectoryText, type TrafficPlacement } from "../../bench/long-run-trajectory.js";

// Every sample's own milestones and minefields over generated long runs (bench/long-run-
// trajectory.ts: rounds of traffic the nodes do not care about, the sample's messages late or
// spread through it), matched by the matcher as the evaluator calls it (index classes and run
// compression included) and by a literal oracle: every valid mapping enumerated, the maximum
// total, then the lexicographically smallest index vector within the tie epsilon (the documented
// rule, as test/evaluation/matching-brute-force.ts states it), with the plain similarity and
// gates (no classes, no runs). Sizes stay small enough to enumerate.

const SAMPLES = "sample-scenarios/trajectories";
const PLACEMENTS: readonly TrafficPlacement[] = ["late", "spread"];

interface Oracle {
  readonly best: number;
  readonly chosen: readonly number[];
  readonly mappings: number;
}

/**
 * The documented rule, literally, over the valid mappings only: nodes are assigned in a
 * topological order, each over every index its assigned predecessors and successors allow, so
 * every valid vector is visited once. Similarities are memoised (the values are the oracle's).
 */
function oracleMatch(p: MatchProblem, limit: number): Oracle | null {
  const m = p.nodeCount;
  const parents = Array.from({ length: m }, () => [] as number[]);
  for (const [u, v] of p.edges) parents[v]!.push(u);
  const order: number[] = [];
  const placed = new Set<number>();
  while (order.length < m) {
    for (let v = 0; v < m; v++) {
      if (placed.has(v) || !parents[v]!.every((u) => placed.has(u))) continue;
      order.push(v);
      placed.add(v);
    }
  }
  const memo = new Map<string, number>();
  const value = (v: number, indices: readonly number[]): number => {
    for (const gate of p.gates?.[v] ?? []) {
      const holds = "holds" in gate ? gate.holds(indices[v]!, indices[gate.ref]!) : gate.key(indices[v]!) === gate.key(indices[gate.ref]!);
      if (!holds) return 0;
    }
    const key = `${v}:${indices[v]}:${p.references[v]!.map((u) => indices[u]).join(",")}`;
    let s = memo.get(key);
    if (s === undefined) memo.set(key, (s = p.similarity(v, indices[v]!, (u) => indices[u]!)));
    return s;
  };
  const indices = new Array<number>(m).fill(p.lo);
  let best = -Infinity;
  let optima: { total: number; indices: number[] }[] = [];
  let mappings = 0;
  const walk = (k: number): boolean => {
    if (k === m) {
      if (++mappings > limit) return false;
      let total = 0;
      for (let v = 0; v < m; v++) total += value(v, indices);
      if (total > best) {
        best = total;
        optima = optima.filter((o) => o.total >= best - MATCH_TIE_EPSILON);
      }
      if (total >= best - MATCH_TIE_EPSILON) optima.push({ total, indices: [...indices] });
      return true;
    }
    const v = order[k]!;
    let low = p.lo;
    for (const u of parents[v]!) low = Math.max(low, indices[u]!);
    for (let i = low; i <= p.hi; i++) {
      indices[v] = i;
      if (!walk(k + 1)) return false;
    }
    return true;
  };
  if (!walk(0)) return null;
  const lexicographic = (a: readonly number[], b: readonly number[]): number => {
    for (let v = 0; v < m; v++) if (a[v] !== b[v]) return a[v]! - b[v]!;
    return 0;
  };
  const chosen = optima.filter((o) => o.total >= best - MATCH_TIE_EPSILON).sort((a, b) => lexicographic(a.indices, b.indices))[0]!;
  return { best, chosen: chosen.indices, mappings };
}

/** The node lists' problems of a long run: as the evaluator builds them, and stripped of classes and runs. */
function problemsOf(text: string): { name: string; problem: MatchProblem }[] {
  const trajectory = parseTrajectory(text, "long-run.trajectory.jsonl");
  const scenario = trajectory.header.scenario;
  const first = firstUserMessageIndex(trajectory.messages);
  const { schemas } = packTables(scenario.world.pack);
  const states = new StateCache({ messages: trajectory.messages, worldAt: (i) => trajectory.worldAt(i), initialIndex: first, schemas });
  const window = { first, last: trajectory.messages.length - 1 };
  const lists = [
    { name: "milestones", nodes: scenario.milestones },
    { name: "minefields", nodes: scenario.minefields },
  ];
  return lists
    .filter(({ nodes }) => nodes.length > 0)
    .map(({ name, nodes }) => ({ name, problem: listMatchProblem(nodes, name, [...schemas.keys()], states, window).problem }));
}

test("on generated long runs of every sample, the matcher equals the literal oracle", () => {
  const files = readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".trajectory.jsonl"))
    .sort();
  assert.equal(files.length, 29, "the 29 sample trajectories");
  let compared = 0;
  let withReferences = 0;
  for (const file of files) {
    const sample = readFileSync(join(SAMPLES, file), "utf8");
    for (const placement of PLACEMENTS) {
      // Two sizes: the sample plus a few rounds, and as many as the oracle can enumerate.
      for (const extra of [8, 24]) {
        const messages = parseTrajectory(sample, file).messages.length + extra;
        for (const { name, problem } of problemsOf(longRunTrajectoryText(sample, messages, placement))) {
          const { classes: _classes, sameAsPrevious: _runs, ...plain } = problem;
          const oracle = oracleMatch(plain, 400_000);
          if (!oracle) continue;
          const got = bestMatch({ ...problem, onProgress: () => {} });
          const where = `${file} ${placement} ${messages} messages, ${name}`;
          assert.ok(Math.abs(got.total - oracle.best) <= MATCH_TIE_EPSILON, `${where}: total ${got.total}, oracle ${oracle.best}`);
          assert.deepEqual(
            got.assignment.map((a) => a.index),
            oracle.chosen,
            `${where}: the tie-break's mapping`,
          );
          compared++;
          if (problem.references.some((r) => r.length > 0) || problem.gates?.some((g) => g.length > 0)) withReferences++;
        }
      }
    }
  }
  // Most problems must be enumerable, and many must read another milestone's message.
  assert.ok(compared >= 90, `${compared} problems compared with the oracle`);
  assert.ok(withReferences >= 40, `${withReferences} of them with references or gates`);
});

test("on longer runs of every sample, the matcher with classes equals the matcher without them", () => {
  // The matcher without classes and runs is the one the oracle tests above and in
  // matching*.test.ts check; here it is the anchor at sizes the enumeration cannot reach.
  for (const file of readdirSync(SAMPLES).filter((f) => f.endsWith(".trajectory.jsonl"))) {
    const sample = readFileSync(join(SAMPLES, file), "utf8");
    for (const placement of PLACEMENTS) {
      for (const { name, problem } of problemsOf(longRunTrajectoryText(sample, 120, placement))) {
        const { classes: _classes, sameAsPrevious: _runs, ...plain } = problem;
        const got = bestMatch({ ...problem, onProgress: () => {} });
        const anchor = bestMatch({ ...plain, onProgress: () => {} });
        const where = `${file} ${placement}, ${name}`;
        assert.ok(Math.abs(got.total - anchor.total) <= MATCH_TIE_EPSILON, `${where}: total ${got.total}, anchor ${anchor.total}`);
        assert.deepEqual(
          got.assignment.map((a) => a.index),
          anchor.assignment.map((a) => a.index),
          `${where}: mapping`,
        );
      }
    }
  }
});
