// Memoises the caller's similarity oracle: each (node, index, indices of the node's references)
// is asked once per bestMatch call, however many sweeps and partial mappings need it (past
// MEMO_LIMIT combinations of one node, possibly again: memory stays bounded). Upstream
// caches per constraint on (current index, reference index) for the same reason: a similarity
// is the expensive part (table joins, ROUGE, assignment problems), the sweep is cheap.

import { giveTable, takeTable } from "./buffers.js";

/**
 * The caller's similarity of `node` matched at message `index`. Measures that compare against a
 * referenced milestone read that milestone's matched index through `refIndex`; only nodes in the
 * node's reference list may be read, and only during the call. Must return a number in [0, 1].
 */
export type SimilarityOracle = (node: number, index: number, refIndex: (ref: number) => number) => number;

/**
 * Optionally, the same similarity for a row of consecutive indices at once: out[offset + k] =
 * similarity(node, first + k, refIndex) for k < count, the same values bit for bit. An oracle
 * whose answers are shared by runs of messages (a world table changes at a few messages) can
 * then work per run instead of per call. The matcher asks a row only for entries it has not
 * asked about yet, so each combination is still asked once.
 */
export type SimilarityRowOracle = (
  node: number,
  refIndex: (ref: number) => number,
  first: number,
  count: number,
  out: Float64Array,
  offset: number,
) => void;

/** What the strategies read similarities through: node ids local to whoever holds the lookup. */
export interface SimilarityLookup {
  /** Similarity of `node` at `index`, its references matched at `refIndices` (reference-list order). */
  get(node: number, index: number, refIndices: readonly number[]): number;
  /** out[offset + k] = get(node, first + k, refIndices) for k in 0..count-1: a row at a time. */
  fill(node: number, refIndices: readonly number[], first: number, count: number, out: Float64Array, offset: number): void;
}

/** Largest per-node flat table (doubles): 2 MiB, enough for 60 indices and two references. */
const DENSE_TABLE_LIMIT = 1 << 18;

/**
 * Most entries a memo map holds before it starts over. A Map has a hard size limit (2^24 in V8,
 * a RangeError past it) and every entry costs about 80 bytes: the problems that overflow a dense
 * table are exactly those whose combinations could overflow a map too (a 10,000-message chain
 * has 10^8). Starting over only means asking again, and the oracle is a pure function.
 */
const MEMO_LIMIT = 1 << 20;

/** Oracle calls between two looks at the progress clock. */
const ORACLE_CALLS_PER_TICK = 1 << 12;

/** A memo map with at most MEMO_LIMIT entries: full, it empties and fills again. */
export class BoundedMemo<K, V> {
  private readonly map = new Map<K, V>();

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): void {
    if (this.map.size >= MEMO_LIMIT) this.map.clear();
    this.map.set(key, value);
  }
}

export class SimilarityCache implements SimilarityLookup {
  /**
   * Per node: a flat array over (index, reference indices) when that is small (NaN = not asked
   * yet; the oracle never returns NaN), otherwise a map. Lookups are the sweep's inner loop.
   */
  private readonly dense: (Float64Array | null)[];
  private readonly sparse: BoundedMemo<number | string, number>[];
  /** Per node: whether (index, reference indices) fits a safe-integer key in base `span`. */
  private readonly numericKeys: boolean[];
  private oracleCalls = 0;
  /**
   * Per node: the reference indices of the call in progress, and the refIndex function the
   * oracle reads them through. Made once per node, not per call: the oracle runs hundreds of
   * thousands of times on long trajectories. (refIndex is only meaningful during its call.)
   */
  private readonly matched: number[][];
  private readonly readers: ((ref: number) => number)[];

  constructor(
    private readonly oracle: SimilarityOracle,
    references: readonly (readonly number[])[],
    private readonly lo: number,
    private readonly span: number,
    private readonly rowOracle: SimilarityRowOracle | null = null,
    /** Called every ORACLE_CALLS_PER_TICK oracle calls with the count so far (progress lines). */
    private readonly onCalls: ((calls: number) => void) | null = null,
  ) {
    this.numericKeys = references.map((refs) => span ** (refs.length + 1) <= Number.MAX_SAFE_INTEGER);
    this.dense = references.map((refs) => {
      const size = span ** (refs.length + 1);
      return size <= DENSE_TABLE_LIMIT ? takeTable(size).fill(NaN) : null;
    });
    this.sparse = references.map(() => new BoundedMemo());
    this.matched = references.map((refs) => new Array<number>(refs.length).fill(0));
    this.readers = references.map((refs, node) => {
      const matched = this.matched[node]!;
      return (ref: number): number => {
        const at = refs.indexOf(ref);
        if (at < 0) {
          throw new Error(`bestMatch: the similarity of node ${node} read node ${String(ref)}, which is not in its reference list`);
        }
        return matched[at]!;
      };
    });
  }

