// One step of variable elimination (matching-elimination.ts): the message of eliminating a
// variable x, i.e. for every combination of the other variables involved, the maximum over x
// of the sum of the factors that mention x, within the order constraints on x
// (matching-elimination-plan.ts describes the shape of a step and its cost).
//
// Paths, by what constrains x:
//   - nothing (an auxiliary variable of a few values): maximiseFree, tight loops along the
//     shared variable that is contiguous in memory;
//   - variables in the shared tables (lowerIn / upperIn): the range of x per entry;
//   - one order-only bound: prefix or suffix maxima, written as bulk copies;
//   - one lower and one upper order-only bound (a node between a root and a sink): running
//     maxima (writeBetween);
//   - more: a sparse table answering range maxima in O(1).
// Terms are added factor by factor in list order on every path, so a repeated step gives the
// same bits. The hot loops live in small functions with monomorphic arguments, so the
// optimised code survives the varied arrays the set-up passes around.

import { type StepShape } from "./matching-elimination-plan.js";

/** A table over its variables' windows, row-major (last variable fastest). */
export interface Factor {
  readonly vars: readonly number[];
  readonly table: Float64Array;
  /** Made by the current pass (a message), not one of the node and gate tables kept across passes. */
  readonly message: boolean;
}

/**
 * Variables of at most this many values and without order constraints (the auxiliary ones)
 * take maximiseFree's path; wider ones the general path, whose per-entry set-up is then cheap
 * next to summing the factors along x.
 */
const FREE_SPAN = 16;

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

/** Writes every entry of `out` with the message of eliminating x: a table over messageScope(shape). */
export function eliminate(x: number, shape: StepShape, factors: readonly Factor[], min: readonly number[], width: readonly number[], out: Float64Array): void {
  const { shared, lowerIn, upperIn, lowerOut, upperOut } = shape;
  const involved = shape.involved.map((i) => factors[i]!);
  const span = width[x]!;
  const xMin = min[x]!;
  const sharedDims = shared.map((v) => width[v]!);
  const sharedSize = sharedDims.reduce((p, d) => p * d, 1);
  const bounds = [...lowerOut, ...upperOut];
  const boundDims = bounds.map((v) => width[v]!);
  const blockSize = boundDims.reduce((p, d) => p * d, 1);

  // Per involved factor: its stride along each shared variable (0 if absent) and along x.
  const sharedStrides = involved.map((f) => {
    const strides = stridesOf(f.vars, width);
    return shared.map((v) => (f.vars.includes(v) ? strides[f.vars.indexOf(v)]! : 0));
  });
  const xStrides = involved.map((f) => stridesOf(f.vars, width)[f.vars.indexOf(x)]!);
  const offsets = new Array<number>(involved.length).fill(0);
  const digits = new Array<number>(shared.length).fill(0);
  const advance = (): void => {
    for (let j = shared.length - 1; j >= 0; j--) {
      digits[j]!++;
      for (let k = 0; k < involved.length; k++) offsets[k]! += sharedStrides[k]![j]!;
      if (digits[j]! < sharedDims[j]!) break;
      for (let k = 0; k < involved.length; k++) offsets[k]! -= sharedStrides[k]![j]! * sharedDims[j]!;
      digits[j] = 0;
    }
  };

  if (lowerIn.length + upperIn.length + bounds.length === 0 && span <= FREE_SPAN) {
    maximiseFree(out, involved, span, xStrides, sharedDims, sharedStrides);
    return;
  }

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
    } else if (lowerOut.length === 1 && upperOut.length === 1) {
      // A parent below and a child above x, through order constraints only (a node between a
      // root and a sink): running maxima, no range table.
      writeBetween(out, base, h, span, min[lowerOut[0]!]! - xMin, boundDims[0]!, min[upperOut[0]!]! - xMin, boundDims[1]!);
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
    advance();
  }
}

/**
 * out[s] = max over x of the sum of the involved factors, for every combination s of the
 * shared variables: the step for a variable without order constraints (an auxiliary variable
 * of 2 or a few values, usually under a large shared table). The general path's per-entry
 * set-up would dominate there, so the widest shared variable runs in a tight inner loop, with
 * two factors (the usual case) unrolled. Terms are added in accumulate()'s order, so the
 * values are the same bits the general path would give.
 */
