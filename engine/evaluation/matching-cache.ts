// Memoises the caller's similarity oracle: each (node, index, indices of the node's references)
// is asked once per bestMatch call, however many sweeps and partial mappings need it. Upstream
// caches per constraint on (current index, reference index) for the same reason: a similarity
// is the expensive part (table joins, ROUGE, assignment problems), the sweep is cheap.

/**
 * The caller's similarity of `node` matched at message `index`. Measures that compare against a
 * referenced milestone read that milestone's matched index through `refIndex`; only nodes in the
 * node's reference list may be read. Must return a number in [0, 1].
 */
export type SimilarityOracle = (node: number, index: number, refIndex: (ref: number) => number) => number;

/** Largest per-node flat table (doubles): 2 MiB, enough for 60 indices and two references. */
const DENSE_TABLE_LIMIT = 1 << 18;

export class SimilarityCache {
  /**
   * Per node: a flat array over (index, reference indices) when that is small (NaN = not asked
   * yet; the oracle never returns NaN), otherwise a map. Lookups are the sweep's inner loop.
   */
  private readonly dense: (Float64Array | null)[];
  private readonly sparse: Map<number | string, number>[];
  /** Per node: whether (index, reference indices) fits a safe-integer key in base `span`. */
  private readonly numericKeys: boolean[];
  private oracleCalls = 0;

  constructor(
    private readonly oracle: SimilarityOracle,
    private readonly references: readonly (readonly number[])[],
    private readonly lo: number,
    private readonly span: number,
  ) {
    this.numericKeys = references.map((refs) => span ** (refs.length + 1) <= Number.MAX_SAFE_INTEGER);
    this.dense = references.map((refs) => {
      const size = span ** (refs.length + 1);
      return size <= DENSE_TABLE_LIMIT ? new Float64Array(size).fill(NaN) : null;
    });
    this.sparse = references.map(() => new Map());
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
      if (cached === cached) return cached; // not NaN
      return (dense[key as number] = this.ask(node, index, refIndices));
    }
    const sparse = this.sparse[node]!;
    const cached = sparse.get(key);
    if (cached !== undefined) return cached;
    const value = this.ask(node, index, refIndices);
    sparse.set(key, value);
    return value;
  }

  private key(node: number, index: number, refIndices: readonly number[]): number | string {
    if (!this.numericKeys[node]) return `${index}:${refIndices.join(",")}`;
    let key = 0;
    for (let j = refIndices.length - 1; j >= 0; j--) key = key * this.span + (refIndices[j]! - this.lo);
    return key * this.span + (index - this.lo);
  }

  private ask(node: number, index: number, refIndices: readonly number[]): number {
    const refs = this.references[node]!;
    const matched = refIndices.slice();
    const refIndex = (ref: number): number => {
      const at = refs.indexOf(ref);
      if (at < 0) {
        throw new Error(`bestMatch: the similarity of node ${node} read node ${String(ref)}, which is not in its reference list`);
      }
      return matched[at]!;
    };
    this.oracleCalls++;
    const value: unknown = this.oracle(node, index, refIndex);
    if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
      throw new Error(`bestMatch: similarity(node ${node}, index ${index}) returned ${String(value)}; expected a number in [0, 1]`);
    }
    return value;
  }
}
