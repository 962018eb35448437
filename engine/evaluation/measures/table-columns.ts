// Which columns a compared table has and of what type: the target may only name existing
// columns, and addition/removal/update replace nulls by their column type's zero value.
import type { ColumnType, TableSchema } from "../../world/types.js";
import { TOOLSANDBOX_SCHEMAS } from "../../world/toolsandbox-tables.js";
import { SANDBOX_COLUMN_TYPES } from "./sandbox-rows.js";
import type { MeasuredRow } from "./types.js";

export type ColumnKind = ColumnType | "list";
export type ColumnKinds = Readonly<Record<string, ColumnKind>>;

/** The table's column kinds from its schema (given, SANDBOX, or a ToolSandbox table); null when unknown. */
export function tableColumnKinds(table: string, schema?: TableSchema): ColumnKinds | null {
  const known = schema ?? TOOLSANDBOX_SCHEMAS.get(table);
  if (known) return Object.fromEntries(known.columns.map((c) => [c.name, c.type]));
  return table === "SANDBOX" ? SANDBOX_COLUMN_TYPES : null;
}

/** Column names in schema order; for an unknown table, every key the rows use. */
export function tableColumns(kinds: ColumnKinds | null, rows: readonly MeasuredRow[]): readonly string[] {
  if (kinds) return Object.keys(kinds);
  return [...new Set(rows.flatMap((row) => Object.keys(row)))];
}
