// One step of variable elimination (matching-elimination.ts): the message of eliminating a
// variable x, i.e. for every combination of the other variables involved, the maximum over x
// of the sum of the factors that mention x, within the order constraints on x
// (matching-elimination-plan.ts describes the shape of a step and its cost).
//
// Paths, by what constrains x:
//   - nothing (an auxiliary variable of a few values): maximiseFree, tight loops along the
//     shared variable that is contiguous in memory;
//   - variables in the shared tables (lowerIn / upperIn): the range of x per entry;
//   - one order-only bound: one running maximum per entry of the shared variables;
//   - one lower and one upper order-only bound (a node between a root and a sink): running
//     maxima (writeBetween);
//   - more: a sparse table answering range maxima in O(1).
// Terms are added factor by factor in list order on every path, so a repeated step gives the
// same bits. The hot loops live in small functions with monomorphic arguments, so the
// optimised code survives the varied arrays the set-up passes around.

import { type StepShape } from "./matching-elimination-plan.js";

/** An order relation [u, w] between two of a factor's variables: its table is -Infinity wherever u's index exceeds w's. */
export type ImpliedOrder = readonly [number, number];

/** A table over its variables' windows, row-major (last variable fastest). */
export interface Factor {
  readonly vars: readonly number[];
  readonly table: Float64Array;
  /** Made by the current pass (a message), not one of the node and gate tables kept across passes. */
  readonly message: boolean;
  /**
   * Orders the table is known to enforce (not necessarily all of them). A step skips the
   * entries that break one: their sum is -Infinity whatever x is, so the maxima it writes
   * are the same (a root-and-sink pair left by eliminating a child is half -Infinity).
   */
  readonly implied: readonly ImpliedOrder[];
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

  // The implied orders of the involved tables, by position in `shared`: bounds on x, and pairs
  // of shared variables whose entries are -Infinity throughout when broken.
  const lower = [...lowerIn];
  const upper = [...upperIn];
  const pairs: [number, number][] = [];
  for (const f of involved) {
    for (const [u, w] of f.implied) {
      if (w === x) lower.push(shared.indexOf(u));
      else if (u === x) upper.push(shared.indexOf(w));
      else pairs.push([shared.indexOf(u), shared.indexOf(w)]);
    }
  }

  if (lowerIn.length + upperIn.length + bounds.length === 0 && span <= FREE_SPAN) {
    maximiseFree(out, involved, span, xStrides, sharedDims, sharedStrides, shared.map((v) => min[v]!), pairs);
    return;
  }

  const h = new Float64Array(span);
  // Only the general case (several order-only bounds) needs the range-maximum table.
  const range = bounds.length > 1 && !(lowerOut.length === 1 && upperOut.length === 1) ? new RangeMax(span) : null;
  const boundShift = bounds.length === 1 ? min[bounds[0]!]! - xMin : 0;
  const fusedAtMost = upperOut.length === 1 && lowerOut.length === 0 && involved.length === 2 && xStrides[0] === 1;

