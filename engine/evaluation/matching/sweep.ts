// Dynamic-programming sweeps over the candidate indices lo..hi: the maximum total similarity
// over all valid mappings, and whether mappings inside per-node index windows reach a threshold.
//
// State after processing index t: (A, r) where A is the down-set of nodes matched at indices
// <= t and r gives the indices of A's "live" nodes (those an unmatched node references). That
// is all the future depends on: an unmatched node gets an index > t, so every edge from A into
// it holds whatever the exact indices in A were; edges into A from outside cannot exist because
// A is closed under predecessors; and an unmatched node's similarity reads only its own index
// and those of its references, which are ancestors and hence in A (then live, so in r) or
// matched later. A step at index t picks any down-set A' ⊇ A and matches A' \ A at t (equal
// indices are allowed, so a parent and its child may share t); the empty step keeps A.
//
// Cost of one sweep, with T = hi - lo + 1, X = number of (down-set, containing down-set) pairs
// ((M + 1)(M + 2) / 2 for a chain of M nodes, 3^M for M unrelated nodes) and k = the largest
// live set: O(T · X · T^k · (M + R)) time, R = references per node, with one cache lookup per
// matched node per move; memory O(S) for the two working layers, S = Σ_A T^|live(A)| <= D · T^k
// over the D down-sets. Polynomial in T for a fixed DAG; k is 0 without references and 1 for
// the usual "compare with the previous milestone" chains. k is inherent to the problem, not to
// this method: a node referencing k others has a similarity table of T^(k+1) entries.
//
// best() also keeps every layer and runs one backward sweep over the reachable states, giving
// for each state the best completion B. reaches() then drops any state whose value plus B falls
// short of the threshold (B bounds every restricted completion too), so the sweeps that fix the
// tie-break visit little beyond the near-optimal paths. The backward sweep only evaluates moves
// the forward sweep already evaluated, so it asks the oracle nothing new. Keeping the layers
// costs O(T · S) memory; when that would exceed MAX_STORED_STATES, reaches() runs unpruned:
// same answers, slower.

import { type MatchGraph, type SweepMove, SAME_STEP } from "./graph.js";
import type { SimilarityLookup } from "./cache.js";
import type { IndexClasses } from "./classes.js";
import { MatchCapacityError, type IndexWindow } from "./dag.js";

export type { IndexWindow } from "./dag.js";

/** Cap on Σ_A T^|live(A)| (one layer); two working layers of this many doubles are 64 MiB. */
export const MAX_SWEEP_STATES = 1 << 22;

/** Cap on the doubles kept for pruning: T + 1 forward and T + 1 backward layers (64 MiB). */
const MAX_STORED_STATES = 1 << 23;

/**
 * Pruning keeps a state unless value + B < threshold - PRUNE_SLACK. Forward and backward sums
 * associate the same similarities differently; the slack covers that rounding (under 1e-13 for
 * 30 nodes) so pruning never drops a mapping that reaches the threshold.
 */
const PRUNE_SLACK = 1e-12;

/** Every layer of a forward and a backward sweep inside some windows, and the forward total. */
export interface SweepLayers {
  readonly forward: readonly Float64Array[];
  readonly backward: readonly Float64Array[];
  readonly total: number;
}

export class MatchSweep {
  private readonly span: number;
  private readonly hi: number;
  /** Where each down-set's block of states starts inside a layer, and its length. */
  private readonly offsets: number[];
  private readonly sizes: number[];
  /** Per down-set: how many values each of its live nodes takes in a state (classes or indices). */
  private readonly liveRadices: number[][];
  private readonly layerSize: number;
  private readonly everywhere: IndexWindow[];
  /** Reused buffers: the decoded live values (classes, or index - lo) of a state, and one node's reference indices. */
  private readonly liveValues: number[];
  private readonly referenceIndices: number[][];
  /** Per node: the values a live node takes (its referenced classes, or span without classes). */
  private readonly radix: number[];
  /** Per node: gains by (matched class, reference classes), with classes; null where the key would not fit a double. */
  private readonly memo: (Map<number, number> | null)[];
  /** bounds[j][slot]: best completion of a state after layer j (layer 0 = before lo); null if not stored. */
  private bounds: Float64Array[] | null = null;

