// One connected component of the matching problem, solved by the cheaper of two exact methods
// behind one interface the tie-break driver (matching.ts) uses.
//
// - Variable elimination (matching-elimination.ts): cost exponential only in the size of the
//   largest message, i.e. in the induced width of the interaction graph (edges + references),
//   not in the DAG's width. Chains, trees, stars, fans between a root and a sink: O(n · T²) per
//   pass or better. One pass per node gives that node's max-marginal.
// - The down-set sweep (matching-sweep.ts): cost exponential in the DAG's width (its number of
//   down-sets) and in how many referenced nodes must be remembered at once, but indifferent to
//   how many order constraints connect the nodes. It wins where elimination's messages would be
//   large and the DAG is narrow, e.g. a complete two-layer bipartite DAG (every top node before
//   every bottom node): there every message of elimination spans one whole layer, while the
//   sweep sees only 2^a + 2^b - 1 down-sets. It fixes a node with a binary search of threshold
//   sweeps, ceil(log2 T) of them.
// Gates (matching-gates.ts): elimination turns each into small pairwise factors through
// auxiliary variables; the sweep simply reads a gate's node like a reference (a gated sink
// after ten milestones makes it remember ten indices, so there elimination wins).
//
// Choice ("auto"): elimination when its estimate is small; otherwise the sweep is built with a
// move budget that makes it abort as soon as it cannot be cheaper than elimination (so trying
// costs a fraction of what it could save), and the cheaper estimate wins. Estimates count
// elementary table operations for all the passes a component needs: n elimination passes, or
// 2 + n·ceil(log2 T) sweeps. The elimination estimate plans with node 0 kept last, and prices
// the n passes at that size: later passes keep another node to the end, which can add it to
// some messages, but they also run with the earlier nodes fixed, which shrinks every table
// touching them (a pass still refuses a plan far past the memory bound rather than exhaust
// memory). Every method says how far it got on the progress channel once a match has run two
// seconds (matching-search.ts). When neither method fits its memory bound, the component goes to the exact search
// of matching-search.ts (memory linear in its nodes, time whatever it takes, with progress
// lines): the matcher never refuses. A pass of elimination that would still build a table past
// its bound hands that one choice to the search as well.
// T here is the number of runs after index compression (index-compression.ts), not of messages: a
// 10,000-message episode whose world changes a few times costs what a short one does.

import type { SimilarityLookup } from "./cache.js";
import type { IndexClasses } from "./classes.js";
import { MatchCapacityError, type IndexWindow } from "./dag.js";
import { EliminationSolver, MAX_ELIMINATION_TABLE, type Marginal } from "./elimination/index.js";
import { GatedLookup, mergedReferences, type GateLookup } from "./gates.js";
import { buildMatchGraph, MAX_MATCH_MOVES, type MatchGraph } from "./graph.js";
import type { ComponentSolver, MatchComponent } from "./component.js";
import { ProgressClock, progressTitle, SearchComponentSolver, type ProgressSink } from "./search.js";

export type { MatchComponent } from "./component.js";
import { MAX_SWEEP_STATES, MatchSweep, type SweepLayers } from "./sweep.js";

export type MatchStrategy = "auto" | "elimination" | "sweep" | "search";

/**
 * Below this many estimated operations (a few hundred milliseconds at worst; the estimate
 * counts every pass at full size, while passes after the first shrink as nodes get fixed)
 * elimination is used without building the sweep's structure to compare.
 */
const SMALL_WORK = 1 << 27;