  for (let s = 0; s < sharedSize; s++) {
    // x's range given the shared variables it is ordered with, relative to xMin.
    let a = 0;
    let b = span - 1;
    // Index loops in the per-entry code: for-of allocates an iterator until the code is optimised.
    for (let k = 0; k < lower.length; k++) a = Math.max(a, min[shared[lower[k]!]!]! + digits[lower[k]!]! - xMin);
    for (let k = 0; k < upper.length; k++) b = Math.min(b, min[shared[upper[k]!]!]! + digits[upper[k]!]! - xMin);
    const base = s * blockSize;
    if (breaksPair(pairs, shared, min, digits)) {
      fillRange(out, base, base + blockSize, -Infinity);
      advance();
      continue;
    }
    if (fusedAtMost) {
      // Two factors and one child bounding x (a node under its parent, before the sink): the
      // sums go straight into the running maximum, without the h row.
      if (xStrides[1] === 1) writeAtMostOfContiguousPair(out, base, blockSize, boundShift, a, b, involved[0]!.table, offsets[0]!, involved[1]!.table, offsets[1]!);
      else writeAtMostOfPair(out, base, blockSize, boundShift, a, b, involved[0]!.table, offsets[0]!, involved[1]!.table, offsets[1]!, xStrides[1]!);
      advance();
      continue;
    }
    // h[a..b] only: every path below reads x's range and nothing outside it.
    accumulate(h, a, b, involved, offsets, xStrides);
    if (bounds.length === 0) {
      let top = -Infinity;
      for (let i = a; i <= b; i++) if (h[i]! > top) top = h[i]!;
      out[base] = top;
    } else if (upperOut.length === 1 && lowerOut.length === 0) {
      // One variable bounds x from above through an order constraint only (a child): the usual case.
      writeAtMost(out, base, blockSize, boundShift, h, a, b);
    } else if (lowerOut.length === 1 && upperOut.length === 0) {
      writeAtLeast(out, base, blockSize, boundShift, h, a, b);
    } else if (lowerOut.length === 1 && upperOut.length === 1) {
      // A parent below and a child above x, through order constraints only (a node between a
      // root and a sink): running maxima, no range table.
      writeBetween(out, base, h, a, b, min[lowerOut[0]!]! - xMin, boundDims[0]!, min[upperOut[0]!]! - xMin, boundDims[1]!);
    } else {
      range!.load(h, a, b);
      for (let block = 0; block < blockSize; block++) {
        // Decode the bound variables (last fastest); x must lie in [max(lower), min(upper)].
        let low = a;
        let high = b;
        for (let j = bounds.length - 1, rest = block; j >= 0; j--) {
          const index = min[bounds[j]!]! + (rest % boundDims[j]!) - xMin;
          rest = Math.floor(rest / boundDims[j]!);
          if (j < lowerOut.length) low = Math.max(low, index);
          else high = Math.min(high, index);
        }
        out[base + block] = low <= high ? range!.max(low, high) : -Infinity;
      }
    }
    advance();
  }
}

/** Whether the shared variables at `digits` break one of the pairs (positions in `shared`). */
function breaksPair(pairs: readonly (readonly [number, number])[], shared: readonly number[], min: readonly number[], digits: readonly number[]): boolean {
  for (let k = 0; k < pairs.length; k++) {
    const pu = pairs[k]![0];
    const pw = pairs[k]![1];
    if (min[shared[pu]!]! + digits[pu]! > min[shared[pw]!]! + digits[pw]!) return true;
  }
  return false;
}

/**
 * out[at + k] = the maximum of h over [a, min(b, shift + k)], for k < count (-Infinity when
 * shift + k < a): x at most a bounding variable k steps into its window. One running maximum.
 */
function writeAtMost(out: Float64Array, at: number, count: number, shift: number, h: Float64Array, a: number, b: number): void {
  let k = Math.min(Math.max(a - shift, 0), count); // the first k with shift + k >= a
  fillRange(out, at, at + k, -Infinity);
  let top = -Infinity;
  let i = a;
  for (; k < count; k++) {
    const high = shift + k;
    if (high >= b) break;
    for (; i <= high; i++) if (h[i]! > top) top = h[i]!;
    out[at + k] = top;
  }
  if (k === count) return;
  for (; i <= b; i++) if (h[i]! > top) top = h[i]!;
  fillRange(out, at + k, at + count, top);
}

/**
 * writeAtMost with h[i] = t0[o0 + i] + t1[o1 + i·s1], the sum accumulate() would have made (the
 * same two operands, so the same bits), computed in the running maximum.
 */
function writeAtMostOfPair(
  out: Float64Array,
  at: number,
  count: number,
  shift: number,
  a: number,
  b: number,
  t0: Float64Array,
  o0: number,
  t1: Float64Array,
  o1: number,
  s1: number,
): void {
  let k = Math.min(Math.max(a - shift, 0), count); // the first k with shift + k >= a
  fillRange(out, at, at + k, -Infinity);
  let top = -Infinity;
  let i = a;
  for (; k < count; k++) {
    const high = shift + k;
    if (high >= b) break;
    for (; i <= high; i++) {
      const sum = t0[o0 + i]! + t1[o1 + i * s1]!;
      if (sum > top) top = sum;
    }
    out[at + k] = top;
  }
  if (k === count) return;
  for (; i <= b; i++) {
    const sum = t0[o0 + i]! + t1[o1 + i * s1]!;
    if (sum > top) top = sum;
  }
  fillRange(out, at + k, at + count, top);
}

