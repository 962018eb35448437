// Exact max-marginals of one connected component by variable elimination (bucket elimination
// for max-sum), with order constraints handled as prefix/suffix/range maxima.
//
// Variables are the component's nodes; node v's index ranges over its window. Factors:
//   - one per node v over [...references of v, v]: v's similarity, -Infinity where the indices
//     break the ancestor order among those nodes (the oracle is never asked there);
//   - the messages elimination creates.
// Order constraints: the transitive reduction of the component's edges.
//
// A pass computes, for a chosen target node t and the current windows, marginal(i) = the best
// total of a valid mapping inside the windows with t at index i: every other variable is
// eliminated in a greedy order (matching-elimination-plan.ts explains a step and its cost) and
// the factors left, all over t alone, are added up. Exactness: eliminating x replaces the
// factors and constraints mentioning x by their maximum over x, which is the textbook
// max-sum identity max_x Σ f = Σ_{f without x} f + max_x Σ_{f with x} f; the prefix, suffix and
// range maxima compute exactly that maximum for constraints x >= l, x <= u.
//
// Windows first get bounds consistency along the edges (min forward, max backward in
// topological order): indices outside the tightened windows are in no valid mapping, so
// dropping them loses nothing, and a node fixed by the tie-break shrinks its neighbours'
// tables to a single row.
//
// Cost. A step costs about T^(|shared| + 1) × (factors involved) + T^|message scope|, so a pass
// is exponential only in the scopes the greedy order meets, i.e. in the induced width of the
// interaction graph, and linear in n:
//   - order edges forming a forest, no references: O(T) per step, O(n·T) per pass;
//   - one reference per node along tree edges (chains, stars), or a root-and-sink fan whose
//     children reference the root: O(T²) per step, O(n·T²) per pass;
//   - filling the node tables: one lookup per (node, index, reference indices) in order, the
//     oracle's own T^(refs + 1) per node, asked in the first pass and cached after.
// The tie-break runs one pass per node, so a component costs at most n passes; after the first
// they shrink, since every fixed node narrows its neighbours' windows to what stays valid.

import { type SimilarityLookup } from "./matching-cache.js";
import { MatchCapacityError, type IndexWindow } from "./matching-dag.js";
import { messageScope, planElimination, stepShape, type StepShape } from "./matching-elimination-plan.js";

/** Largest elimination table the strategy choice accepts (doubles): 32 MiB, like one sweep layer. */
export const MAX_ELIMINATION_TABLE = 1 << 22;

/**
 * The choice plans with node 0 kept to the end; keeping another node can add one variable to
 * a message. Passes refuse plans past this multiple of the limit rather than exhaust memory.
 */
const PASS_TABLE_SLACK = 4;

/** A table over its variables' windows, row-major (last variable fastest). */
interface Factor {
  readonly vars: readonly number[];
  readonly table: Float64Array;
}

/** A component renumbered 0..n-1 (ascending problem ids), as the elimination reads it. */
export interface EliminationComponent {
  readonly nodeCount: number;
  readonly references: readonly (readonly number[])[];
  /** Transitive reduction of the component's edges. */
  readonly orders: readonly (readonly [number, number])[];
  isAncestor(u: number, v: number): boolean;
}

export interface Marginal {
  /** The target's first candidate index after tightening; values[k] is for index first + k. */
  readonly first: number;
  readonly values: Float64Array;
}

export class EliminationSolver {
  private readonly topological: number[];
  private readonly predecessors: number[][];
  private readonly successors: number[][];
  /** Per node: its factor's variables [...references, v] and the (earlier, later) position pairs. */
  private readonly scopes: (readonly number[])[];
  private readonly scopeOrders: (readonly [number, number])[][];

  /**
   * Per node: its table over the full range lo..hi of every variable, made by the first pass
   * (which has every window full) and sliced by the later ones: a row copy per combination of
   * reference indices instead of a lookup per entry.
   */
  private readonly fullTables: (Float64Array | null)[];
  private readonly span: number;

  constructor(
    private readonly component: EliminationComponent,
    private readonly lookup: SimilarityLookup,
    private readonly lo: number,
    hi: number,
  ) {
    this.span = hi - lo + 1;
    this.fullTables = new Array<Float64Array | null>(component.nodeCount).fill(null);
    const n = component.nodeCount;
    this.predecessors = Array.from({ length: n }, () => []);
    this.successors = Array.from({ length: n }, () => []);
    for (const [u, v] of component.orders) {
      this.predecessors[v]!.push(u);
      this.successors[u]!.push(v);
    }
    this.topological = topologicalOrder(this.predecessors, this.successors);
    // The node last: it is usually eliminated before its references (ancestors, often hubs),
    // and the eliminated variable fastest keeps the inner loop of a step contiguous.
    this.scopes = component.references.map((refs, v) => [...refs, v]);
    this.scopeOrders = this.scopes.map((vars) => {
      const pairs: [number, number][] = [];
      vars.forEach((a, p) => vars.forEach((b, q) => void (component.isAncestor(a, b) && pairs.push([p, q]))));
      return pairs;
    });
  }