export function componentSolver(
  component: MatchComponent,
  lookup: SimilarityLookup,
  gates: GateLookup,
  lo: number,
  hi: number,
  strategy: MatchStrategy,
  progress: ProgressSink,
  classes: IndexClasses | null = null,
): ComponentSolver {
  const span = hi - lo + 1;
  const search = (): SearchComponentSolver => new SearchComponentSolver(component, lookup, gates, lo, hi, progress);
  const clock = (method: string): ProgressClock => new ProgressClock(progress, progressTitle(component.nodeCount, span, method));
  if (strategy === "search") return search();
  const n = component.nodeCount;
  const elimination = new EliminationSolver(component, lookup, gates, lo, hi);
  const estimate = elimination.estimate();
  const eliminationFits = estimate.largestTable <= MAX_ELIMINATION_TABLE;
  const eliminationWork = estimate.work * n;
  const eliminationProblem = `elimination would build a table of ${estimate.largestTable} entries (limit ${MAX_ELIMINATION_TABLE})`;

  const sweeps = 2 + n * Math.ceil(Math.log2(span));
  const reads = component.references.some((refs) => refs.length > 0) || component.gates.some((list) => list.length > 0);
  if (strategy === "auto" && classes && reads) {
    // With index classes the sweep remembers a referenced message by its class and asks the
    // oracle once per class combination, while elimination tabulates every pair of indices, each
    // a similarity of its own: the sweep is taken whenever its table work is moderate.
    const sweep = classSweep(component, lookup, gates, lo, hi, classes, Math.max(eliminationWork, 4 * SMALL_WORK) / (span * sweeps));
    if (sweep && sweep.sweep.workPerSweep * sweeps <= Math.max(eliminationWork, 4 * SMALL_WORK)) {
      return new SweepComponentSolver(sweep.graph, sweep.sweep, lo, hi, clock("sweep"));
    }
  }
  if (strategy === "elimination" || (strategy === "auto" && eliminationFits && eliminationWork <= SMALL_WORK)) {
    if (!eliminationFits) throw new MatchCapacityError(`bestMatch: ${eliminationProblem}`);
    return new EliminationComponentSolver(elimination, n, lo, hi, search, clock("variable elimination"));
  }

  const moveBudget = strategy === "auto" && eliminationFits ? Math.floor(eliminationWork / (span * sweeps)) : MAX_MATCH_MOVES;
  try {
    const built = buildSweep(component, lookup, gates, lo, hi, classes, moveBudget);
    const { graph, sweep } = built;
    if (strategy === "sweep" || !eliminationFits || sweep.workPerSweep * sweeps < eliminationWork) {
      return new SweepComponentSolver(graph, sweep, lo, hi, clock("sweep"));
    }
    // The sweep would cost more than elimination.
  } catch (error) {
    // The sweep would need more states or moves than its bound.
    if (!(error instanceof MatchCapacityError) || strategy === "sweep") throw error;
  }
  if (eliminationFits) return new EliminationComponentSolver(elimination, n, lo, hi, search, clock("variable elimination"));
  // Neither table-based method fits its memory bound: the exact search, however long it takes.
  return search();
}

/**
 * The sweep over the component (a gate's node is read like a reference: its index, or class, is
 * part of the sweep's state). Throws a MatchCapacityError past the state or move bound.
 */
function buildSweep(
  component: MatchComponent,
  lookup: SimilarityLookup,
  gates: GateLookup,
  lo: number,
  hi: number,
  classes: IndexClasses | null,
  moveBudget: number,
): { graph: MatchGraph; sweep: MatchSweep } {
  const span = hi - lo + 1;
  const merged = mergedReferences(component.references, component.gates);
  // Just before a node is matched, all its references are matched and remembered: refuse
  // before building the down-sets when that alone is too many states (a gated sink).
  const radix = (u: number): number => (classes ? classes.referencedCount[u]! : span);
  const widest = Math.max(...merged.map((refs) => refs.reduce((product, u) => product * radix(u), 1)));
  if (widest > MAX_SWEEP_STATES) {
    throw new MatchCapacityError(
      `bestMatch: too many states to sweep (${widest} combinations of referenced milestones' messages must be remembered at once)`,
    );
  }
  const graph = buildMatchGraph(component.nodeCount, component.orders, merged, moveBudget);
  const gated = component.gates.some((list) => list.length > 0)
    ? new GatedLookup(lookup, gates, component.references, component.gates, merged)
    : lookup;
  return { graph, sweep: new MatchSweep(graph, lo, hi, gated, classes) };
}

/** buildSweep with classes, or null when it passes a bound. */
function classSweep(
  component: MatchComponent,
  lookup: SimilarityLookup,
  gates: GateLookup,
  lo: number,
  hi: number,
  classes: IndexClasses,
  moveBudget: number,
): { graph: MatchGraph; sweep: MatchSweep } | null {
  try {
    return buildSweep(component, lookup, gates, lo, hi, classes, Math.max(1, Math.floor(moveBudget)));
  } catch (error) {
    if (error instanceof MatchCapacityError) return null;
    throw error;
  }
}

class EliminationComponentSolver implements ComponentSolver {
  readonly strategy = "elimination";
  /** Node 0's marginal with every window full: best() computes it, choose(0, …) reuses it. */
  private first: Marginal | null | "too large" = null;

  constructor(
    private readonly solver: EliminationSolver,
    private readonly nodeCount: number,
    private readonly lo: number,
    private readonly hi: number,
    /** Makes the exact search that takes over a pass whose tables would pass the bound. */
    private readonly searchSolver: () => SearchComponentSolver,
    private readonly clock: ProgressClock,
  ) {}
  private fallback: SearchComponentSolver | null = null;