  constructor(
    private readonly graph: MatchGraph,
    private readonly lo: number,
    hi: number,
    private readonly cache: SimilarityLookup,
    /** The problem's index classes (classes.ts), local to the component; null: every index distinct. */
    private readonly classes: IndexClasses | null = null,
    /** Keep layers for pruning when they fit MAX_STORED_STATES; false forces unpruned sweeps (tests). */
    private readonly prune = true,
  ) {
    this.hi = hi;
    this.span = hi - lo + 1;
    this.radix = graph.references.map((_, u) => (classes ? classes.referencedCount[u]! : this.span));
    this.offsets = [];
    this.sizes = [];
    this.liveRadices = [];
    let total = 0;
    let widest = 0;
    for (const downSet of graph.downSets) {
      const radices = downSet.live.map((u) => this.radix[u]!);
      const size = radices.reduce((a, b) => a * b, 1);
      this.offsets.push(total);
      this.sizes.push(size);
      this.liveRadices.push(radices);
      total += size;
      widest = Math.max(widest, downSet.live.length);
      if (total > MAX_SWEEP_STATES) {
        throw new MatchCapacityError(
          `bestMatch: too many states to sweep (${widest} referenced milestones must be remembered at once over ${this.span} indices)`,
        );
      }
    }
    this.layerSize = total;
    this.everywhere = graph.references.map(() => ({ min: lo, max: hi }));
    this.liveValues = new Array<number>(widest).fill(0);
    this.referenceIndices = graph.references.map((refs) => new Array<number>(refs.length).fill(0));
    this.memo = graph.references.map((refs, v) => {
      if (!classes) return null;
      const keys = refs.reduce((product, u) => product * this.radix[u]!, classes.matchedCount[v]!);
      return keys <= Number.MAX_SAFE_INTEGER ? new Map<number, number>() : null;
    });
  }

  /**
   * The best total over all valid mappings. Each mapping's total is summed in sweep order (by
   * index, then node id within an index), so a mapping always yields the same float here and
   * in reaches(), whatever the windows.
   */
  best(): number {
    const keep = this.prune && 2 * (this.span + 1) * this.layerSize <= MAX_STORED_STATES;
    const layers: Float64Array[] | null = keep ? [] : null;
    const value = this.forward(this.everywhere, layers, -Infinity);
    if (layers) this.bounds = this.backward(layers);
    return value;
  }

  /** Whether some valid mapping with every node v inside windows[v] has a total >= threshold. */
  reaches(windows: readonly IndexWindow[], threshold: number): boolean {
    return this.bestReaching(windows, threshold) >= threshold;
  }

  /**
   * The best total inside the windows when it is >= threshold (pruning never drops a state on
   * a mapping that reaches the threshold, so that maximum is exact); otherwise some value below
   * the threshold, -Infinity included.
   */
  bestReaching(windows: readonly IndexWindow[], threshold: number): number {
    return this.forward(windows, null, threshold);
  }

  /**
   * Every layer of the forward and the backward sweep inside the windows (unpruned), for
   * marginal(); null when they would not fit MAX_STORED_STATES.
   */
  layersWithin(windows: readonly IndexWindow[]): SweepLayers | null {
    if (2 * (this.span + 1) * this.layerSize > MAX_STORED_STATES) return null;
    const forward: Float64Array[] = [];
    const total = this.forward(windows, forward, -Infinity);
    return { forward, backward: this.backward(forward, windows), total };
  }

