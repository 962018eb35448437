// The structure every matching strategy starts from: the milestone DAG validated, its
// reachability, its transitive reduction and its weakly connected components.
//
// Why the reduction: the constraints index(u) <= index(v) of a DAG hold as soon as they hold on
// the edges of its transitive reduction (the rest follow by transitivity), and the fewer pairs
// the strategies have to carry, the narrower their interaction graph.
//
// Why components: two nodes interact only through an edge or a reference, and a reference
// always points at an ancestor, i.e. inside the same weakly connected component of the DAG.
// The total is a sum over components of functions of disjoint variables under disjoint
// constraints, so the best total is the sum of per-component bests and each component can be
// solved on its own (matching.ts explains how the tie-break is kept across them).

/**
 * Largest problem accepted by default. Realistic scenarios have fewer than 10; the bound keeps the
 * O(n³) bookkeeping trivial. It is the documented milestone limit (engine/base/limits.ts), which
 * TOOLSANDBOX_MAX_MILESTONES raises for the checker and the evaluation alike.
 */
export const MAX_MATCH_NODES = LIMITS.milestones.defaultValue;

/** One index range per node, inclusive, used to restrict or fix nodes while breaking ties. */
import { LIMITS, limitValue } from "../../base/limits.js";
import { topologicalOrder } from "./topological-order.js";

export interface IndexWindow {
  readonly min: number;
  readonly max: number;
}

/**
 * Thrown inside the matcher when a method would need more memory than it allows itself; the
 * strategy choice catches it and takes another method (the exact search last), so bestMatch in
 * "auto" never throws it. Only a method forced by a test or bench can surface it.
 */
export class MatchCapacityError extends Error {
  override readonly name = "MatchCapacityError";
}

export interface MatchDag {
  readonly nodeCount: number;
  /** Each node's references, duplicates removed, in the order first given. */
  readonly references: readonly (readonly number[])[];
  /** The edges of the transitive reduction, each once, sorted. */
  readonly reducedEdges: readonly (readonly [number, number])[];
  /** Weakly connected components, each ascending, ordered by their smallest node. */
  readonly components: readonly (readonly number[])[];
  /** Whether u is a strict ancestor of v. */
  isAncestor(u: number, v: number): boolean;
}

/**
 * Validates the problem's DAG and references. Throws an Error naming the fault for: a bad node
 * count, out-of-range or non-integer node ids, a cycle (self-loops included), and a reference
 * to a node that is not a strict ancestor.
 */
export function analyseMatchDag(
  nodeCount: number,
  edges: readonly (readonly [number, number])[],
  references: readonly (readonly number[])[],
): MatchDag {
  if (!Number.isInteger(nodeCount) || nodeCount < 0) {
    throw new Error(`bestMatch: nodeCount must be a non-negative integer, got ${String(nodeCount)}`);
  }
  if (nodeCount > limitValue("milestones")) {
    throw new Error(`bestMatch: at most ${limitValue("milestones")} nodes are supported, got ${nodeCount}`);
  }
  const n = nodeCount;
  const isNode = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0 && (x as number) < n;

  // direct[u * n + v] = 1 for an edge u -> v (duplicates collapse).
  const direct = new Uint8Array(n * n);
  edges.forEach(([from, to], i) => {
    if (!isNode(from) || !isNode(to)) {
      throw new Error(`bestMatch: edge ${i} (${String(from)} -> ${String(to)}) names a node outside 0..${n - 1}`);
    }
    if (from === to) throw new Error(`bestMatch: edge ${i} is a self-loop on node ${from}, which is a cycle`);
    direct[from * n + to] = 1;
  });

  const predecessors = Array.from({ length: n }, (_, v) => [...Array(n).keys()].filter((u) => direct[u * n + v] === 1));
  const order = topologicalOrder(predecessors);
  const ancestor = new Uint8Array(n * n);
  for (const v of order) {
    for (let u = 0; u < n; u++) {
      if (!direct[u * n + v]) continue;
      ancestor[u * n + v] = 1;
      for (let a = 0; a < n; a++) if (ancestor[a * n + u]) ancestor[a * n + v] = 1;
    }
  }
  const isAncestor = (u: number, v: number): boolean => ancestor[u * n + v] === 1;

  const refs = validateReferences(n, references, isAncestor);

  // u -> v is implied by the others exactly when another predecessor w of v descends from u.
  const reducedEdges: [number, number][] = [];
  for (let u = 0; u < n; u++) {
    for (let v = 0; v < n; v++) {
      if (!direct[u * n + v]) continue;
      let implied = false;
      for (let w = 0; w < n && !implied; w++) implied = w !== u && direct[w * n + v] === 1 && isAncestor(u, w);
      if (!implied) reducedEdges.push([u, v]);
    }
  }

  return { nodeCount: n, references: refs, reducedEdges, components: weakComponents(n, reducedEdges), isAncestor };
}

function validateReferences(
  n: number,
  references: readonly (readonly number[])[],
  isAncestor: (u: number, v: number) => boolean,
): number[][] {
  if (!Array.isArray(references) || references.length !== n) {
    throw new Error(
      `bestMatch: references must list one array per node (${n}), got ${Array.isArray(references) ? references.length : typeof references}`,
    );
  }
  return references.map((list, v) => {
    if (!Array.isArray(list)) throw new Error(`bestMatch: references[${v}] must be an array of node ids`);
    const unique: number[] = [];
    for (const u of list as readonly unknown[]) {
      if (typeof u !== "number" || !Number.isInteger(u) || u < 0 || u >= n || !isAncestor(u, v)) {
        throw new Error(`bestMatch: node ${v} references node ${String(u)}, which is not one of its ancestors in the DAG`);
      }
      if (!unique.includes(u)) unique.push(u);
    }
    return unique;
  });
}

function weakComponents(n: number, edges: readonly (readonly [number, number])[]): number[][] {
  const parent = Array.from({ length: n }, (_, i) => i);
  const root = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]!]!;
    return x;
  };
  for (const [u, v] of edges) {
    const a = root(u);
    const b = root(v);
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  }
  const byRoot = new Map<number, number[]>();
  for (let v = 0; v < n; v++) {
    const r = root(v);
    const list = byRoot.get(r);
    if (list) list.push(v);
    else byRoot.set(r, [v]);
  }
  // Map insertion order is by first (smallest) member, since v runs upwards.
  return [...byRoot.values()];
}