/** writeAtMostOfPair with both factors contiguous along x (stride 1), the usual case. */
function writeAtMostOfContiguousPair(
  out: Float64Array,
  at: number,
  count: number,
  shift: number,
  a: number,
  b: number,
  t0: Float64Array,
  o0: number,
  t1: Float64Array,
  o1: number,
): void {
  let k = Math.min(Math.max(a - shift, 0), count); // the first k with shift + k >= a
  fillRange(out, at, at + k, -Infinity);
  let top = -Infinity;
  let i = a;
  for (; k < count; k++) {
    const high = shift + k;
    if (high >= b) break;
    for (; i <= high; i++) {
      const sum = t0[o0 + i]! + t1[o1 + i]!;
      if (sum > top) top = sum;
    }
    out[at + k] = top;
  }
  if (k === count) return;
  for (; i <= b; i++) {
    const sum = t0[o0 + i]! + t1[o1 + i]!;
    if (sum > top) top = sum;
  }
  fillRange(out, at + k, at + count, top);
}

/**
 * out[at + k] = the maximum of h over [max(a, shift + k), b], for k < count (-Infinity when
 * shift + k > b): x at least a bounding variable k steps into its window. One running maximum, downwards.
 */
function writeAtLeast(out: Float64Array, at: number, count: number, shift: number, h: Float64Array, a: number, b: number): void {
  const end = Math.min(Math.max(b + 1 - shift, 0), count); // the first k with shift + k > b
  fillRange(out, at + end, at + count, -Infinity);
  let top = -Infinity;
  let i = b;
  let k = end - 1;
  for (; k >= 0; k--) {
    const low = shift + k;
    if (low <= a) break;
    for (; i >= low; i--) if (h[i]! > top) top = h[i]!;
    out[at + k] = top;
  }
  if (k < 0) return;
  for (; i >= a; i--) if (h[i]! > top) top = h[i]!;
  fillRange(out, at, at + k + 1, top);
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
  sharedMin: readonly number[],
  pairs: readonly (readonly [number, number])[],
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
  // The row loop runs in a function of its own, over typed arrays and integers passed as
  // arguments (an object holding them would change shape as V8 settles how to store its
  // fields, and each change throws the loop's optimised code away): the same argument types on
  // every call, so its optimised code survives whatever this set-up meets.
  maximiseRows(
    out,
    tables[0]!,
    tables.length > 1 ? tables[1]! : tables[0]!,
    tables,
    span,
    inner,
    innerOut,
    wide,
    Math.round(out.length / inner),
    Int32Array.from(sharedDims),
    Int32Array.from(outStrides),
    Int32Array.from(sharedStrides.flatMap((row) => [...row])),
    Int32Array.from(outer),
    Int32Array.from(pairs.flatMap((pair) => [...pair])),
    Int32Array.from(sharedMin),
    Int32Array.from(innerStrides),
    Int32Array.from(xStrides),
  );
}

/**
 * maximiseFree's loop over the output's rows. A row runs along the inner (wide) shared variable
 * at position `wide` (-1: none), `inner` entries `innerOut` apart in the output. Per shared
 * variable j: dims[j] (its width), outStrides[j], strides[k·n + j] (factor k's stride along it)
 * and mins[j] (its window's first index); `outer` lists the other shared variables, slowest
 * first; `pairs` holds implied orders as flattened (u, w) positions in the shared list.
 */
