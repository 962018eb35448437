// Periodic trimming: a long stretch of messages that repeats itself (a model stuck in a loop)
// is cut to the few periods a mapping can use; the rest of the stretch is dropped before any
// strategy runs.
//
// The problem's classes (classes.ts) say, per node and index, what the node's own similarity and
// gates read at that index and what its readers read of it. Write C(i) for the vector of all
// nodes' classes at i, both kinds. A stretch [a, e] has period p when C(i) = C(i - p) for every
// i in [a + p, e]. A node's value depends on the indices only through the classes (and the
// edges only through the order of the indices), so two mappings whose indices have the same
// classes and the same order score the same floats.
//
// Exactness. Take a valid mapping x and the nodes it puts inside the stretch, sorted by index:
// i_1 <= … <= i_k, k <= M (the number of nodes). Move them greedily: j_1 is the first index
// from a with class vector C(i_1), and j_m the first index from j_(m-1) with C(i_m). Every
// class vector of the stretch occurs in each window of p consecutive indices of it, so
// j_m <= a + m·p - 1 <= a + M·p - 1; and j_m <= i_m by induction (i_m is itself a candidate).
// The order is kept (equal indices stay equal: j_m = j_(m-1) when C(i_m) = C(i_(m-1))), nodes
// outside the stretch are untouched, and every j lies inside [a, i_m], so every edge still
// holds and every value is the same. Hence dropping the indices a + M·p .. e - p of the
// stretch keeps the best total and, since the moved vector is lexicographically smaller
// whenever an index moved, the tie-break's answer (the lexicographically smallest optimal
// vector never uses a dropped index). The last p indices of each stretch stay, so the next
// stretch of the same period, which starts at least p - 1 indices before its first repeat,
// keeps all its indices and the argument applies to it in turn; the periods are applied one
// after another, each on what the previous left.
//
// Cost: one class vector per index (2·M class reads) and, per period tried, one pass over the
// indices. The problem that remains has, per stretch, M·p + p indices, whatever its length.

import type { MatchClasses, MatchProblem } from "./problem.js";
import { compressedProblem, type CompressedProblem } from "./index-compression.js";

/** Periods tried, 1..MAX_PERIOD: the loops real traffic makes are a few messages long. */
const MAX_PERIOD = 24;

/** Classes read here are below this (the evaluator's are message indices or ids of fewer). */
const CLASS_LIMIT = 2 ** 21;

/**
 * The problem over the indices that remain once every periodic stretch is cut, or null when
 * the problem has no classes or nothing would be cut.
 */
export function trimPeriodicStretches(p: MatchProblem): CompressedProblem | null {
  const classes = p.classes;
  if (!classes) return null;
  const span = p.hi - p.lo + 1;
  const vectors = classVectors(classes, p.nodeCount, p.lo, span);
  if (!vectors) return null;
  let kept: number[] = Array.from({ length: span }, (_, k) => k);
  for (let period = 1; period <= MAX_PERIOD; period++) kept = trimPeriod(kept, vectors, period, p.nodeCount);
  if (kept.length === span) return null;
  return compressedProblem(
    p,
    Int32Array.from(kept, (k) => p.lo + k),
  );
}

/**
 * A dense id per index (relative to lo), equal exactly when every node's two classes are: each
 * class read extends the id of the reads before it, one map lookup per read (classes are
 * integers >= -1 below 2^21 here, ids below 2^31, so a pair packs into one exact double). Null
 * when a class is outside that range (another caller's classes): nothing is trimmed then.
 */
function classVectors(classes: MatchClasses, nodeCount: number, lo: number, span: number): Int32Array | null {
  let memo = vectorMemos.get(classes);
  if (memo === undefined || memo.nodeCount !== nodeCount) {
    memo = { nodeCount, extended: new Map(), count: 1, byIndex: new Int32Array(0) };
    vectorMemos.set(classes, memo);
  }
  const known = memo;
  if (known.byIndex.length < lo + span) {
    const grown = new Int32Array(Math.max(lo + span, known.byIndex.length * 2)).fill(UNKNOWN);
    grown.set(known.byIndex);
    known.byIndex = grown;
  }
  const extend = (id: number, value: number): number => {
    if (!Number.isSafeInteger(value) || value < -1 || value >= CLASS_LIMIT) return -1;
    const key = id * CLASS_LIMIT + value + 1;
    let next = known.extended.get(key);
    if (next === undefined) known.extended.set(key, (next = known.count++));
    return next;
  };
  const ids = new Int32Array(span);
  for (let k = 0; k < span; k++) {
    const index = lo + k;
    let id = known.byIndex[index]!;
    if (id === UNKNOWN) {
      id = 0; // no reads yet
      for (let v = 0; v < nodeCount && id >= 0; v++) {
        id = extend(id, classes.matched(v, index));
        if (id >= 0) id = extend(id, classes.referenced(v, index));
      }
      known.byIndex[index] = id;
    }
    if (id < 0) return null;
    ids[k] = id;
  }
  return ids;
}

/**
 * Class vectors already read, per classes object: a class is a function of the node and the
 * index alone, so the prefixes of one run (prefix-evaluation.ts), which share their classes,
 * read each index's vector once. The ids stay dense and equal exactly when the vectors are.
 */
interface VectorMemo {
  readonly nodeCount: number;
  readonly extended: Map<number, number>;
  count: number;
  /** Per absolute index: its vector's id, -1 past the class limit, UNKNOWN not read yet. */
  byIndex: Int32Array;
}
const UNKNOWN = -2;
const vectorMemos = new WeakMap<MatchClasses, VectorMemo>();

/**
 * `kept` (positions in the index range, ascending) without the middle of each stretch of
 * period `period`: where the kept positions q - period .. e each repeat the one `period` before
 * from q on (a maximal such run q..e), the stretch's first nodeCount·period and its last
 * `period` positions stay. Maximal runs are separated by a position that does not repeat, so
 * the next stretch starts after this one's dropped middle and is still whole.
 */
function trimPeriod(kept: readonly number[], vectors: Int32Array, period: number, nodeCount: number): number[] {
  const n = kept.length;
  const head = nodeCount * period;
  const drop = new Uint8Array(n);
  let dropped = 0;
  const repeats = (j: number): boolean => vectors[kept[j]!] === vectors[kept[j - period]!];
  for (let q = period; q < n; q++) {
    if (!repeats(q)) continue;
    let e = q;
    while (e + 1 < n && repeats(e + 1)) e++;
    // The stretch is q - period .. e; drop (q - period + head) .. (e - period).
    for (let d = q - period + head; d <= e - period; d++) {
      drop[d] = 1;
      dropped++;
    }
    q = e;
  }
  return dropped === 0 ? (kept as number[]) : kept.filter((_, j) => drop[j] === 0);
}
