// Applying and inverting row-level changes. The trajectory reader rebuilds any snapshot from these.
import { sameCell, sameRow } from "./cells.js";
import type { Row, RowChange, Tables } from "./types.js";

function tableRows(tables: Tables, table: string): Row[] {
  const rows = tables[table];
  if (!rows) throw new Error(`unknown table ${table}`);
  return rows.slice();
}

/**
 * Why `change` cannot apply to `tables`, or null when it can: what a reader of recorded changes
 * (a trajectory file, a panel's lines) checks before it applies one. A table name is looked up
 * among the tables' own keys only ("__proto__" names no table).
 */
export function changeConflict(tables: Tables, change: RowChange): string | null {
  const rows = Object.hasOwn(tables, change.table) ? tables[change.table] : undefined;
  if (!rows) return `there is no table ${change.table}`;
  const at = rows[change.position];
  switch (change.op) {
    case "insert":
      return change.position <= rows.length ? null : `the table has only ${rows.length} rows`;
    case "delete":
      if (!at) return `the table has only ${rows.length} rows`;
      return sameRow(at, change.row) ? null : "the deleted row differs from the row at that position";
    case "update":
      if (!at) return `the table has only ${rows.length} rows`;
      if (!sameRow(at, change.old)) return "the old values differ from the row at that position";
      return change.new_position < rows.length ? null : `new position ${change.new_position} is past the end of the table`;
  }
}

/** Applies changes in order and returns new tables; the input is not modified (rows are shared). */
export function applyChanges(tables: Tables, changes: readonly RowChange[]): Tables {
  const out: Record<string, Row[]> = {};
  const touched = (t: string): Row[] => (out[t] ??= tableRows(tables, t));
  for (const c of changes) {
    const rows = touched(c.table);
    switch (c.op) {
      case "insert":
        rows.splice(c.position, 0, c.row);
        break;
      case "delete":
        rows.splice(c.position, 1);
        break;
      case "update":
        rows.splice(c.position, 1);
        rows.splice(c.new_position, 0, c.new);
        break;
    }
  }
  return { ...tables, ...out };
}

/** The changes that undo `changes` (applied after them). */
export function invertChanges(changes: readonly RowChange[]): RowChange[] {
  return changes
    .slice()
    .reverse()
    .map((c): RowChange => {
      if (c.op === "insert") return { op: "delete", table: c.table, position: c.position, row: c.row };
      if (c.op === "delete") return { op: "insert", table: c.table, position: c.position, row: c.row };
      return { op: "update", table: c.table, position: c.new_position, new_position: c.position, old: c.new, new: c.old };
    });
}

/** Columns whose values differ between two versions of a row (for readable diffs); lists compare by their items. */
export function changedColumns(oldRow: Row, newRow: Row): string[] {
  const cols = new Set([...Object.keys(oldRow), ...Object.keys(newRow)]);
  return [...cols].filter((c) => !sameCell(oldRow[c] ?? null, newRow[c] ?? null));
}