  /** Operations and largest table of a pass with every window full, for the strategy choice. */
  estimate(): { work: number; largestTable: number } {
    const widths = new Array<number>(this.component.nodeCount).fill(this.span);
    return planElimination(widths, this.scopes, this.component.orders, 0);
  }

  /** marginal(i) for the target over the windows; null when no valid mapping fits the windows. */
  marginal(target: number, windows: readonly IndexWindow[]): Marginal | null {
    const tight = this.tighten(windows);
    if (!tight) return null;
    const { min, width } = tight;
    let factors: Factor[] = this.scopes.map((vars, v) => ({ vars, table: this.nodeTable(v, vars, min, width) }));
    let orders: readonly (readonly [number, number])[] = this.component.orders;
    const plan = planElimination(width, this.scopes, orders, target);
    if (plan.largestTable > PASS_TABLE_SLACK * MAX_ELIMINATION_TABLE) {
      throw new MatchCapacityError(`bestMatch: elimination would build a table of ${plan.largestTable} entries for node ${target}`);
    }
    for (const x of plan.order) {
      const shape = stepShape(x, factors.map((f) => f.vars), orders);
      const message: Factor = { vars: messageScope(shape), table: eliminate(x, shape, factors, min, width) };
      factors = factors.filter((_, i) => !shape.involved.includes(i));
      factors.push(message);
      orders = shape.keptOrders;
    }
    const values = new Float64Array(width[target]!);
    for (const f of factors) {
      if (f.vars.length === 0) for (let k = 0; k < values.length; k++) values[k]! += f.table[0]!;
      else for (let k = 0; k < values.length; k++) values[k]! += f.table[k]!;
    }
    return { first: min[target]!, values };
  }

  /** Bounds consistency along the edges; null if some window becomes empty. */
  private tighten(windows: readonly IndexWindow[]): { min: number[]; width: number[] } | null {
    const min = windows.map((w) => w.min);
    const max = windows.map((w) => w.max);
    for (const v of this.topological) for (const u of this.predecessors[v]!) min[v] = Math.max(min[v]!, min[u]!);
    for (let k = this.topological.length - 1; k >= 0; k--) {
      const v = this.topological[k]!;
      for (const w of this.successors[v]!) max[v] = Math.min(max[v]!, max[w]!);
    }
    const width = min.map((m, v) => max[v]! - m + 1);
    return width.every((w) => w > 0) ? { min, width } : null;
  }

  /** Node v's table over the windows: the full table itself, or a slice of it. */
  private nodeTable(v: number, vars: readonly number[], min: readonly number[], width: readonly number[]): Float64Array {
    const { lo, span } = this;
    let full = this.fullTables[v];
    if (!full) {
      const fullMin = new Array<number>(min.length).fill(lo);
      const fullWidth = new Array<number>(width.length).fill(span);
      full = this.fullTables[v] = this.lookupTable(v, vars, fullMin, fullWidth);
    }
    if (vars.every((u) => min[u] === lo && width[u] === span)) return full; // tables are never written to
    const refCount = vars.length - 1;
    const columns = width[v]!;
    const rows = vars.slice(0, refCount).reduce((p, u) => p * width[u]!, 1);
    const table = new Float64Array(rows * columns);
    const digits = new Array<number>(refCount).fill(0);
    for (let row = 0; row < rows; row++) {
      let fullRow = 0;
      for (let j = 0; j < refCount; j++) fullRow = fullRow * span + min[vars[j]!]! - lo + digits[j]!;
      const start = fullRow * span + min[v]! - lo;
      table.set(full.subarray(start, start + columns), row * columns);
      for (let j = refCount - 1; j >= 0; j--) {
        if (++digits[j]! < width[vars[j]!]!) break;
        digits[j] = 0;
      }
    }
    return table;
  }

