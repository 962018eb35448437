// The `world:` section resolved into the initial tables: the default world at the clock's now
// (or an empty one), then per table replace, remove, update, add, in that order.
import type { CellValue, ColumnSchema, Row, TableSchema, Tables } from "../world/types.js";
import { defaultWorld, uuid5 } from "../world/default-world.js";
import { TOOLSANDBOX_SCHEMAS } from "../world/toolsandbox-tables.js";
import type { CheckContext } from "./check-context.js";
import { findColumn, resolveCell } from "./cells.js";
import { list, obj, str, type RawObject } from "./raw.js";
import { closestMatch, didYouMean } from "./suggest.js";
import type { Path } from "./yaml-source.js";

/** Tables a scenario edits row by row; SETTING always has its one row and is edited in place. */
export const ROW_TABLES = ["CONTACT", "MESSAGING", "REMINDER"] as const;

export function resolveWorld(ctx: CheckContext, raw: unknown): Tables {
  const world = obj(raw);
  const base = defaultWorld(ctx.clock.now);
  const tables: Record<string, Row[]> = {};
  for (const [name, rows] of Object.entries(base)) tables[name] = str(world?.base) === "empty" && name !== "SETTING" ? [] : [...rows];
  applySetting(ctx, tables, world?.SETTING);
  for (const name of ROW_TABLES) {
    const schema = TOOLSANDBOX_SCHEMAS.get(name);
    const changes = obj(world?.[name]);
    if (schema && changes) tables[name] = applyTableChanges(ctx, schema, tables[name] ?? [], changes, ["world", name]);
  }
  return tables;
}

function applySetting(ctx: CheckContext, tables: Record<string, Row[]>, raw: unknown): void {
  const changes = obj(raw);
  const schema = TOOLSANDBOX_SCHEMAS.get("SETTING");
  const row = tables.SETTING?.[0];
  if (!changes || !schema || !row) return;
  const updated = { ...row, ...resolveValues(ctx, schema, changes, ["world", "SETTING"]) };
  tables.SETTING = [updated];
}

function applyTableChanges(ctx: CheckContext, schema: TableSchema, start: readonly Row[], changes: RawObject, path: Path): Row[] {
  let rows = [...start];
  let added = 0;
  const newRow = (raw: unknown, rowPath: Path): Row | null => completeRow(ctx, schema, raw, rowPath, ++added);
  if (Array.isArray(changes.replace)) {
    rows = changes.replace.map((r, i) => newRow(r, [...path, "replace", i])).filter((r): r is Row => r !== null);
  }
  list(changes.remove).forEach((item, i) => {
    const where = condition(ctx, schema, rows, obj(item)?.where, [...path, "remove", i, "where"]);
    if (where) rows = rows.filter((r) => !where(r));
  });
  list(changes.update).forEach((item, i) => {
    const where = condition(ctx, schema, rows, obj(item)?.where, [...path, "update", i, "where"]);
    const set = obj(obj(item)?.set);
    if (!where || !set) return;
    const values = resolveValues(ctx, schema, set, [...path, "update", i, "set"]);
    rows = rows.map((r) => (where(r) ? { ...r, ...values } : r));
  });
  list(changes.add).forEach((item, i) => {
    const row = newRow(item, [...path, "add", i]);
    if (row) rows.push(row);
  });
  return rows;
}

/** Checked, resolved column values of a mapping; unknown or ill-typed columns are reported and left out. */
function resolveValues(ctx: CheckContext, schema: TableSchema, raw: RawObject, path: Path): Record<string, CellValue> {
  const out: Record<string, CellValue> = {};
  for (const [name, value] of Object.entries(raw)) {
    const column = findColumn(ctx, [...path, name], schema.name, schema.columns, name);
    if (!column) continue;
    const resolved = resolveCell(ctx, [...path, name], column, value);
    if (resolved !== undefined) out[name] = resolved;
  }
  return out;
}

/** A full row from the columns given plus defaults; null (after reporting) when a required column is missing. */
function completeRow(ctx: CheckContext, schema: TableSchema, raw: unknown, path: Path, n: number): Row | null {
  const given = obj(raw);
  if (!given) return null;
  const values = resolveValues(ctx, schema, given, path);
  const row: Record<string, CellValue> = {};
  const missing: string[] = [];
  for (const column of schema.columns) {
    const value = column.name in given ? values[column.name] : defaultValue(ctx, schema, column, values, n);
    if (value !== undefined) row[column.name] = value;
    else if (!(column.name in given)) missing.push(column.name);
  }
  if (missing.length > 0) {
    const names = missing.map((m) => `"${m}"`).join(", ");
    ctx.reporter.report(path, "missing-column", `A new ${schema.name} row needs ${names}.`, { data: { insert: missing[0] ?? "" } });
    return null;
  }
  return Object.keys(row).length === schema.columns.length ? row : null;
}

/**
 * Defaults for a new row: ids derived deterministically (person_id from the name, as upstream
 * does; other ids from the scenario name, table and the row's 1-based position among added
 * rows), creation_timestamp = now, is_self = false, nullable columns null.
 */
function defaultValue(ctx: CheckContext, schema: TableSchema, column: ColumnSchema, row: Readonly<Record<string, CellValue>>, n: number): CellValue | undefined {
  if (column.name === schema.key) {
    if (schema.name === "CONTACT") return typeof row.name === "string" ? uuid5(row.name) : undefined;
    return uuid5(`${ctx.scenarioName}:${schema.name}:${n}`);
  }
  if (column.name === "creation_timestamp") return ctx.clock.now;
  if (column.name === "is_self") return false;
  return column.nullable ? null : undefined;
}

/** A row predicate for a `where` mapping; warns when it selects no row (surely not what was meant). */
function condition(ctx: CheckContext, schema: TableSchema, rows: readonly Row[], raw: unknown, path: Path): ((row: Row) => boolean) | null {
  const where = obj(raw);
  if (!where || Object.keys(where).length === 0) return null;
  const values = resolveValues(ctx, schema, where, path);
  if (Object.keys(values).length !== Object.keys(where).length) return null;
  const matches = (row: Row) => Object.entries(values).every(([k, v]) => row[k] === v);
  if (!rows.some(matches)) {
    const entries = Object.entries(values);
    const [column, value] = entries[0] ?? [];
    const single = entries.length === 1 && typeof value === "string" && column !== undefined;
    const suggestion = single ? closestMatch(value, rows.map((r) => r[column]).filter((v): v is string => typeof v === "string")) : null;
    const what = single ? `has ${column} "${value}"` : "matches this condition";
    ctx.reporter.report(single ? [...path, column] : path, "where-no-match", `No ${schema.name} row ${what}.${didYouMean(suggestion)}`, {
      severity: "warning",
      data: suggestion === null ? undefined : { suggestion },
    });
  }
  return matches;
}