function maximiseFree(
  out: Float64Array,
  involved: readonly Factor[],
  span: number,
  xStrides: readonly number[],
  sharedDims: readonly number[],
  sharedStrides: readonly (readonly number[])[],
): void {
  const tables = involved.map((f) => f.table);
  const count = tables.length;
  // out is row-major over the shared variables (last fastest).
  const outStrides = new Array<number>(sharedDims.length);
  for (let j = sharedDims.length - 1, stride = 1; j >= 0; j--) {
    outStrides[j] = stride;
    stride *= sharedDims[j]!;
  }
  // The inner loop runs along a wide shared variable that is contiguous, or nearly, in the
  // output and in any input as large as it: such tables are far larger than the caches, and a
  // loop striding across them would miss on nearly every read or write.
  const widest = Math.max(1, ...sharedDims);
  const jumps = (j: number): number => {
    let total = outStrides[j]!;
    tables.forEach((t, k) => t.length * 4 >= out.length && (total += sharedStrides[k]![j]! || 1));
    return total;
  };
  let wide = -1;
  sharedDims.forEach((d, j) => {
    if (2 * d >= widest && (wide < 0 || jumps(j) < jumps(wide))) wide = j;
  });
  const inner = wide >= 0 ? sharedDims[wide]! : 1;
  const innerStrides = sharedStrides.map((strides) => (wide >= 0 ? strides[wide]! : 0));
  const innerOut = wide >= 0 ? outStrides[wide]! : 0;
  const outer = sharedDims.map((_, j) => j).filter((j) => j !== wide);
  const offsets = new Array<number>(count).fill(0);
  const digits = new Array<number>(sharedDims.length).fill(0);
  let at = 0;
  for (let row = 0, rows = out.length / inner; row < rows; row++) {
    if (count === 2) {
      maxOfPairs(out, at, innerOut, inner, span, tables[0]!, offsets[0]!, innerStrides[0]!, xStrides[0]!, tables[1]!, offsets[1]!, innerStrides[1]!, xStrides[1]!);
    } else {
      maxOfSums(out, at, innerOut, inner, span, tables, offsets, innerStrides, xStrides);
    }
    // The next combination of the other shared variables (last fastest).
    for (let q = outer.length - 1; q >= 0; q--) {
      const j = outer[q]!;
      digits[j]!++;
      at += outStrides[j]!;
      for (let k = 0; k < count; k++) offsets[k]! += sharedStrides[k]![j]!;
      if (digits[j]! < sharedDims[j]!) break;
      at -= outStrides[j]! * sharedDims[j]!;
      for (let k = 0; k < count; k++) offsets[k]! -= sharedStrides[k]![j]! * sharedDims[j]!;
      digits[j] = 0;
    }
  }
}

/**
 * out[at + l·dimU + u] = max of h over [max(0, lowShift + l), min(span - 1, highShift + u)]
 * (-Infinity when empty), for l < dimL, u < dimU: for each lower bound, a running maximum as
 * the upper bound grows.
 */
function writeBetween(out: Float64Array, at: number, h: Float64Array, span: number, lowShift: number, dimL: number, highShift: number, dimU: number): void {
  for (let l = 0; l < dimL; l++) {
    const low = Math.max(0, lowShift + l);
    let top = -Infinity;
    let next = low; // h[low..next-1] is in top
    for (let u = 0, o = at + l * dimU; u < dimU; u++, o++) {
      const high = Math.min(span - 1, highShift + u);
      for (; next <= high; next++) if (h[next]! > top) top = h[next]!;
      out[o] = low <= high ? top : -Infinity;
    }
  }
}

// maximiseFree's inner loops, one row of the output each. Separate small functions with
// monomorphic arguments, so that the optimised code survives the varied arrays the set-up sees.

/**
 * out[at + d·outStride] = max over i < span of t0[o0 + d·l0 + i·x0] + t1[o1 + d·l1 + i·x1], for
 * d < inner. Along d for each i in turn: simple loops, where x has only a few values.
 */
function maxOfPairs(
  out: Float64Array,
  at: number,
  outStride: number,
  inner: number,
  span: number,
  t0: Float64Array,
  o0: number,
  l0: number,
  x0: number,
  t1: Float64Array,
  o1: number,
  l1: number,
  x1: number,
): void {
  for (let d = 0, p0 = o0, p1 = o1, o = at; d < inner; d++, p0 += l0, p1 += l1, o += outStride) out[o] = t0[p0]! + t1[p1]!;
  for (let i = 1; i < span; i++) {
    for (let d = 0, p0 = o0 + i * x0, p1 = o1 + i * x1, o = at; d < inner; d++, p0 += l0, p1 += l1, o += outStride) {
      const sum = t0[p0]! + t1[p1]!;
      if (sum > out[o]!) out[o] = sum;
    }
  }
}

/** maxOfPairs for any number of factors, added in list order. */
function maxOfSums(
  out: Float64Array,
  at: number,
  outStride: number,
  inner: number,
  span: number,
  tables: readonly Float64Array[],
  offsets: readonly number[],
  innerStrides: readonly number[],
  xStrides: readonly number[],
): void {
  for (let d = 0; d < inner; d++) {
    let top = -Infinity;
    for (let i = 0; i < span; i++) {
      let sum = tables[0]![offsets[0]! + d * innerStrides[0]! + i * xStrides[0]!]!;
      for (let k = 1; k < tables.length; k++) sum += tables[k]![offsets[k]! + d * innerStrides[k]! + i * xStrides[k]!]!;
      if (sum > top) top = sum;
    }
    out[at + d * outStride] = top;
  }
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
    // The first term needs no addition (0 + x is x): a bulk copy, fast even before the JIT warms
    // up (an element loop for short ranges, where making the subarray would cost more).
    const table = involved[0]!.table;
    const from = offsets[0]!;
    if (b - a < 32) for (let i = a; i <= b; i++) h[i] = table[from + i]!;
    else h.set(table.subarray(from + a, from + b + 1), a);
    k = 1;
  } else {
    h.fill(0, a, b + 1);
  }
  for (; k < involved.length; k++) addAlong(h, a, b, involved[k]!.table, offsets[k]! + a * xStrides[k]!, xStrides[k]!);
}

/** h[i] += table[start + (i - a)·stride] for i in a..b: a separate function, so it stays optimised. */
function addAlong(h: Float64Array, a: number, b: number, table: Float64Array, start: number, stride: number): void {
  for (let i = a, o = start; i <= b; i++, o += stride) h[i]! += table[o]!;
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
