// The literal oracle for long runs and the node lists' matching problems of a long run, shared by
// test/evaluation/long-run-oracle.test.ts and bench:eval's long-run rows (case e).
import { firstUserMessageIndex, listMatchProblem } from "../../engine/evaluation/evaluate.js";
import { MATCH_TIE_EPSILON, type MatchProblem } from "../../engine/evaluation/matching/index.js";
import { StateCache } from "../../engine/evaluation/node-scorer.js";
import { packTables } from "../../engine/packs/tables.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";

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
export function oracleMatch(p: MatchProblem, limit: number): Oracle | null {
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
export function problemsOf(text: string): { name: string; problem: MatchProblem }[] {
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
