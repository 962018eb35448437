// Which columns a compared table has and of what type: the target may only name existing
// columns, and addition/removal/update replace nulls by their column type's zero value.
import type { ColumnType, TableSchema } from "../../world/types.js";
import { SANDBOX_COLUMN_TYPES } from "./sandbox-rows.js";
import type { MeasuredRow } from "./types.js";

export type ColumnKind = ColumnType | "list";
export type ColumnKinds = Readonly<Record<string, ColumnKind>>;

/** The table's column kinds from its schema (the scenario pack's), or SANDBOX's; null when unknown. */
const kindsOf = new WeakMap<TableSchema, ColumnKinds>();

export function tableColumnKinds(table: string, schema?: TableSchema): ColumnKinds | null {
  if (schema) {
    let kinds = kindsOf.get(schema);
    if (!kinds) kindsOf.set(schema, (kinds = Object.fromEntries(schema.columns.map((c) => [c.name, c.type]))));
    return kinds;
  }
  return table === "SANDBOX" ? SANDBOX_COLUMN_TYPES : null;
}

/** Column lists by kinds object: the same SANDBOX kinds are asked about for every compared message. */
const columnsOf = new WeakMap<ColumnKinds, readonly string[]>();

/** Column names in schema order; for an unknown table, every key the rows use. Never modified by callers. */
export function tableColumns(kinds: ColumnKinds | null, rows: readonly MeasuredRow[]): readonly string[] {
  if (kinds) {
    let columns = columnsOf.get(kinds);
    if (!columns) columnsOf.set(kinds, (columns = Object.keys(kinds)));
    return columns;
  }
  return [...new Set(rows.flatMap((row) => Object.keys(row)))];
}

const setOf = new WeakMap<readonly string[], ReadonlySet<string>>();

/** The columns as a set, one per column list (see tableColumns). */
export function columnSet(columns: readonly string[]): ReadonlySet<string> {
  let set = setOf.get(columns);
  if (!set) setOf.set(columns, (set = new Set(columns)));
  return set;
}
