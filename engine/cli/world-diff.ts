// Row-level world changes as lines a person reads: "+" added rows, "-" removed rows, "~" changed
// columns with old -> new. Timestamps also show as local time in the scenario's timezone.
import { changedColumns } from "../world/changes.js";
import { toIso } from "../world/clock.js";
import { TOOLSANDBOX_SCHEMAS } from "../world/toolsandbox-tables.js";
import type { CellValue, Row, RowChange } from "../world/types.js";

export function changeLines(changes: readonly RowChange[], timezone: string): string[] {
  return changes.map((c) => changeLine(c, timezone));
}

function changeLine(c: RowChange, timezone: string): string {
  const cell = (column: string, value: CellValue | undefined): string => formatCell(c.table, column, value ?? null, timezone);
  switch (c.op) {
    case "insert":
      return `+ ${rowLabel(c.table, c.row, cell)}: ${otherColumns(c.table, c.row, cell)}`;
    case "delete":
      return `- ${rowLabel(c.table, c.row, cell)}: ${otherColumns(c.table, c.row, cell)}`;
    case "update": {
      const changed = changedColumns(c.old, c.new).map((col) => `${col} ${cell(col, c.old[col])} → ${cell(col, c.new[col])}`);
      // modify_* tools re-append the row: a move alone still changes the table (guardrails see it).
      const moved = c.new_position !== c.position ? `moved from row ${c.position} to row ${c.new_position}` : null;
      const parts = [...changed, ...(moved ? [moved] : [])];
      return `~ ${rowLabel(c.table, c.old, cell)}: ${parts.length > 0 ? parts.join(", ") : "no values changed"}`;
    }
  }
}

/** "CONTACT person_id=\"…\"": the table and the row's key column. */
function rowLabel(table: string, row: Row, cell: (column: string, value: CellValue | undefined) => string): string {
  const key = TOOLSANDBOX_SCHEMAS.get(table)?.key;
  return key && key in row ? `${table} ${key}=${cell(key, row[key])}` : table;
}

function otherColumns(table: string, row: Row, cell: (column: string, value: CellValue | undefined) => string): string {
  const key = TOOLSANDBOX_SCHEMAS.get(table)?.key;
  const columns = Object.keys(row).filter((c) => c !== key);
  return columns.length === 0 ? "(no other columns)" : columns.map((c) => `${c}=${cell(c, row[c])}`).join(", ");
}

function formatCell(table: string, column: string, value: CellValue, timezone: string): string {
  const text = JSON.stringify(value);
  const isTimestamp = TOOLSANDBOX_SCHEMAS.get(table)?.columns.find((c) => c.name === column)?.timestamp === true;
  return isTimestamp && typeof value === "number" ? `${text} (${toIso(value, timezone)})` : text;
}
