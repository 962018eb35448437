// The inner loops of an elimination step (matching-elimination-step.ts), one row of a message
// at a time: running maxima along x for one or two order-only bounds, the maximum over a small
// auxiliary variable, sums along x, and range maxima. They live apart from the set-up, in
// small functions over typed arrays and numbers, so their optimised code stays in place (see
// the step's header); each writes every entry of its row it is given.

/**
 * out[at + k] = the maximum of h over [a, min(b, shift + k)], for k < count (-Infinity when
 * shift + k < a): x at most a bounding variable k steps into its window. One running maximum.
 */
export function writeAtMost(out: Float64Array, at: number, count: number, shift: number, h: Float64Array, a: number, b: number): void {
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
export function writeAtMostOfPair(
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
export function writeAtMostOfContiguousPair(
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
export function writeAtLeast(out: Float64Array, at: number, count: number, shift: number, h: Float64Array, a: number, b: number): void {
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
 * maximiseFree's loop over the output's rows. A row runs along the inner (wide) shared variable
 * at position `wide` (-1: none), `inner` entries `innerOut` apart in the output. Per shared
 * variable j: dims[j] (its width), outStrides[j], strides[k·n + j] (factor k's stride along it)
 * and mins[j] (its window's first index); `outer` lists the other shared variables, slowest
 * first; `pairs` holds implied orders as flattened (u, w) positions in the shared list.
 */
export function maximiseRows(
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
        maxOfPairs(
          out,
          at + first * innerOut,
          innerOut,
          last - first + 1,
          span,
          t0,
          o0,
          innerStrides[0]!,
          xStrides[0]!,
          t1,
          o1,
          innerStrides[1]!,
          xStrides[1]!,
        );
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
export function writeBetween(
  out: Float64Array,
  at: number,
  h: Float64Array,
  a: number,
  b: number,
  lowShift: number,
  dimL: number,
  highShift: number,
  dimU: number,
): void {
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
export function fillRange(table: Float64Array, from: number, to: number, value: number): void {
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
function maxOfContiguousPairs(
  out: Float64Array,
  at: number,
  n: number,
  span: number,
  t0: Float64Array,
  o0: number,
  x0: number,
  t1: Float64Array,
  o1: number,
  x1: number,
): void {
  if (span === 2) {
    for (let d = 0; d < n; d++) {
      const low = t0[o0 + d]! + t1[o1 + d]!;
      const high = t0[o0 + x0 + d]! + t1[o1 + x1 + d]!;
      // biome-ignore lint/complexity/useMathMinMax: keeps maxOfPairs' bits: on a tie of -0 and +0 the earlier sum stays, where Math.max picks +0
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

/** addAlong with stride 1, which the compiler then need not keep in a register to step by. */
export function addContiguous(h: Float64Array, a: number, b: number, table: Float64Array, start: number): void {
  for (let i = a, o = start; i <= b; i++, o++) h[i]! += table[o]!;
}

/** h[i] = table[start + i - a] for i in a..b: an element loop, where a subarray copy would allocate a view per row. */
export function copyAlong(h: Float64Array, a: number, b: number, table: Float64Array, start: number): void {
  for (let i = a, o = start; i <= b; i++, o++) h[i] = table[o]!;
}

/** h[i] += table[start + (i - a)·stride] for i in a..b: a separate function, so it stays optimised. */
export function addAlong(h: Float64Array, a: number, b: number, table: Float64Array, start: number, stride: number): void {
  for (let i = a, o = start; i <= b; i++, o += stride) h[i]! += table[o]!;
}

/** Maximum of h over [low, high] in O(1) after O(T log T) preparation per loaded array (a sparse table). */
export class RangeMax {
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
