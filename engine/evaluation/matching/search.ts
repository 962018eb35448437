// The matcher's last resort: an exact depth-first search over one component's mappings with
// memory linear in its node count, for the components neither variable elimination nor the
// down-set sweep can hold in their memory bounds (many milestones reading each other over many
// distinct messages, after index compression, index-compression.ts). It never refuses: it answers
// exactly, however long that takes, and says so on the progress channel while it works.
//
// The search assigns the nodes in a topological order (every reference and gate node before the
// node that reads it), each over its window cut by its predecessors' indices, and prunes a branch
// when the total so far plus an upper bound of the rest cannot beat the best found. The bound of a
// node is its largest similarity over its window where it reads no other node, else 1 (every
// similarity is at most 1). Totals are summed in node order, like the other strategies'.
//
// Tie-break (ComponentSolver.choose): node v's candidate indices are tried in ascending order, the
// best total with v fixed there is searched, and the first reaching `need` is the answer.

import type { SimilarityLookup } from "./cache.js";
import type { IndexWindow } from "./dag.js";
import type { GateLookup } from "./gates.js";
import type { ComponentSolver, MatchComponent } from "./component.js";
import { topologicalOrder } from "./topological-order.js";

/** Where a slow search reports; one line at a time, no trailing newline. */
export type ProgressSink = (line: string) => void;

/** The first progress line comes after this long, then at most one per PROGRESS_EVERY_MS. */
const PROGRESS_AFTER_MS = 2000;
const PROGRESS_EVERY_MS = 5000;
/** Visited search nodes between two looks at the clock. */
const CLOCK_STRIDE = 1 << 14;

/**
 * The progress line of one component's match, for every method: nothing for the first
 * PROGRESS_AFTER_MS, then at most one line per PROGRESS_EVERY_MS, each saying how long so far.
 */
export class ProgressClock {
  private readonly started: number;
  private lastReport = 0;

  constructor(
    private readonly sink: ProgressSink,
    /** "matching 9 interdependent milestones exactly over 300 distinct messages by search". */
    private readonly what: string,
    /** Milliseconds; a test passes its own clock. */
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  tick(detail: () => string): void {
    const now = this.now();
    if (now - this.started < PROGRESS_AFTER_MS || now - this.lastReport < PROGRESS_EVERY_MS) return;
    this.lastReport = now;
    this.sink(`${this.what}: ${Math.round((now - this.started) / 1000)} s so far, ${detail()}`);
  }
}

/** What a component's progress lines say it is doing. */
export function progressTitle(nodeCount: number, span: number, method: string): string {
  return `matching ${nodeCount} interdependent milestones exactly over ${span} distinct messages by ${method}`;
}

export class SearchComponentSolver implements ComponentSolver {
  readonly strategy = "search";
  private readonly order: number[];
  private readonly predecessors: number[][];
  private readonly successors: number[][];
  private readonly indices: Int32Array;
  private readonly values: Float64Array;
  private readonly refBuffers: number[][];
  private readonly clock: ProgressClock;
  private visited = 0;
  private fixedCount = 0;
  // The search in progress.
  private bestTotal = -Infinity;
  private bounds: Float64Array = new Float64Array(0);
  private suffixBound: Float64Array = new Float64Array(0);
  private low: Int32Array = new Int32Array(0);
  private high: Int32Array = new Int32Array(0);

  constructor(
    private readonly component: MatchComponent,
    private readonly lookup: SimilarityLookup,
    private readonly gates: GateLookup,
    private readonly lo: number,
    private readonly hi: number,
    progress: ProgressSink,
  ) {
    const n = component.nodeCount;
    this.predecessors = Array.from({ length: n }, () => []);
    this.successors = Array.from({ length: n }, () => []);
    for (const [u, v] of component.orders) {
      this.predecessors[v]!.push(u);
      this.successors[u]!.push(v);
    }
    this.order = topologicalOrder(this.predecessors);
    this.indices = new Int32Array(n);
    this.values = new Float64Array(n);
    this.refBuffers = component.references.map((refs) => new Array<number>(refs.length).fill(0));
    this.clock = new ProgressClock(progress, progressTitle(n, hi - lo + 1, "search"));
  }

  best(): number {
    const full = Array.from({ length: this.component.nodeCount }, () => ({ min: this.lo, max: this.hi }));
    return this.search(full);
  }

