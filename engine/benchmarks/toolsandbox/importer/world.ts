// The starting world of an exported scenario as the scenario format's `world:` section: only what
// differs from the pack's default world (upstream's base scenario, which ours reproduces), with
// every timestamp written as the time expression it stands for.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import { defaultWorld } from "../../../packs/toolsandbox/default-world.js";
import type { Paired } from "./export-data.js";
import { timeExpression, type Clock } from "./time-values.js";
import type { ImportWarning } from "./warnings.js";

const WORLD_TABLES = ["SETTING", "CONTACT", "MESSAGING", "REMINDER"] as const;

function sameRows(a: readonly JsonObject[], b: readonly JsonObject[]): boolean {
  return JSON.stringify(a.map(sortedRow)) === JSON.stringify(b.map(sortedRow));
}

function sortedRow(row: JsonObject): JsonObject {
  return Object.fromEntries(
    Object.keys(row)
      .sort()
      .map((k) => [k, row[k] ?? null]),
  );
}

/** A row with its time columns as expressions; a value that is not exact is reported. */
export function timedRow(row: Paired<JsonObject>, clocks: Paired<Clock>, warn: (message: string) => void): JsonObject {
  const out: JsonObject = {};
  for (const [column, value] of Object.entries(row.a)) {
    const other = row.b[column];
    if (typeof value === "number" && typeof other === "number" && value !== other) {
      const time = timeExpression(value, other, clocks.a, clocks.b);
      if (!time.exact)
        warn(`${column} ${value} depends on the clock in a way no time expression states; written as ${String(time.expression)}`);
      out[column] = time.expression;
    } else {
      out[column] = value;
    }
  }
  return out;
}

export function convertWorld(
  scenario: string,
  tables: Paired<Readonly<Record<string, readonly JsonObject[]>>>,
  clocks: Paired<Clock>,
  warnings: ImportWarning[],
): JsonObject {
  const defaults = { a: defaultWorld(clocks.a.now), b: defaultWorld(clocks.b.now) };
  const world: JsonObject = {};
  for (const table of WORLD_TABLES) {
    const rows = { a: tables.a[table] ?? [], b: tables.b[table] ?? [] };
    const base = { a: (defaults.a[table] ?? []) as JsonObject[], b: (defaults.b[table] ?? []) as JsonObject[] };
    if (sameRows(rows.a, base.a) && sameRows(rows.b, base.b)) continue;
    const warn = (message: string): void => void warnings.push({ scenario, construct: `starting world ${table}`, message });
    if (table === "SETTING") {
      world.SETTING = settingChanges(rows.a[0] ?? {}, base.a[0] ?? {});
      continue;
    }
    const paired = rows.a.map((row, i) => timedRow({ a: row, b: rows.b[i] ?? row }, clocks, warn));
    const keepsDefaults =
      rows.a.length >= base.a.length &&
      sameRows(rows.a.slice(0, base.a.length), base.a) &&
      sameRows(rows.b.slice(0, base.b.length), base.b);
    world[table] = keepsDefaults ? { add: paired.slice(base.a.length) } : { replace: paired };
  }
  return world;
}

function settingChanges(row: JsonObject, base: JsonObject): JsonObject {
  const changes: JsonObject = {};
  for (const [column, value] of Object.entries(row)) {
    if (JSON.stringify(value) !== JSON.stringify(base[column] ?? null)) changes[column] = value as JsonValue;
  }
  return changes;
}
