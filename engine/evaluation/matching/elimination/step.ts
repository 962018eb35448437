// One step of variable elimination (matching-elimination.ts): the message of eliminating a
// variable x, i.e. for every combination of the other variables involved, the maximum over x
// of the sum of the factors that mention x, within the order constraints on x
// (matching-elimination-plan.ts describes the shape of a step and its cost).
//
// Paths, by what constrains x:
//   - nothing (an auxiliary variable of a few values): maximiseFree, tight loops along the
//     shared variable that is contiguous in memory (a unit-stride kernel for two factors);
//   - variables in the shared tables (lowerIn / upperIn, or the tables' implied orders): the
//     range of x per entry;
//   - one order-only bound: one running maximum per entry of the shared variables (with two
//     factors, the sums go straight into it);
//   - one lower and one upper order-only bound (a node between a root and a sink): running
//     maxima (writeBetween);
//   - more: a sparse table answering range maxima in O(1).
// Entries that break an implied order of a summed table are -Infinity and are written so
// without summing. Terms are added factor by factor in list order on every path, so a repeated
// step gives the same bits. The hot loops live in small functions whose arguments are typed
// arrays and numbers of one shape, so their optimised code survives the varied arrays the
// set-up passes around (V8 discards optimised code when an argument's hidden class changes,
// and a loop over a row then runs unoptimised); unit strides get kernels of their own, since
// a stride the compiler cannot see costs the loop about half its speed.

import {
  addAlong,
  addContiguous,
  copyAlong,
  fillRange,
  maximiseRows,
  RangeMax,
  writeAtLeast,
  writeAtMost,
  writeAtMostOfContiguousPair,
  writeAtMostOfPair,
  writeBetween,
} from "./kernels.js";
import type { StepShape } from "./plan.js";

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
export function eliminate(
  x: number,
  shape: StepShape,
  factors: readonly Factor[],
  min: readonly number[],
  width: readonly number[],
  out: Float64Array,
): void {
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
    maximiseFree(
      out,
      involved,
      span,
      xStrides,
      sharedDims,
      sharedStrides,
      shared.map((v) => min[v]!),
      pairs,
    );
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
      if (xStrides[1] === 1)
        writeAtMostOfContiguousPair(
          out,
          base,
          blockSize,
          boundShift,
          a,
          b,
          involved[0]!.table,
          offsets[0]!,
          involved[1]!.table,
          offsets[1]!,
        );
      else
        writeAtMostOfPair(
          out,
          base,
          blockSize,
          boundShift,
          a,
          b,
          involved[0]!.table,
          offsets[0]!,
          involved[1]!.table,
          offsets[1]!,
          xStrides[1]!,
        );
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
function breaksPair(
  pairs: readonly (readonly [number, number])[],
  shared: readonly number[],
  min: readonly number[],
  digits: readonly number[],
): boolean {
  for (let k = 0; k < pairs.length; k++) {
    const pu = pairs[k]![0];
    const pw = pairs[k]![1];
    if (min[shared[pu]!]! + digits[pu]! > min[shared[pw]!]! + digits[pw]!) return true;
  }
  return false;
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
    tables.forEach((t, k) => {
      if (t.length * 4 >= out.length) total += sharedStrides[k]![j]! || 1;
    });
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
 * h[a..b] = the sum of the involved factors at x = a..b, added factor by factor in list order
 * (deterministic, so a repeated call gives the same bits). Entries outside [a, b] are left as
 * they were: no caller reads them.
 */
function accumulate(
  h: Float64Array,
  a: number,
  b: number,
  involved: readonly Factor[],
  offsets: readonly number[],
  xStrides: readonly number[],
): void {
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
