// Index classes: what lets the down-set sweep (sweep.ts) remember a referenced milestone's
// message by a small class id instead of its index.
//
// The caller may say (MatchProblem.classes), per node and index, two class numbers:
// - matched(v, i): equal for i and i' when v's similarity and gates, with v at i or at i', are
//   the same whatever the other nodes' indices;
// - referenced(u, i): equal for i and i' when every node that reads u (through a reference or a
//   gate) scores the same with u at i or at i', all else fixed.
// The evaluator knows both cheaply (node-scorer.ts): a world table is read by its rows' content,
// a SANDBOX message by the columns a constraint's target names (for a reference read by
// tool_trace_extract, only its tool traces). A long loop of the same kinds of messages then has
// a handful of classes however many messages it has, although no two messages are alike.
//
// Exactness. The sweep's state after index t is (down-set A, the indices of A's live nodes).
// Replacing each live index by its referenced class loses nothing: every later gain reads a live
// node only through a reference or a gate, which by the definition above sees the class alone,
// and the edges from A to later nodes hold whatever A's indices were (they are all <= t). So
// states with equal classes have equal futures, and merging them (keeping the larger value)
// gives the same maxima and the same "does some mapping reach the threshold" answers, which is
// all the sweep computes; the tie-break's windows are on real indices, as before. A gain is
// memoised by (v, matched class at t, the classes of its references): equal keys have equal
// values by both definitions, so the memo returns exactly what the oracle would.

import type { MatchProblem } from "./problem.js";

/** Classes made dense (0..count-1) over lo..hi, per node. */
export interface IndexClasses {
  /** matched[v][i - lo]: v's own class at i; matchedCount[v] classes. */
  readonly matched: readonly Int32Array[];
  readonly matchedCount: readonly number[];
  /** referenced[u][i - lo]: u's class as read by others at i; referencedCount[u] classes. */
  readonly referenced: readonly Int32Array[];
  readonly referencedCount: readonly number[];
  /** representative[u][c]: the first index of u's referenced class c. */
  readonly representative: readonly Int32Array[];
}

/** The dense classes of the problem, or null when it gives none. */
export function indexClasses(p: MatchProblem): IndexClasses | null {
  const classes = p.classes;
  if (!classes) return null;
  const span = p.hi - p.lo + 1;
  const dense = (read: (node: number, index: number) => number, node: number): { ids: Int32Array; count: number; firsts: number[] } => {
    const ids = new Int32Array(span);
    const seen = new Map<number, number>();
    const firsts: number[] = [];
    for (let k = 0; k < span; k++) {
      const raw: unknown = read(node, p.lo + k);
      if (typeof raw !== "number" || !Number.isFinite(raw)) {
        throw new Error(`bestMatch: a class of node ${node} at index ${p.lo + k} is ${String(raw)}; expected a number`);
      }
      let id = seen.get(raw);
      if (id === undefined) {
        seen.set(raw, (id = seen.size));
        firsts.push(p.lo + k);
      }
      ids[k] = id;
    }
    return { ids, count: seen.size, firsts };
  };
  const matched = Array.from({ length: p.nodeCount }, (_, v) => dense((n, i) => classes.matched(n, i), v));
  const referenced = Array.from({ length: p.nodeCount }, (_, v) => dense((n, i) => classes.referenced(n, i), v));
  return {
    matched: matched.map((c) => c.ids),
    matchedCount: matched.map((c) => c.count),
    referenced: referenced.map((c) => c.ids),
    referencedCount: referenced.map((c) => c.count),
    representative: referenced.map((c) => Int32Array.from(c.firsts)),
  };
}

/** The classes of a component's nodes (local node v is nodes[v]). */
export function componentClasses(classes: IndexClasses, nodes: readonly number[]): IndexClasses {
  const pick = <T>(list: readonly T[]): T[] => nodes.map((v) => list[v]!);
  return {
    matched: pick(classes.matched),
    matchedCount: pick(classes.matchedCount),
    referenced: pick(classes.referenced),
    referencedCount: pick(classes.referencedCount),
    representative: pick(classes.representative),
  };
}
