// A mutable working copy of the world used while tools run. It records every change with its
// old values; committing hands the changes to the history. Forking is cheap (rows are shared),
// which the all-orderings check for parallel tool calls relies on.
import type { CellValue, Row, RowChange, TableSchema, Tables } from "./types.js";

export class WorldTransaction {
  private readonly current: Record<string, Row[]> = {};
  private readonly log: RowChange[] = [];

  constructor(
    private readonly base: Tables,
    readonly schemas: ReadonlyMap<string, TableSchema>,
  ) {}

  /** Rows of a table as they are now, in order. */
  rows(table: string): readonly Row[] {
    const mine = this.current[table];
    if (mine) return mine;
    const rows = this.base[table];
    if (!rows) throw new Error(`unknown table ${table}`);
    return rows;
  }

  private writable(table: string): Row[] {
    return (this.current[table] ??= this.rows(table).slice());
  }

  insert(table: string, row: Row): void {
    const rows = this.writable(table);
    const full = this.complete(table, row);
    this.log.push({ op: "insert", table, position: rows.length, row: full });
    rows.push(full);
  }

  /** Deletes the row at a position. */
  deleteAt(table: string, position: number): Row {
    const rows = this.writable(table);
    const row = rows[position];
    if (!row) throw new Error(`no row ${position} in ${table}`);
    rows.splice(position, 1);
    this.log.push({ op: "delete", table, position, row });
    return row;
  }

  /**
   * Replaces the row at `position` with `patch` applied. With `moveToEnd` the row is re-appended,
   * which is what upstream's modify_contact and modify_reminder do.
   */
  updateAt(table: string, position: number, patch: Readonly<Record<string, CellValue>>, moveToEnd = false): Row {
    const rows = this.writable(table);
    const old = rows[position];
    if (!old) throw new Error(`no row ${position} in ${table}`);
    const updated: Row = { ...old, ...patch };
    rows.splice(position, 1);
    const newPosition = moveToEnd ? rows.length : position;
    rows.splice(newPosition, 0, updated);
    this.log.push({ op: "update", table, position, new_position: newPosition, old, new: updated });
    return updated;
  }

  /** Every change made so far, in order. */
  changes(): readonly RowChange[] {
    return this.log;
  }

  /** The world as it is now. */
  tables(): Tables {
    return { ...this.base, ...this.current };
  }

  /** A new transaction starting from this one's current state, with an empty change log. */
  fork(): WorldTransaction {
    return new WorldTransaction(this.tables(), this.schemas);
  }

  /** Fills columns the caller left out with null, in schema order, so rows always have every column. */
  private complete(table: string, row: Row): Row {
    const schema = this.schemas.get(table);
    if (!schema) return row;
    const out: Record<string, CellValue> = {};
    for (const col of schema.columns) out[col.name] = row[col.name] ?? null;
    return out;
  }
}
