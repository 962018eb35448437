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

export class MatchSweep {
  private readonly span: number;
  private readonly hi: number;
  /** Where each down-set's block of states starts inside a layer, and its length. */
  private readonly offsets: number[];
  private readonly sizes: number[];
  private readonly layerSize: number;
  private readonly everywhere: IndexWindow[];
  /** Reused buffers: the decoded live indices of a state, and one node's reference indices. */
  private readonly liveIndices: number[];
  private readonly referenceIndices: number[][];
  /** bounds[j][slot]: best completion of a state after layer j (layer 0 = before lo); null if not stored. */
  private bounds: Float64Array[] | null = null;

  constructor(
    private readonly graph: MatchGraph,
    private readonly lo: number,
    hi: number,
    private readonly cache: SimilarityLookup,
    /** Keep layers for pruning when they fit MAX_STORED_STATES; false forces unpruned sweeps (tests). */
    private readonly prune = true,
  ) {
    this.hi = hi;
    this.span = hi - lo + 1;
    this.offsets = [];
    this.sizes = [];
    let total = 0;
    let widest = 0;
    for (const downSet of graph.downSets) {
      const size = this.span ** downSet.live.length;
      this.offsets.push(total);
      this.sizes.push(size);
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
    this.liveIndices = new Array<number>(widest).fill(0);
    this.referenceIndices = graph.references.map((refs) => new Array<number>(refs.length).fill(0));
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
          this.decode(state, downSet.live.length);
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
  private backward(forward: readonly Float64Array[]): Float64Array[] {
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
      graph.downSets.forEach((downSet, a) => {
        const base = offsets[a]!;
        for (let state = 0; state < sizes[a]!; state++) {
          if (reached[base + state] === -Infinity) continue;
          this.decode(state, downSet.live.length);
          let top = -Infinity;
          for (const move of downSet.moves) {
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

  /** Loads the live indices encoded in `state` (base span, first live node least significant). */
  private decode(state: number, liveCount: number): void {
    for (let j = 0, rest = state; j < liveCount; j++, rest = Math.floor(rest / this.span)) {
      this.liveIndices[j] = this.lo + (rest % this.span);
    }
  }

  /** Slot in the next layer reached by `move` at index t from the decoded state. */
  private targetSlot(move: SweepMove, t: number): number {
    let state = 0;
    for (let j = move.liveSources.length - 1; j >= 0; j--) {
      const source = move.liveSources[j]!;
      state = state * this.span + (source === SAME_STEP ? t : this.liveIndices[source]!) - this.lo;
    }
    return this.offsets[move.target]! + state;
  }

  /** Sum of the similarities of the nodes `move` matches at t, added in node order. */
  private gain(move: SweepMove, t: number): number {
    let gain = 0;
    for (let i = 0; i < move.added.length; i++) {
      const v = move.added[i]!;
      const sources = move.referenceSources[i]!;
      const indices = this.referenceIndices[v]!;
      for (let j = 0; j < sources.length; j++) {
        const source = sources[j]!;
        indices[j] = source === SAME_STEP ? t : this.liveIndices[source]!;
      }
      gain += this.cache.get(v, t, indices);
    }
    return gain;
  }
}
