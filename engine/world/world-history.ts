// The world at every message index. Like upstream, a snapshot exists only at the indices where
// something changed; reading index i returns the latest snapshot at or before i. Changes made
// while answering the messages up to index k are recorded at k + 1, the index of the first
// response message.
import type { RowChange, TableSchema, Tables } from "./types.js";

interface Snapshot {
  readonly index: number;
  readonly tables: Tables;
  /** The changes that turned the previous snapshot into this one (empty for the initial one). */
  readonly changes: readonly RowChange[];
}

export class WorldHistory {
  private readonly snapshots: Snapshot[];

  constructor(
    readonly schemas: ReadonlyMap<string, TableSchema>,
    initial: Tables,
  ) {
    this.snapshots = [{ index: 0, tables: initial, changes: [] }];
  }

  /** The world at message `index`: the latest snapshot whose index is at most `index`. */
  at(index: number): Tables {
    return this.snapshotAt(index).tables;
  }

  snapshotAt(index: number): Snapshot {
    let lo = 0;
    let hi = this.snapshots.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.snapshots[mid]!.index <= index) lo = mid;
      else hi = mid - 1;
    }
    return this.snapshots[lo]!;
  }

  latest(): Snapshot {
    return this.snapshots[this.snapshots.length - 1]!;
  }

  /** Every stored snapshot in index order. */
  all(): readonly Snapshot[] {
    return this.snapshots;
  }

  /** Records the state after `changes` at `index`. Several commits at one index merge. */
  commit(index: number, tables: Tables, changes: readonly RowChange[]): void {
    if (changes.length === 0) return;
    const last = this.latest();
    if (index < last.index) throw new Error(`snapshot ${index} is older than the latest (${last.index})`);
    if (index === last.index && index !== 0) {
      this.snapshots[this.snapshots.length - 1] = { index, tables, changes: [...last.changes, ...changes] };
    } else {
      this.snapshots.push({ index, tables, changes });
    }
  }
}
