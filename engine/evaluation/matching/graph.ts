// The static structure the milestone matcher sweeps over: the DAG validated, its down-sets (the
// sets of nodes that can be "already matched" at some point of the sweep), the moves between
// them, and for each down-set the matched nodes whose indices must still be remembered because
// an unmatched node references them.
//
// Node sets are bit masks, so a swept component may have at most MAX_SWEEP_NODES nodes; in
// practice the number of down-sets, not the node count, is what limits the sweep (see
// MAX_MATCH_MOVES). The matcher only sweeps components that variable elimination handles worse
// (matching-strategy.ts), typically narrow ones.

import { MatchCapacityError } from "./dag.js";
import { topologicalOrder } from "./topological-order.js";

/** Bit masks are 31-bit signed integers; 30 nodes keeps every mask positive. */
const MAX_SWEEP_NODES = 30;

/**
 * Upper bound on the number of (down-set, larger down-set) pairs. An antichain of 13 nodes has
 * 3^13 ≈ 1.6 million of them; past that one sweep is far too slow to be useful, so the sweep
 * refuses the component instead of hanging.
 */
export const MAX_MATCH_MOVES = 1 << 21;

/** Marks a reference or live node that is matched at the current step of the sweep. */
export const SAME_STEP = -1;

/** One step of the sweep: the nodes in `added` are matched at the current index. */
export interface SweepMove {
  /** Position of the resulting down-set in MatchGraph.downSets. */
  readonly target: number;
  readonly addedMask: number;
  /** Nodes matched by this move, ascending. */
  readonly added: readonly number[];
  /**
   * For each node of `added`, for each of its references (in MatchGraph.references order):
   * SAME_STEP, or the position of the referenced node in the source down-set's `live` list.
   */
  readonly referenceSources: readonly (readonly number[])[];
  /** For each node of the target's `live` list: SAME_STEP or its position in the source's list. */
  readonly liveSources: readonly number[];
}

/** A set of nodes closed under predecessors, i.e. a possible "matched so far" set. */
export interface DownSet {
  readonly mask: number;
  /** Matched nodes that some unmatched node references, ascending; their indices are the DP state. */
  readonly live: readonly number[];
  /** Every move to a down-set containing this one, the empty move (stay) included. */
  readonly moves: readonly SweepMove[];
}

export interface MatchGraph {
  readonly nodeCount: number;
  /** Each node's references, duplicates removed, in the order first given. */
  readonly references: readonly (readonly number[])[];
  /** Bit mask of each node's strict ancestors. */
  readonly ancestors: readonly number[];
  /** Bit mask of each node's strict descendants. */
  readonly descendants: readonly number[];
  /** All down-sets; position 0 is the empty set. */
  readonly downSets: readonly DownSet[];
  /** Position of the down-set holding every node. */
  readonly fullDownSet: number;
}

/**
 * Validates the DAG and the references and builds the sweep structure. Throws an Error naming
 * the problem for: out-of-range or non-integer node ids, a cycle (self-loops included), and a
 * reference to a node that is not a strict ancestor; throws a MatchCapacityError when the DAG
 * has more than MAX_SWEEP_NODES nodes or more than `maxMoves` sweep moves.
 */