  /** Hands the dense tables back for reuse (matching-buffers.ts): the cache is not used afterwards. */
  release(): void {
    this.dense.forEach((table, node) => {
      if (table) giveTable(table);
      this.dense[node] = null;
    });
  }

  /** How many times the oracle itself has been called. */
  get calls(): number {
    return this.oracleCalls;
  }

  /** Similarity of `node` at `index`, its references matched at `refIndices` (reference-list order). */
  get(node: number, index: number, refIndices: readonly number[]): number {
    const key = this.key(node, index, refIndices);
    const dense = this.dense[node];
    if (dense) {
      const cached = dense[key as number]!;
      if (!Number.isNaN(cached)) return cached; // NaN: not asked yet
      return (dense[key as number] = this.ask(node, index, refIndices));
    }
    const sparse = this.sparse[node]!;
    const cached = sparse.get(key);
    if (cached !== undefined) return cached;
    const value = this.ask(node, index, refIndices);
    sparse.set(key, value);
    return value;
  }

  fill(node: number, refIndices: readonly number[], first: number, count: number, out: Float64Array, offset: number): void {
    const dense = this.dense[node];
    if (!dense) {
      for (let k = 0; k < count; k++) out[offset + k] = this.get(node, first + k, refIndices);
      return;
    }
    // Consecutive indices have consecutive keys (the index is the least significant digit).
    const base = this.key(node, first, refIndices) as number;
    if (this.rowOracle) this.askRuns(node, refIndices, first, count, dense, base);
    for (let k = 0; k < count; k++) {
      let value = dense[base + k]!;
      if (Number.isNaN(value)) value = dense[base + k] = this.ask(node, first + k, refIndices);
      out[offset + k] = value;
    }
  }

  private key(node: number, index: number, refIndices: readonly number[]): number | string {
    if (!this.numericKeys[node]) return `${index}:${refIndices.join(",")}`;
    let key = 0;
    for (let j = refIndices.length - 1; j >= 0; j--) key = key * this.span + (refIndices[j]! - this.lo);
    return key * this.span + (index - this.lo);
  }

  /** Asks the row oracle for each run of not yet asked entries dense[base + k], k < count, and checks the answers. */
  private askRuns(node: number, refIndices: readonly number[], first: number, count: number, dense: Float64Array, base: number): void {
    const matched = this.matched[node]!;
    for (let k = 0; k < count; ) {
      const known = dense[base + k]!;
      if (!Number.isNaN(known)) {
        k++;
        continue;
      }
      let end = k + 1;
      while (end < count && Number.isNaN(dense[base + end]!)) end++;
      for (let j = 0; j < matched.length; j++) matched[j] = refIndices[j]!;
      this.countCalls(end - k);
      this.rowOracle!(node, this.readers[node]!, first + k, end - k, dense, base + k);
      for (let j = k; j < end; j++) {
        const value = dense[base + j]!;
        if (!(value >= 0 && value <= 1)) {
          dense[base + j] = NaN;
          throw new Error(`bestMatch: similarity(node ${node}, index ${first + j}) returned ${String(value)}; expected a number in [0, 1]`);
        }
      }
      k = end;
    }
  }

  private countCalls(count: number): void {
    const before = this.oracleCalls;
    this.oracleCalls += count;
    if (this.onCalls && Math.floor(before / ORACLE_CALLS_PER_TICK) !== Math.floor(this.oracleCalls / ORACLE_CALLS_PER_TICK))
      this.onCalls(this.oracleCalls);
  }

  private ask(node: number, index: number, refIndices: readonly number[]): number {
    const matched = this.matched[node]!;
    for (let j = 0; j < matched.length; j++) matched[j] = refIndices[j]!;
    this.countCalls(1);
    const value: unknown = this.oracle(node, index, this.readers[node]!);
    if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
      throw new Error(`bestMatch: similarity(node ${node}, index ${index}) returned ${String(value)}; expected a number in [0, 1]`);
    }
    return value;
  }
}

/**
 * A component's view of the problem-wide cache: local node v is problem node nodes[v]. The
 * component's reference lists are the problem's, renumbered in the same order, so reference
 * indices pass through unchanged.
 */
export class ComponentLookup implements SimilarityLookup {
  constructor(
    private readonly cache: SimilarityLookup,
    private readonly nodes: readonly number[],
  ) {}

  get(node: number, index: number, refIndices: readonly number[]): number {
    return this.cache.get(this.nodes[node]!, index, refIndices);
  }

  fill(node: number, refIndices: readonly number[], first: number, count: number, out: Float64Array, offset: number): void {
    this.cache.fill(this.nodes[node]!, refIndices, first, count, out, offset);
  }
}