  choose(v: number, windows: readonly IndexWindow[], need: number, _current?: number): { index: number; total: number } {
    const tight = this.tighten(windows);
    if (!tight) throw new Error(`bestMatch: internal error, no valid mapping left for node ${v}`);
    let earliestBest = { index: tight.low[v]!, total: -Infinity };
    for (let i = tight.low[v]!; i <= tight.high[v]!; i++) {
      const trial = windows.map((w, u) => (u === v ? { min: i, max: i } : w));
      const total = this.search(trial);
      if (total >= need) {
        this.fixedCount++;
        return { index: i, total };
      }
      if (total > earliestBest.total) earliestBest = { index: i, total };
    }
    if (earliestBest.total === -Infinity) throw new Error(`bestMatch: internal error, no valid mapping left for node ${v}`);
    this.fixedCount++;
    return earliestBest;
  }

  release(): void {
    // Nothing pooled: the search's arrays are one entry per node.
  }

  /** The best total of a valid mapping inside the windows (-Infinity when none). */
  private search(windows: readonly IndexWindow[]): number {
    const tight = this.tighten(windows);
    if (!tight) return -Infinity;
    this.low = tight.low;
    this.high = tight.high;
    this.bounds = this.nodeBounds();
    // suffixBound[d]: the bounds of the nodes at depth d and after.
    this.suffixBound = new Float64Array(this.order.length + 1);
    for (let d = this.order.length - 1; d >= 0; d--) this.suffixBound[d] = this.suffixBound[d + 1]! + this.bounds[this.order[d]!]!;
    this.bestTotal = -Infinity;
    this.descend(0, 0);
    return this.bestTotal;
  }

  private descend(depth: number, partial: number): void {
    if (++this.visited % CLOCK_STRIDE === 0) this.report();
    if (depth === this.order.length) {
      let total = 0;
      for (let u = 0; u < this.values.length; u++) total += this.values[u]!;
      if (total > this.bestTotal) this.bestTotal = total;
      return;
    }
    // Not even every remaining node at its bound beats the best found: nothing below can.
    if (partial + this.suffixBound[depth]! <= this.bestTotal - 1e-12) return;
    const v = this.order[depth]!;
    let from = this.low[v]!;
    for (const u of this.predecessors[v]!) from = Math.max(from, this.indices[u]!);
    for (let i = from; i <= this.high[v]!; i++) {
      this.indices[v] = i;
      const value = this.valueAt(v, i);
      this.values[v] = value;
      this.descend(depth + 1, partial + value);
    }
  }

  /** Node v's gated similarity at i, its references and gate nodes at their current indices. */
  private valueAt(v: number, i: number): number {
    for (const { ref, gate } of this.component.gates[v]!) {
      if (!this.gates.holds(gate, i, this.indices[ref]!)) return 0;
    }
    const refs = this.component.references[v]!;
    const buffer = this.refBuffers[v]!;
    for (let j = 0; j < refs.length; j++) buffer[j] = this.indices[refs[j]!]!;
    return this.lookup.get(v, i, buffer);
  }

  /** A node's largest value over its window where it reads no other node; 1 otherwise. */
  private nodeBounds(): Float64Array {
    const n = this.component.nodeCount;
    const bounds = new Float64Array(n).fill(1);
    for (let v = 0; v < n; v++) {
      if (this.component.references[v]!.length > 0 || this.component.gates[v]!.length > 0) continue;
      let top = 0;
      for (let i = this.low[v]!; i <= this.high[v]! && top < 1; i++) top = Math.max(top, this.lookup.get(v, i, []));
      bounds[v] = top;
    }
    return bounds;
  }

  /** Bounds consistency along the edges: min forward, max backward; null when a window empties. */
  private tighten(windows: readonly IndexWindow[]): { low: Int32Array; high: Int32Array } | null {
    const n = this.component.nodeCount;
    const low = new Int32Array(n);
    const high = new Int32Array(n);
    for (let v = 0; v < n; v++) {
      low[v] = Math.max(this.lo, windows[v]!.min);
      high[v] = Math.min(this.hi, windows[v]!.max);
    }
    for (const v of this.order) for (const u of this.predecessors[v]!) low[v] = Math.max(low[v]!, low[u]!);
    for (let d = this.order.length - 1; d >= 0; d--) {
      const u = this.order[d]!;
      for (const v of this.successors[u]!) high[u] = Math.min(high[u]!, high[v]!);
    }
    for (let v = 0; v < n; v++) if (low[v]! > high[v]!) return null;
    return { low, high };
  }

  private report(): void {
    const n = this.component.nodeCount;
    this.clock.tick(() => `${this.fixedCount} of ${n} placed, ${this.visited.toLocaleString("en-US")} partial mappings tried`);
  }
}
