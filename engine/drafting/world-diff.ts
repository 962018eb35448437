// The run's starting world written as an author writes a scenario's `world:` section: only what
// differs from the pack's default world at the same clock. A singleton table (SETTING) gets the
// columns that differ; any other table gets `remove`, `update` and `add`, which the checker applies
// in that order. The changes are replayed here the way the checker applies them, and a table they
// do not rebuild exactly (rows in another order, say) is written whole with `replace` instead, so
// the draft always starts from the run's world, row for row.
import type { JsonObject, JsonValue } from "../base/json.js";
import { cellJson, sameCell, sameRow } from "../world/cells.js";
import type { CellValue, Row, TableSchema, Tables } from "../world/types.js";
import { timeText } from "./time-text.js";

interface WorldDiff {
  /** The `world:` section (the pack included when it is not the default), or null when nothing differs. */
  readonly section: JsonObject | null;
  /** One line per table that had to be written whole. */
  readonly notes: readonly string[];
}

interface TableEdit {
  readonly remove: Row[];
  readonly update: { readonly where: Row; readonly set: Row }[];
  readonly add: Row[];
}

export function worldDiff(
  pack: string,
  schemas: ReadonlyMap<string, TableSchema>,
  defaults: Tables,
  world: Tables,
  now: number,
  isDefaultPack: boolean,
): WorldDiff {
  const section: Record<string, JsonValue> = isDefaultPack ? {} : { pack };
  const notes: string[] = [];
  for (const schema of schemas.values()) {
    const base = defaults[schema.name] ?? [];
    const rows = world[schema.name] ?? [];
    if (base.length === rows.length && base.every((r, i) => sameRow(r, rows[i]!))) continue;
    if (schema.singleton && base.length === 1 && rows.length === 1) {
      section[schema.name] = cellsText(schema, changedCells(base[0]!, rows[0]!), now);
      continue;
    }
    const edit = tableEdit(schema, base, rows);
    if (edit !== null && sameRows(applyEdit(base, edit), rows)) {
      section[schema.name] = editText(schema, edit, now);
    } else {
      section[schema.name] = { replace: rows.map((r) => rowText(schema, r, now)) };
      notes.push(`world ${schema.name}: written whole (replace), since its rows differ from the default world in order as well`);
    }
  }
  return { section: Object.keys(section).length === 0 ? null : section, notes };
}

function changedCells(before: Row, after: Row): Row {
  return Object.fromEntries(Object.entries(after).filter(([c, v]) => !sameCell(before[c], v)));
}

/** Rows of the default that are gone, rows whose key stayed but cells changed, rows that are new. */
function tableEdit(schema: TableSchema, base: readonly Row[], rows: readonly Row[]): TableEdit | null {
  const key = schema.key;
  const remaining = [...rows];
  const take = (match: (r: Row) => boolean): Row | null => {
    const i = remaining.findIndex(match);
    return i < 0 ? null : remaining.splice(i, 1)[0]!;
  };
  const edit: TableEdit = { remove: [], update: [], add: [] };
  for (const row of base) {
    if (take((r) => sameRow(r, row)) !== null) continue;
    const changed = take((r) => sameCell(r[key], row[key]));
    if (changed === null) edit.remove.push(whereFor(schema, base, row));
    else edit.update.push({ where: whereFor(schema, base, row), set: changedCells(row, changed) });
  }
  edit.add.push(...remaining);
  return edit;
}

/** The key alone when it picks one row of the default; else the key and the columns that tell it apart. */
function whereFor(schema: TableSchema, base: readonly Row[], row: Row): Row {
  const where: Record<string, CellValue> = { [schema.key]: row[schema.key] ?? null };
  for (const column of schema.columns) {
    if (base.filter((r) => Object.entries(where).every(([c, v]) => sameCell(r[c], v))).length <= 1) break;
    if (column.name !== schema.key) where[column.name] = row[column.name] ?? null;
  }
  return where;
}

/** The edit applied as the checker applies it: remove, then update in place, then add at the end. */
function applyEdit(base: readonly Row[], edit: TableEdit): Row[] {
  const matches = (where: Row) => (r: Row) => Object.entries(where).every(([c, v]) => sameCell(r[c], v));
  let rows = [...base];
  for (const where of edit.remove) rows = rows.filter((r) => !matches(where)(r));
  for (const { where, set } of edit.update) rows = rows.map((r) => (matches(where)(r) ? { ...r, ...set } : r));
  return [...rows, ...edit.add];
}

const sameRows = (a: readonly Row[], b: readonly Row[]): boolean => a.length === b.length && a.every((r, i) => sameRow(r, b[i]!));

function editText(schema: TableSchema, edit: TableEdit, now: number): JsonObject {
  const out: Record<string, JsonValue> = {};
  if (edit.remove.length > 0) out.remove = edit.remove.map((where) => ({ where: cellsText(schema, where, now) }));
  if (edit.update.length > 0)
    out.update = edit.update.map(({ where, set }) => ({ where: cellsText(schema, where, now), set: cellsText(schema, set, now) }));
  if (edit.add.length > 0) out.add = edit.add.map((r) => rowText(schema, r, now));
  return out;
}

/** A new row: every column, but nullable ones left at null (their default) are left out. */
function rowText(schema: TableSchema, row: Row, now: number): JsonObject {
  const kept = Object.fromEntries(
    schema.columns.filter((c) => !(c.nullable && (row[c.name] ?? null) === null)).map((c) => [c.name, row[c.name] ?? null]),
  );
  return cellsText(schema, kept, now);
}

/** Cells in the table's column order, timestamps relative to now. */
export function cellsText(schema: TableSchema, cells: Row, now: number): JsonObject {
  const out: Record<string, JsonValue> = {};
  for (const column of schema.columns) {
    if (!(column.name in cells)) continue;
    const value = cells[column.name] ?? null;
    out[column.name] = column.timestamp && typeof value === "number" ? timeText(value, now) : cellJson(value);
  }
  return out;
}
