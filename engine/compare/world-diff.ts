// Row-level world changes as lines a person reads: "+" added rows, "-" removed rows, "~" changed
// columns with old -> new. Rows are labelled by their table's key in the scenario's pack;
// timestamps also show as local time in the scenario's timezone; a list cell prints as JSON.
import { changedColumns } from "../world/changes.js";
import { toIso } from "../world/clock.js";
import type { CellValue, Row, RowChange, TableSchema } from "../world/types.js";

type Schemas = ReadonlyMap<string, TableSchema>;

/** `schemas`: the world tables of the scenario's pack. */
export function changeLines(changes: readonly RowChange[], timezone: string, schemas: Schemas): string[] {
  return changes.map((c) => changeLine(c, timezone, schemas));
}

function changeLine(c: RowChange, timezone: string, schemas: Schemas): string {
  const schema = schemas.get(c.table);
  const cell = (column: string, value: CellValue | undefined): string => formatCell(schema, column, value ?? null, timezone);
  switch (c.op) {
    case "insert":
      return `+ ${rowLabel(c.table, schema, c.row, cell)}: ${otherColumns(schema, c.row, cell)}`;
    case "delete":
      return `- ${rowLabel(c.table, schema, c.row, cell)}: ${otherColumns(schema, c.row, cell)}`;
    case "update": {
      const changed = changedColumns(c.old, c.new).map((col) => `${col} ${cell(col, c.old[col])} → ${cell(col, c.new[col])}`);
      // modify_* tools re-append the row: a move alone still changes the table (guardrails see it).
      const moved = c.new_position !== c.position ? `moved from row ${c.position} to row ${c.new_position}` : null;
      const parts = [...changed, ...(moved ? [moved] : [])];
      return `~ ${rowLabel(c.table, schema, c.old, cell)}: ${parts.length > 0 ? parts.join(", ") : "no values changed"}`;
    }
  }
}

/** "CONTACT person_id=\"…\"": the table and the row's key column. */
function rowLabel(
  table: string,
  schema: TableSchema | undefined,
  row: Row,
  cell: (column: string, value: CellValue | undefined) => string,
): string {
  const key = schema?.key;
  return key && key in row ? `${table} ${key}=${cell(key, row[key])}` : table;
}

function otherColumns(schema: TableSchema | undefined, row: Row, cell: (column: string, value: CellValue | undefined) => string): string {
  const key = schema?.key;
  const columns = Object.keys(row).filter((c) => c !== key);
  return columns.length === 0 ? "(no other columns)" : columns.map((c) => `${c}=${cell(c, row[c])}`).join(", ");
}

function formatCell(schema: TableSchema | undefined, column: string, value: CellValue, timezone: string): string {
  const text = JSON.stringify(value);
  const isTimestamp = schema?.columns.find((c) => c.name === column)?.timestamp === true;
  return isTimestamp && typeof value === "number" ? `${text} (${toIso(value, timezone)})` : text;
}
