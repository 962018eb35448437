// The `world:` section resolved into the initial tables: the pack's default world at the clock's
// now (or its empty one), then per table: a singleton table's columns set in place; any other
// table's replace, remove, update, add, in that order. Table names are the pack's.
import { sameCell } from "../world/cells.js";
import type { CellValue, ColumnSchema, Row, TableSchema, Tables } from "../world/types.js";
import { uuid5 } from "../world/ids.js";
import type { CheckContext } from "./check-context.js";
import { findColumn, resolveCell } from "./cells.js";
import { lookupTable, looksLikeTable, SANDBOX } from "./pack-tables.js";
import { list, obj, str, type RawObject } from "./raw.js";
import { closestMatch, didYouMean, listOf } from "./suggest.js";
import type { Path } from "./yaml-source.js";

/** Keys of the world section that are not tables. */
const WORLD_KEYS = ["base", "pack"] as const;
/** How a table that is not a singleton is changed. */
const CHANGE_KEYS = ["replace", "remove", "update", "add"] as const;

export function resolveWorld(ctx: CheckContext, raw: unknown): Tables {
  const world = obj(raw);
  const base = str(world?.base) === "empty" ? ctx.pack.emptyWorld(ctx.clock.now) : ctx.pack.defaultWorld(ctx.clock.now);
  const tables: Record<string, Row[]> = {};
  for (const [name, rows] of Object.entries(base)) tables[name] = [...rows];
  const sections = new Map<TableSchema, RawObject>();
  for (const [name, value] of Object.entries(world ?? {})) {
    // Other keys are left to the schema ("Unknown key", with `base` or `pack` suggested).
    if ((WORLD_KEYS as readonly string[]).includes(name) || !looksLikeTable(ctx.pack, name)) continue;
    const schema = lookupTable(ctx, ["world", name], name, { sandbox: false, anchor: "key" });
    const changes = obj(value);
    if (schema !== null && schema !== SANDBOX && changes) sections.set(schema, changes);
  }
  // The pack's table order, whatever order the file uses: ids of added rows do not depend on it.
  for (const schema of ctx.pack.schemas.values()) {
    const changes = sections.get(schema);
    if (!changes) continue;
    const path: Path = ["world", schema.name];
    if (schema.singleton) applySingleton(ctx, schema, tables, changes, path);
    else if (isChangeList(ctx, schema, changes, path))
      tables[schema.name] = applyTableChanges(ctx, schema, tables[schema.name] ?? [], changes, path);
  }
  return tables;
}

/** A singleton table's one row, with the columns given set in place. */
function applySingleton(ctx: CheckContext, schema: TableSchema, tables: Record<string, Row[]>, changes: RawObject, path: Path): void {
  const misplaced = Object.keys(changes).find((k) => (CHANGE_KEYS as readonly string[]).includes(k));
  if (misplaced !== undefined) {
    ctx.reporter.report(
      [...path, misplaced],
      "singleton-table-change",
      `${schema.name} always has exactly one row: set its columns directly (\`${schema.name}: { column: value }\`).`,
      { anchor: "key" },
    );
    return;
  }
  const row = tables[schema.name]?.[0];
  if (!row) return;
  tables[schema.name] = [{ ...row, ...resolveValues(ctx, schema, changes, path) }];
}

/** False (after reporting) when a table that has rows is written like a singleton's columns. */
function isChangeList(ctx: CheckContext, schema: TableSchema, changes: RawObject, path: Path): boolean {
  const wrong = Object.keys(changes).filter((k) => !(CHANGE_KEYS as readonly string[]).includes(k));
  for (const key of wrong) {
    const suggestion = closestMatch(key, CHANGE_KEYS);
    const hint = suggestion !== null ? didYouMean(suggestion) : ` Use ${listOf(CHANGE_KEYS)}.`;
    ctx.reporter.report(
      [...path, key],
      "table-change-key",
      `${schema.name} is changed row by row with ${listOf(CHANGE_KEYS)}, not "${key}".${hint}`,
      {
        anchor: "key",
        data: suggestion === null ? undefined : { suggestion },
      },
    );
  }
  return wrong.length === 0;
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
 * Defaults for a new row: first the pack's own (ToolSandbox: person_id from the name, as upstream
 * does); then a string key derived from the scenario name, table and the row's 1-based position
 * among added rows; nullable columns null.
 */
function defaultValue(
  ctx: CheckContext,
  schema: TableSchema,
  column: ColumnSchema,
  row: Readonly<Record<string, CellValue>>,
  n: number,
): CellValue | undefined {
  const own = ctx.pack.newRowDefault?.(schema, column, row, { scenarioName: ctx.scenarioName, now: ctx.clock.now, n });
  if (own !== undefined) return own;
  if (column.name === schema.key && column.type === "string") return uuid5(`${ctx.scenarioName}:${schema.name}:${n}`);
  return column.nullable ? null : undefined;
}

/** A row predicate for a `where` mapping; warns when it selects no row (surely not what was meant). */
function condition(ctx: CheckContext, schema: TableSchema, rows: readonly Row[], raw: unknown, path: Path): ((row: Row) => boolean) | null {
  const where = obj(raw);
  if (!where || Object.keys(where).length === 0) return null;
  const values = resolveValues(ctx, schema, where, path);
  if (Object.keys(values).length !== Object.keys(where).length) return null;
  const matches = (row: Row) => Object.entries(values).every(([k, v]) => sameCell(row[k], v));
  if (!rows.some(matches)) {
    const entries = Object.entries(values);
    const [column, value] = entries[0] ?? [];
    const single = entries.length === 1 && typeof value === "string" && column !== undefined;
    const suggestion = single
      ? closestMatch(
          value,
          rows.map((r) => r[column]).filter((v): v is string => typeof v === "string"),
        )
      : null;
    const what = single ? `has ${column} "${value}"` : "matches this condition";
    ctx.reporter.report(single ? [...path, column] : path, "where-no-match", `No ${schema.name} row ${what}.${didYouMean(suggestion)}`, {
      severity: "warning",
      data: suggestion === null ? undefined : { suggestion },
    });
  }
  return matches;
}