function maximiseRows(
  out: Float64Array,
  t0: Float64Array,
  t1: Float64Array,
  /** Every table, read only with more than two (the array's shape may vary between calls; the tables' does not). */
  tables: readonly Float64Array[],
  span: number,
  inner: number,
  innerOut: number,
  wide: number,
  rows: number,
  dims: Int32Array,
  outStrides: Int32Array,
  strides: Int32Array,
  outer: Int32Array,
  pairs: Int32Array,
  mins: Int32Array,
  innerStrides: Int32Array,
  xStrides: Int32Array,
): void {
  const count = xStrides.length;
  const n = dims.length;
  const digits = new Int32Array(n);
  const offsets = new Int32Array(count);
  // Two factors whose rows are contiguous, like the output's: the usual case (a node's gate
  // class eliminated from a root-and-sink message), with a kernel of unit strides.
  const contiguous = count === 2 && innerOut === 1 && innerStrides[0] === 1 && innerStrides[1] === 1;
  let at = 0;
  for (let row = 0; row < rows; row++) {
    // The part of the row no implied order rules out: [first, last] along the inner variable.
    let first = 0;
    let last = inner - 1;
    for (let k = 0; k < pairs.length; k += 2) {
      const pu = pairs[k]!;
      const pw = pairs[k + 1]!;
      if (pw === wide) first = Math.max(first, mins[pu]! + digits[pu]! - mins[pw]!);
      else if (pu === wide) last = Math.min(last, mins[pw]! + digits[pw]! - mins[pu]!);
      else if (mins[pu]! + digits[pu]! > mins[pw]! + digits[pw]!) last = -1;
    }
    if (first > last) {
      fillStrided(out, at, innerOut, 0, inner);
    } else {
      fillStrided(out, at, innerOut, 0, first);
      fillStrided(out, at, innerOut, last + 1, inner);
      if (contiguous) {
        const o0 = offsets[0]! + first;
        const o1 = offsets[1]! + first;
        maxOfContiguousPairs(out, at + first, last - first + 1, span, t0, o0, xStrides[0]!, t1, o1, xStrides[1]!);
      } else if (count === 2) {
        const o0 = offsets[0]! + first * innerStrides[0]!;
        const o1 = offsets[1]! + first * innerStrides[1]!;
        maxOfPairs(out, at + first * innerOut, innerOut, last - first + 1, span, t0, o0, innerStrides[0]!, xStrides[0]!, t1, o1, innerStrides[1]!, xStrides[1]!);
      } else {
        maxOfSums(out, at + first * innerOut, innerOut, last - first + 1, first, span, tables, offsets, innerStrides, xStrides);
      }
    }
    // The next combination of the other shared variables (last fastest).
    for (let q = outer.length - 1; q >= 0; q--) {
      const j = outer[q]!;
      digits[j]!++;
      at += outStrides[j]!;
      for (let k = 0; k < count; k++) offsets[k]! += strides[k * n + j]!;
      if (digits[j]! < dims[j]!) break;
      at -= outStrides[j]! * dims[j]!;
      for (let k = 0; k < count; k++) offsets[k]! -= strides[k * n + j]! * dims[j]!;
      digits[j] = 0;
    }
  }
}

/**
 * out[at + l·dimU + u] = max of h over [max(a, lowShift + l), min(b, highShift + u)]
 * (-Infinity when empty), for l < dimL, u < dimU: for each lower bound, a running maximum as
 * the upper bound grows.
 */
function writeBetween(out: Float64Array, at: number, h: Float64Array, a: number, b: number, lowShift: number, dimL: number, highShift: number, dimU: number): void {
  for (let l = 0; l < dimL; l++) {
    const low = Math.max(a, lowShift + l);
    let top = -Infinity;
    let next = low; // h[low..next-1] is in top
    for (let u = 0, o = at + l * dimU; u < dimU; u++, o++) {
      const high = Math.min(b, highShift + u);
      for (; next <= high; next++) if (h[next]! > top) top = h[next]!;
      out[o] = low <= high ? top : -Infinity;
    }
  }
}

/**
 * table[i] = value for i in from..to-1. TypedArray.prototype.fill is a call into the runtime
 * that costs as much as filling a few dozen entries, and the row loops make one or two per row,
 * most of them short or empty: those are filled here.
 */
function fillRange(table: Float64Array, from: number, to: number, value: number): void {
  if (to - from > 64) table.fill(value, from, to);
  else for (let i = from; i < to; i++) table[i] = value;
}