  /**
   * Node v's similarity over the windows of [...refs, v], a row of v's indices per combination
   * of reference indices; -Infinity (and no lookup) where the indices break the ancestor order.
   */
  private lookupTable(v: number, vars: readonly number[], min: readonly number[], width: readonly number[]): Float64Array {
    const refCount = vars.length - 1;
    const columns = width[v]!;
    const rows = vars.slice(0, refCount).reduce((p, u) => p * width[u]!, 1);
    const table = new Float64Array(rows * columns).fill(-Infinity);
    const refIndices = vars.slice(0, refCount).map((u) => min[u]!);
    const pairs = this.scopeOrders[v]!.filter(([, q]) => q < refCount); // v is after every reference
    for (let row = 0; row < rows; row++) {
      if (pairs.every(([p, q]) => refIndices[p]! <= refIndices[q]!)) {
        const start = Math.max(0, Math.max(min[v]!, ...refIndices) - min[v]!);
        if (start < columns) this.lookup.fill(v, refIndices, min[v]! + start, columns - start, table, row * columns + start);
      }
      for (let j = refCount - 1; j >= 0; j--) {
        const u = vars[j]!;
        if (++refIndices[j]! < min[u]! + width[u]!) break;
        refIndices[j] = min[u]!;
      }
    }
    return table;
  }
}

/** Row-major strides of a table over `vars`. */
function stridesOf(vars: readonly number[], width: readonly number[]): number[] {
  const strides = new Array<number>(vars.length);
  let stride = 1;
  for (let j = vars.length - 1; j >= 0; j--) {
    strides[j] = stride;
    stride *= width[vars[j]!]!;
  }
  return strides;
}

/** The message of eliminating x: a table over messageScope(shape). */
function eliminate(x: number, shape: StepShape, factors: readonly Factor[], min: readonly number[], width: readonly number[]): Float64Array {
  const { shared, lowerIn, upperIn, lowerOut, upperOut } = shape;
  const involved = shape.involved.map((i) => factors[i]!);
  const span = width[x]!;
  const xMin = min[x]!;
  const sharedDims = shared.map((v) => width[v]!);
  const sharedSize = sharedDims.reduce((p, d) => p * d, 1);
  const bounds = [...lowerOut, ...upperOut];
  const boundDims = bounds.map((v) => width[v]!);
  const blockSize = boundDims.reduce((p, d) => p * d, 1);
  const out = new Float64Array(sharedSize * blockSize);

  // Per involved factor: its stride along each shared variable (0 if absent) and along x.
  const sharedStrides = involved.map((f) => {
    const strides = stridesOf(f.vars, width);
    return shared.map((v) => (f.vars.includes(v) ? strides[f.vars.indexOf(v)]! : 0));
  });
  const xStrides = involved.map((f) => stridesOf(f.vars, width)[f.vars.indexOf(x)]!);
  const offsets = new Array<number>(involved.length).fill(0);
  const digits = new Array<number>(shared.length).fill(0);
  const h = new Float64Array(span);
  const range = new RangeMax(span, lowerOut.length > 0, upperOut.length > 0);

  for (let s = 0; s < sharedSize; s++) {
    // x's range given the shared variables it is ordered with, relative to xMin.
    let a = 0;
    let b = span - 1;
    for (const p of lowerIn) a = Math.max(a, min[shared[p]!]! + digits[p]! - xMin);
    for (const p of upperIn) b = Math.min(b, min[shared[p]!]! + digits[p]! - xMin);
    accumulate(h, a, b, involved, offsets, xStrides);
    const base = s * blockSize;
    if (bounds.length === 0) {
      let top = -Infinity;
      for (let i = a; i <= b; i++) if (h[i]! > top) top = h[i]!;
      out[base] = top;
    } else if (bounds.length === 1) {
      // One variable bounds x through an order constraint only (a parent or a child): the usual case.
      range.load(h);
      range.writeOneSided(out, base, blockSize, min[bounds[0]!]! - xMin);
    } else {
      range.load(h);
      for (let block = 0; block < blockSize; block++) {
        // Decode the bound variables (last fastest); x must lie in [max(lower), min(upper)].
        let low = 0;
        let high = span - 1;
        for (let j = bounds.length - 1, rest = block; j >= 0; j--) {
          const index = min[bounds[j]!]! + (rest % boundDims[j]!) - xMin;
          rest = Math.floor(rest / boundDims[j]!);
          if (j < lowerOut.length) low = Math.max(low, index);
          else high = Math.min(high, index);
        }
        out[base + block] = low <= high ? range.max(low, high) : -Infinity;
      }
    }
    for (let j = shared.length - 1; j >= 0; j--) {
      digits[j]!++;
      for (let k = 0; k < involved.length; k++) offsets[k]! += sharedStrides[k]![j]!;
      if (digits[j]! < sharedDims[j]!) break;
      for (let k = 0; k < involved.length; k++) offsets[k]! -= sharedStrides[k]![j]! * sharedDims[j]!;
      digits[j] = 0;
    }
  }
  return out;
}