  /**
   * values[t - lo]: the best total inside the windows with node v matched at t (-Infinity where
   * none is valid): for each state before t and each move matching v at t, the forward value,
   * the move's gain and the backward completion. One pass, instead of a sweep per probe.
   */
  marginal(v: number, windows: readonly IndexWindow[], layers: SweepLayers): Float64Array {
    const { graph, lo, offsets, sizes } = this;
    const values = new Float64Array(this.span).fill(-Infinity);
    const bit = 1 << v;
    for (let t = Math.max(lo, windows[v]!.min); t <= Math.min(this.hi, windows[v]!.max); t++) {
      const { allowed, due } = this.masks(windows, t);
      const before = layers.forward[t - lo]!;
      const after = layers.backward[t - lo + 1]!;
      let top = -Infinity;
      for (let a = 0; a < graph.downSets.length; a++) {
        const downSet = graph.downSets[a]!;
        if (downSet.mask & bit) continue;
        const base = offsets[a]!;
        for (let state = 0; state < sizes[a]!; state++) {
          const value = before[base + state]!;
          if (value === -Infinity) continue;
          this.decode(state, a);
          for (const move of downSet.moves) {
            if (!(move.addedMask & bit) || move.addedMask & ~allowed || due & ~graph.downSets[move.target]!.mask) continue;
            const rest = after[this.targetSlot(move, t)]!;
            if (rest === -Infinity) continue;
            const candidate = value + this.gain(move, t) + rest;
            if (candidate > top) top = candidate;
          }
        }
      }
      values[t - lo] = top;
    }
    return values;
  }

  /** Nodes whose window contains t, and nodes past their window (states missing one are dead). */
  private masks(windows: readonly IndexWindow[], t: number): { allowed: number; due: number } {
    let allowed = 0;
    let due = 0;
    for (let v = 0; v < windows.length; v++) {
      const w = windows[v]!;
      if (w.min <= t && t <= w.max) allowed |= 1 << v;
      if (w.max <= t) due |= 1 << v;
    }
    return { allowed, due };
  }

  /** Moves one sweep evaluates at most, times T: the unit matching-strategy.ts compares costs in. */
  get workPerSweep(): number {
    let work = 0;
    this.graph.downSets.forEach((downSet, a) => {
      work += this.sizes[a]! * downSet.moves.length;
    });
    return work * this.span;
  }

  /**
   * The forward sweep: the best total inside the windows, except that states which cannot reach
   * `threshold` (by the stored bounds) are dropped, so a result below the threshold is only a
   * "no". Stores every layer into `layers` when given.
   */
  private forward(windows: readonly IndexWindow[], layers: Float64Array[] | null, threshold: number): number {
    const { graph, lo, offsets, sizes } = this;
    const bounds = threshold === -Infinity ? null : this.bounds;
    const floor = threshold - PRUNE_SLACK;
    let current = new Float64Array(this.layerSize).fill(-Infinity);
    current[offsets[0]!] = 0;
    layers?.push(current);
    let next = new Float64Array(this.layerSize);

    for (let t = lo; t <= this.hi; t++) {
      let allowed = 0; // nodes whose window contains t
      let due = 0; // nodes past their window: states still missing one are dead (pruning only)
      windows.forEach((w, v) => {
        if (w.min <= t && t <= w.max) allowed |= 1 << v;
        if (w.max <= t) due |= 1 << v;
      });
      const bound = bounds?.[t - lo];
      if (layers) next = new Float64Array(this.layerSize);
      next.fill(-Infinity);

      graph.downSets.forEach((downSet, a) => {
        const base = offsets[a]!;
        for (let state = 0; state < sizes[a]!; state++) {
          const value = current[base + state]!;
          if (value === -Infinity || (bound && value + bound[base + state]! < floor)) continue;
          this.decode(state, a);
          for (const move of downSet.moves) {
            if (move.addedMask & ~allowed || due & ~graph.downSets[move.target]!.mask) continue;
            const slot = this.targetSlot(move, t);
            const candidate = value + this.gain(move, t);
            if (candidate > next[slot]!) next[slot] = candidate;
          }
        }
      });
      layers?.push(next);
      [current, next] = [next, current];
    }
    return current[offsets[graph.fullDownSet]!]!;
  }