/** out[at + d·stride] = -Infinity for d in from..to-1. */
function fillStrided(out: Float64Array, at: number, stride: number, from: number, to: number): void {
  if (stride === 1) fillRange(out, at + from, at + to, -Infinity);
  else for (let d = from; d < to; d++) out[at + d * stride] = -Infinity;
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

/**
 * maxOfPairs with unit strides along the row: out[at + d] = the maximum over i < span of
 * t0[o0 + i·x0 + d] + t1[o1 + i·x1 + d]. Per entry the sums are compared in the same order
 * (i ascending, a later one kept only when greater), so the values are maxOfPairs' bits; the
 * fixed strides and the unrolled two-value case let the compiler keep the loop tight.
 */
function maxOfContiguousPairs(out: Float64Array, at: number, n: number, span: number, t0: Float64Array, o0: number, x0: number, t1: Float64Array, o1: number, x1: number): void {
  if (span === 2) {
    for (let d = 0; d < n; d++) {
      const low = t0[o0 + d]! + t1[o1 + d]!;
      const high = t0[o0 + x0 + d]! + t1[o1 + x1 + d]!;
      out[at + d] = high > low ? high : low;
    }
    return;
  }
  for (let d = 0; d < n; d++) {
    let top = t0[o0 + d]! + t1[o1 + d]!;
    for (let i = 1; i < span; i++) {
      const sum = t0[o0 + i * x0 + d]! + t1[o1 + i * x1 + d]!;
      if (sum > top) top = sum;
    }
    out[at + d] = top;
  }
}

/** maxOfPairs for any number of factors, added in list order; factor k's row starts at offsets[k] + first·innerStrides[k]. */
function maxOfSums(
  out: Float64Array,
  at: number,
  outStride: number,
  inner: number,
  first: number,
  span: number,
  tables: readonly Float64Array[],
  offsets: Int32Array,
  innerStrides: Int32Array,
  xStrides: Int32Array,
): void {
  for (let d = 0; d < inner; d++) {
    let top = -Infinity;
    for (let i = 0; i < span; i++) {
      let sum = tables[0]![offsets[0]! + (first + d) * innerStrides[0]! + i * xStrides[0]!]!;
      for (let k = 1; k < tables.length; k++) sum += tables[k]![offsets[k]! + (first + d) * innerStrides[k]! + i * xStrides[k]!]!;
      if (sum > top) top = sum;
    }
    out[at + d * outStride] = top;
  }
}

/**
 * h[a..b] = the sum of the involved factors at x = a..b, added factor by factor in list order
 * (deterministic, so a repeated call gives the same bits). Entries outside [a, b] are left as
 * they were: no caller reads them.
 */
function accumulate(h: Float64Array, a: number, b: number, involved: readonly Factor[], offsets: readonly number[], xStrides: readonly number[]): void {
  if (a > b) return;
  let k = 0;
  if (xStrides[0] === 1) {
    // The first term needs no addition (0 + x is x).
    copyAlong(h, a, b, involved[0]!.table, offsets[0]! + a);
    k = 1;
  } else {
    fillRange(h, a, b + 1, 0);
  }
  for (; k < involved.length; k++) {
    const stride = xStrides[k]!;
    if (stride === 1) addContiguous(h, a, b, involved[k]!.table, offsets[k]! + a);
    else addAlong(h, a, b, involved[k]!.table, offsets[k]! + a * stride, stride);
  }
}

/** addAlong with stride 1, which the compiler then need not keep in a register to step by. */
function addContiguous(h: Float64Array, a: number, b: number, table: Float64Array, start: number): void {
  for (let i = a, o = start; i <= b; i++, o++) h[i]! += table[o]!;
}

/** h[i] = table[start + i - a] for i in a..b: an element loop, where a subarray copy would allocate a view per row. */
function copyAlong(h: Float64Array, a: number, b: number, table: Float64Array, start: number): void {
  for (let i = a, o = start; i <= b; i++, o++) h[i] = table[o]!;
}

/** h[i] += table[start + (i - a)·stride] for i in a..b: a separate function, so it stays optimised. */
function addAlong(h: Float64Array, a: number, b: number, table: Float64Array, start: number, stride: number): void {
  for (let i = a, o = start; i <= b; i++, o += stride) h[i]! += table[o]!;
}

/** Maximum of h over [low, high] in O(1) after O(T log T) preparation per loaded array (a sparse table). */
class RangeMax {
  private readonly levels: Float64Array[] = [];

  constructor(span: number) {
    for (let len = 1; len <= span; len *= 2) this.levels.push(new Float64Array(span));
  }

  /** Loads h[a..b]; max() then answers for a <= low <= high <= b. */
  load(h: Float64Array, a: number, b: number): void {
    const { levels } = this;
    if (a > b) return;
    levels[0]!.set(h.subarray(a, b + 1), a);
    for (let k = 1, half = 1; k < levels.length; k++, half *= 2) {
      const below = levels[k - 1]!;
      const level = levels[k]!;
      for (let i = a; i + 2 * half <= b + 1; i++) level[i] = Math.max(below[i]!, below[i + half]!);
    }
  }

  /** Requires a <= low <= high <= b of the last load. */
  max(low: number, high: number): number {
    const k = 31 - Math.clz32(high - low + 1);
    const level = this.levels[k]!;
    return Math.max(level[low]!, level[high - (1 << k) + 1]!);
  }
}