  best(): number {
    const full = Array.from({ length: this.nodeCount }, () => ({ min: this.lo, max: this.hi }));
    this.first = this.marginal(0, full);
    if (this.first === "too large") return (this.fallback ??= this.searchSolver()).best();
    return this.first ? this.first.values[earliestMaximum(this.first.values)]! : -Infinity;
  }

  choose(v: number, windows: readonly IndexWindow[], need: number, current: number): { index: number; total: number } {
    const marginal = v === 0 && this.first ? this.first : this.marginal(v, windows);
    this.clock.tick(() => `${v} of ${this.nodeCount} placed`);
    if (marginal === "too large") return (this.fallback ??= this.searchSolver()).choose(v, windows, need, current);
    if (!marginal) throw new Error(`bestMatch: internal error, no valid mapping left for node ${v}`);
    const { first, values } = marginal;
    let at = 0;
    while (at < values.length && !(values[at]! >= need)) at++;
    if (at === values.length) at = earliestMaximum(values);
    if (values[at] === -Infinity) throw new Error(`bestMatch: internal error, no valid mapping left for node ${v}`);
    return { index: first + at, total: values[at]! };
  }

  release(): void {
    this.solver.release();
  }

  /** A pass, or "too large" when its plan passes the memory bound (the search then answers). */
  private marginal(v: number, windows: readonly IndexWindow[]): Marginal | null | "too large" {
    try {
      return this.solver.marginal(v, windows);
    } catch (error) {
      if (error instanceof MatchCapacityError) return "too large";
      throw error;
    }
  }
}

function earliestMaximum(values: Float64Array): number {
  let at = 0;
  for (let k = 1; k < values.length; k++) if (values[k]! > values[at]!) at = k;
  return at;
}

class SweepComponentSolver implements ComponentSolver {
  readonly strategy = "sweep";

  constructor(
    private readonly graph: MatchGraph,
    private readonly sweep: MatchSweep,
    private readonly lo: number,
    private readonly hi: number,
    private readonly clock: ProgressClock,
  ) {}

  /** Node 0's layers with every window full, when they fit: best() computes them, choose(0, …) reuses them. */
  private first: SweepLayers | null = null;

  best(): number {
    const full = this.graph.references.map(() => ({ min: this.lo, max: this.hi }));
    this.first = this.sweep.layersWithin(full);
    return this.first ? this.first.total : this.sweep.best();
  }

  release(): void {
    // The sweep's tables are its own, sized per layer; the garbage collector takes them.
    this.first = null;
  }

  /**
   * With the layers stored (they fit MAX_STORED_STATES): v's max-marginal over its range in one
   * pass, and the smallest index reaching `need`. Otherwise a binary search: "best total with v
   * at most i" is non-decreasing in i, so the smallest i whose threshold sweep reaches `need` is
   * found in ceil(log2 T) sweeps; the mappings found then all have v at i. Without any
   * successful probe, i is the top of v's range and the set is the whole window set.
   */
  choose(v: number, windows: readonly IndexWindow[], need: number, current: number): { index: number; total: number } {
    let { low, high } = this.searchRange(windows, v);
    const layers = v === 0 && this.first ? this.first : this.sweep.layersWithin(windows);
    if (v === 0) this.first = null;
    if (layers) {
      const values = this.sweep.marginal(v, windows, layers);
      this.clock.tick(() => `${v} of ${this.graph.nodeCount} placed`);
      let best = low;
      for (let i = low; i <= high; i++) {
        const value = values[i - this.lo]!;
        if (value >= need) return { index: i, total: value };
        if (value > values[best - this.lo]!) best = i;
      }
      if (values[best - this.lo] === -Infinity) throw new Error(`bestMatch: internal error, no valid mapping left for node ${v}`);
      return { index: best, total: values[best - this.lo]! };
    }
    let total = current;
    while (low < high) {
      const mid = low + Math.floor((high - low) / 2);
      const trial = windows.map((w, u) => (u === v ? { min: w.min, max: mid } : w));
      const reached = this.sweep.bestReaching(trial, need);
      this.clock.tick(() => `${v} of ${this.graph.nodeCount} placed`);
      if (reached >= need) {
        high = mid;
        total = reached;
      } else {
        low = mid + 1;
      }
    }
    return { index: low, total };
  }

  /** Indices node v can take given the nodes already fixed (all nodes before v). */
  private searchRange(windows: readonly IndexWindow[], v: number): { low: number; high: number } {
    let low = this.lo;
    let high = this.hi;
    for (let u = 0; u < v; u++) {
      const fixed = windows[u]!.min;
      if ((this.graph.ancestors[v]! >> u) & 1) low = Math.max(low, fixed);
      if ((this.graph.descendants[v]! >> u) & 1) high = Math.min(high, fixed);
    }
    return { low, high };
  }
}