  /**
   * bounds[j]: for each state reachable after layer j, the best total the steps after it can
   * add to reach the full down-set at hi (-Infinity when none can).
   */
  private backward(forward: readonly Float64Array[], windows: readonly IndexWindow[] | null = null): Float64Array[] {
    const { graph, lo, span, offsets, sizes } = this;
    const bounds: Float64Array[] = new Array<Float64Array>(span + 1);
    const last = new Float64Array(this.layerSize).fill(-Infinity);
    last[offsets[graph.fullDownSet]!] = 0;
    bounds[span] = last;
    for (let j = span; j >= 1; j--) {
      const t = lo + j - 1; // the step from layer j - 1 to layer j matches nodes at index t
      const after = bounds[j]!;
      const reached = forward[j - 1]!;
      const before = new Float64Array(this.layerSize).fill(-Infinity);
      const { allowed, due } = windows ? this.masks(windows, t) : { allowed: -1, due: 0 };
      graph.downSets.forEach((downSet, a) => {
        const base = offsets[a]!;
        for (let state = 0; state < sizes[a]!; state++) {
          if (reached[base + state] === -Infinity) continue;
          this.decode(state, a);
          let top = -Infinity;
          for (const move of downSet.moves) {
            if (move.addedMask & ~allowed || due & ~graph.downSets[move.target]!.mask) continue;
            const rest = after[this.targetSlot(move, t)]!;
            if (rest === -Infinity) continue; // checked first: no oracle call for a dead end
            top = Math.max(top, this.gain(move, t) + rest);
          }
          before[base + state] = top;
        }
      });
      bounds[j - 1] = before;
    }
    return bounds;
  }

  /** Loads the live values encoded in `state` (mixed radix, first live node least significant). */
  private decode(state: number, downSet: number): void {
    const radices = this.liveRadices[downSet]!;
    for (let j = 0, rest = state; j < radices.length; j++) {
      const r = radices[j]!;
      this.liveValues[j] = rest % r;
      rest = Math.floor(rest / r);
    }
  }

  /** The value node u takes in a state when it is matched at t: its referenced class, or t - lo. */
  private valueAt(u: number, t: number): number {
    return this.classes ? this.classes.referenced[u]![t - this.lo]! : t - this.lo;
  }

  /** An index of node u with live value `value` (the first index of its class). */
  private indexOf(u: number, value: number): number {
    return this.classes ? this.classes.representative[u]![value]! : this.lo + value;
  }

  /** Slot in the next layer reached by `move` at index t from the decoded state. */
  private targetSlot(move: SweepMove, t: number): number {
    const live = this.graph.downSets[move.target]!.live;
    const radices = this.liveRadices[move.target]!;
    let state = 0;
    for (let j = move.liveSources.length - 1; j >= 0; j--) {
      const source = move.liveSources[j]!;
      state = state * radices[j]! + (source === SAME_STEP ? this.valueAt(live[j]!, t) : this.liveValues[source]!);
    }
    return this.offsets[move.target]! + state;
  }

  /** Sum of the similarities of the nodes `move` matches at t, added in node order. */
  private gain(move: SweepMove, t: number): number {
    let gain = 0;
    for (let i = 0; i < move.added.length; i++) {
      const v = move.added[i]!;
      const sources = move.referenceSources[i]!;
      const refs = this.graph.references[v]!;
      const memo = this.memo[v] ?? null;
      let key = memo ? this.classes!.matched[v]![t - this.lo]! : 0;
      const indices = this.referenceIndices[v]!;
      for (let j = 0; j < sources.length; j++) {
        const source = sources[j]!;
        const u = refs[j]!;
        const value = source === SAME_STEP ? this.valueAt(u, t) : this.liveValues[source]!;
        if (memo) key = key * this.radix[u]! + value;
        indices[j] = source === SAME_STEP ? t : this.indexOf(u, value);
      }
      let similarity = memo?.get(key);
      if (similarity === undefined) {
        similarity = this.cache.get(v, t, indices);
        memo?.set(key, similarity);
      }
      gain += similarity;
    }
    return gain;
  }
}