/**
 * h[a..b] = the sum of the involved factors at x = a..b, added factor by factor in list order
 * (deterministic, so a repeated call gives the same bits); -Infinity outside [a, b].
 */
function accumulate(h: Float64Array, a: number, b: number, involved: readonly Factor[], offsets: readonly number[], xStrides: readonly number[]): void {
  h.fill(-Infinity);
  if (a > b) return;
  let k = 0;
  if (xStrides[0] === 1) {
    // The first term needs no addition (0 + x is x): a bulk copy, fast even before the JIT warms up.
    h.set(involved[0]!.table.subarray(offsets[0]! + a, offsets[0]! + b + 1), a);
    k = 1;
  } else {
    h.fill(0, a, b + 1);
  }
  for (; k < involved.length; k++) {
    const table = involved[k]!.table;
    const stride = xStrides[k]!;
    const start = offsets[k]! + a * stride;
    if (stride === 1) {
      for (let i = a, o = start; i <= b; i++, o++) h[i]! += table[o]!;
    } else {
      for (let i = a, o = start; i <= b; i++, o += stride) h[i]! += table[o]!;
    }
  }
}

/**
 * Maximum of h over [low, high] in O(1) after O(T) (prefix or suffix maxima, when only one
 * end varies) or O(T log T) (a sparse table, when both do) preparation per loaded array.
 */
class RangeMax {
  /** Prefix maxima when only upper bounds vary, suffix maxima when only lower bounds do. */
  private readonly oneSided: Float64Array | null;
  private readonly levels: Float64Array[] = [];

  constructor(
    private readonly span: number,
    private readonly lowerVaries: boolean,
    upperVaries: boolean,
  ) {
    this.oneSided = lowerVaries !== upperVaries ? new Float64Array(span) : null;
    if (lowerVaries && upperVaries) for (let len = 1; len <= span; len *= 2) this.levels.push(new Float64Array(span));
  }

  load(h: Float64Array): void {
    const { span, oneSided, levels } = this;
    if (oneSided && this.lowerVaries) {
      let top = -Infinity;
      for (let i = span - 1; i >= 0; i--) oneSided[i] = top = Math.max(top, h[i]!);
    } else if (oneSided) {
      let top = -Infinity;
      for (let i = 0; i < span; i++) oneSided[i] = top = Math.max(top, h[i]!);
    }
    if (levels.length > 0) {
      levels[0]!.set(h);
      for (let k = 1, half = 1; k < levels.length; k++, half *= 2) {
        const below = levels[k - 1]!;
        const level = levels[k]!;
        for (let i = 0; i + 2 * half <= span; i++) level[i] = Math.max(below[i]!, below[i + half]!);
      }
    }
  }

  /**
   * Requires 0 <= low <= high < span. Suffix maxima serve when no upper bound varies (high is
   * then always span - 1), prefix maxima when no lower bound does (low is always 0).
   */
  max(low: number, high: number): number {
    if (this.oneSided) return this.lowerVaries ? this.oneSided[low]! : this.oneSided[high]!;
    const k = 31 - Math.clz32(high - low + 1);
    const level = this.levels[k]!;
    return Math.max(level[low]!, level[high - (1 << k) + 1]!);
  }

  /**
   * One bounding variable: out[at + k] = max of h over x >= shift + k (a lower bound) or over
   * x <= shift + k (an upper bound), relative indices, for k in 0..count-1. Written as bulk
   * copies: bounds before, inside and after x's window.
   */
  writeOneSided(out: Float64Array, at: number, count: number, shift: number): void {
    const ends = this.oneSided!;
    const span = this.span;
    const inside = Math.min(Math.max(-shift, 0), count); // first k with shift + k >= 0
    const after = Math.min(Math.max(span - shift, inside), count); // first k with shift + k >= span
    // A lower bound below the window admits all of it; above it, nothing. An upper bound mirrors that.
    out.fill(this.lowerVaries ? ends[0]! : -Infinity, at, at + inside);
    out.set(ends.subarray(shift + inside, shift + after), at + inside);
    out.fill(this.lowerVaries ? -Infinity : ends[span - 1]!, at + after, at + count);
  }
}

function topologicalOrder(predecessors: readonly number[][], successors: readonly number[][]): number[] {
  const pending = predecessors.map((p) => p.length);
  const order: number[] = [];
  pending.forEach((count, v) => count === 0 && order.push(v));
  for (let head = 0; head < order.length; head++) {
    for (const w of successors[order[head]!]!) if (--pending[w]! === 0) order.push(w);
  }
  return order;
}