export function buildMatchGraph(
  nodeCount: number,
  edges: readonly (readonly [number, number])[],
  references: readonly (readonly number[])[],
  maxMoves: number = MAX_MATCH_MOVES,
): MatchGraph {
  if (!Number.isInteger(nodeCount) || nodeCount < 0) {
    throw new Error(`bestMatch: nodeCount must be a non-negative integer, got ${String(nodeCount)}`);
  }
  if (nodeCount > MAX_SWEEP_NODES) {
    throw new MatchCapacityError(`bestMatch: the sweep handles at most ${MAX_SWEEP_NODES} connected nodes, got ${nodeCount}`);
  }
  const moveLimit = Math.min(maxMoves, MAX_MATCH_MOVES);
  const isNode = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0 && (x as number) < nodeCount;

  const predecessors: number[] = new Array<number>(nodeCount).fill(0);
  edges.forEach(([from, to], i) => {
    if (!isNode(from) || !isNode(to)) {
      throw new Error(`bestMatch: edge ${i} (${String(from)} -> ${String(to)}) names a node outside 0..${nodeCount - 1}`);
    }
    if (from === to) throw new Error(`bestMatch: edge ${i} is a self-loop on node ${from}, which is a cycle`);
    predecessors[to] = (predecessors[to] ?? 0) | (1 << from);
  });

  const order = topologicalOrder(predecessors.map((mask) => bitsOf(mask, nodeCount)));
  const ancestors: number[] = new Array<number>(nodeCount).fill(0);
  for (const v of order) {
    let mask = 0;
    for (let u = 0; u < nodeCount; u++) {
      if ((predecessors[v]! >> u) & 1) mask |= ancestors[u]! | (1 << u);
    }
    ancestors[v] = mask;
  }
  const descendants: number[] = new Array<number>(nodeCount).fill(0);
  for (let v = 0; v < nodeCount; v++) {
    for (let u = 0; u < nodeCount; u++) if ((ancestors[v]! >> u) & 1) descendants[u]! |= 1 << v;
  }

  const refs = validateReferences(nodeCount, references, ancestors);
  // referencedBy[u]: the nodes whose similarity reads u's index.
  const referencedBy: number[] = new Array<number>(nodeCount).fill(0);
  refs.forEach((list, v) => {
    for (const u of list) referencedBy[u]! |= 1 << v;
  });

  const masks = enumerateDownSets(predecessors, order, moveLimit);
  const position = new Map<number, number>(masks.map((m, i) => [m, i]));
  const liveOf = (mask: number): number[] => {
    const live: number[] = [];
    for (let u = 0; u < nodeCount; u++) if ((mask >> u) & 1 && referencedBy[u]! & ~mask) live.push(u);
    return live;
  };
  const lives = masks.map(liveOf);

  let moveCount = 0;
  const downSets: DownSet[] = masks.map((mask, i) => {
    const live = lives[i]!;
    const moves: SweepMove[] = [];
    for (const addedMask of extensions(mask, predecessors, order)) {
      if (++moveCount > moveLimit) {
        throw new MatchCapacityError(`bestMatch: the DAG has too many partial orders to sweep (over ${moveLimit} sweep moves)`);
      }
      const target = position.get(mask | addedMask)!;
      const added = bitsOf(addedMask, nodeCount);
      const sourceOf = (u: number): number => ((addedMask >> u) & 1 ? SAME_STEP : live.indexOf(u));
      moves.push({
        target,
        addedMask,
        added,
        referenceSources: added.map((v) => refs[v]!.map(sourceOf)),
        liveSources: lives[target]!.map(sourceOf),
      });
    }
    return { mask, live, moves };
  });

  const full = nodeCount === 0 ? 0 : position.get(2 ** nodeCount - 1)!;
  return { nodeCount, references: refs, ancestors, descendants, downSets, fullDownSet: full };
}

function validateReferences(nodeCount: number, references: readonly (readonly number[])[], ancestors: readonly number[]): number[][] {
  if (!Array.isArray(references) || references.length !== nodeCount) {
    throw new Error(
      `bestMatch: references must list one array per node (${nodeCount}), got ${Array.isArray(references) ? references.length : typeof references}`,
    );
  }
  return references.map((list, v) => {
    const unique: number[] = [];
    for (const u of list) {
      if (!Number.isInteger(u) || u < 0 || u >= nodeCount || !((ancestors[v]! >> u) & 1)) {
        throw new Error(`bestMatch: node ${v} references node ${String(u)}, which is not one of its ancestors in the DAG`);
      }
      if (!unique.includes(u)) unique.push(u);
    }
    return unique;
  });
}

/** All down-sets, sorted by size then mask so that every run walks them in the same order. */
function enumerateDownSets(predecessors: readonly number[], order: readonly number[], limit: number): number[] {
  const found = new Set<number>([0]);
  const queue = [0];
  for (let head = 0; head < queue.length; head++) {
    const mask = queue[head]!;
    for (const v of order) {
      if ((mask >> v) & 1 || predecessors[v]! & ~mask) continue;
      const next = mask | (1 << v);
      if (found.has(next)) continue;
      // Every down-set has at least one move (staying put), so this bounds the moves too.
      if (found.size >= limit) {
        throw new MatchCapacityError(`bestMatch: the DAG has too many partial orders to sweep (over ${limit} down-sets)`);
      }
      found.add(next);
      queue.push(next);
    }
  }
  return [...found].sort((a, b) => popCount(a) - popCount(b) || a - b);
}

/**
 * Every set S of unmatched nodes such that mask ∪ S is again a down-set (S = ∅ included):
 * walking the nodes in topological order, a node may join S only when all its predecessors are
 * already in mask ∪ S, which yields each such S exactly once.
 */
function extensions(mask: number, predecessors: readonly number[], order: readonly number[]): number[] {
  const free = order.filter((v) => !((mask >> v) & 1));
  const out: number[] = [];
  const walk = (i: number, chosen: number): void => {
    if (i === free.length) {
      out.push(chosen);
      return;
    }
    const v = free[i]!;
    walk(i + 1, chosen);
    if ((predecessors[v]! & ~(mask | chosen)) === 0) walk(i + 1, chosen | (1 << v));
  };
  walk(0, 0);
  return out.sort((a, b) => a - b);
}

function bitsOf(mask: number, nodeCount: number): number[] {
  const bits: number[] = [];
  for (let v = 0; v < nodeCount; v++) if ((mask >> v) & 1) bits.push(v);
  return bits;
}

function popCount(mask: number): number {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
}
