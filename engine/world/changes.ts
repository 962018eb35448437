// Applying and inverting row-level changes. The trajectory reader rebuilds any snapshot from these.
import { sameCell } from "./cells.js";
import type { Row, RowChange, Tables } from "./types.js";

function tableRows(tables: Tables, table: string): Row[] {
  const rows = tables[table];
  if (!rows) throw new Error(`unknown table ${table}`);
  return rows.slice();
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
