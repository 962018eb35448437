// Values from the scenario's starting world that a column or argument expects, as the document's
// world pack says where to find them (ToolSandbox: contact person ids labelled with the name,
// reminder and message ids with their content, phone numbers, names); plus roles, booleans and
// time expressions where those fit.
import type { PackTables, ValueSource } from "../../engine/packs/types.js";
import { Reporter } from "../../engine/scenario/check-context.js";
import { obj } from "../../engine/scenario/raw.js";
import { resolveClock } from "../../engine/scenario/scenario-clock.js";
import { resolveWorld } from "../../engine/scenario/world-resolution.js";
import { ROLE_NAMES } from "../../engine/episode/types.js";
import type { Row, Tables } from "../../engine/world/types.js";
import type { ScenarioDocument } from "./document.js";

export interface SuggestedValue {
  readonly value: string | number | boolean;
  /** Shown next to the value: the contact's name, the reminder's text. */
  readonly detail?: string;
  readonly kind: "id" | "enum" | "time";
  /** The table the value comes from. */
  readonly table?: string;
}

/** The starting world of the scenario as written so far (the pack's default world when it cannot be read). */
function startingWorld(doc: ScenarioDocument): Tables {
  try {
    const resolved = doc.check.scenario?.world.tables;
    if (resolved) return resolved;
    const root = obj(doc.source.value);
    if (root) {
      // The scenario has errors: apply its world section anyway, with the problems discarded.
      const reporter = new Reporter(doc.source);
      const clock = resolveClock(reporter, root.clock);
      return resolveWorld(
        { reporter, clock, scenarioName: typeof root.name === "string" ? root.name : "scenario", pack: doc.pack, prompts: null },
        root.world,
      );
    }
  } catch {
    // fall back to the default world below
  }
  return doc.pack.defaultWorld(0);
}

/** The pack's sources; without any, each table's key column. */
function valueSources(pack: PackTables): readonly ValueSource[] {
  return pack.valueSources ?? [...pack.schemas.values()].map((t) => ({ match: { suffix: t.key }, table: t.name, column: t.key }));
}

/** Where a value is written: a column of `table`, or an argument of `tool`. */
interface ValuePlace {
  readonly table?: string;
  readonly tool?: string;
}

/** The source for a column or argument named `name` at `place`. */
function sourceFor(pack: PackTables, name: string, place: ValuePlace): ValueSource | null {
  for (const source of valueSources(pack)) {
    const { match } = source;
    if ("suffix" in match ? name.endsWith(match.suffix) : name === match.exact && exactPlaceFits(match.only, source.table, place))
      return source;
  }
  return null;
}

function exactPlaceFits(only: readonly string[] | undefined, sourceTable: string, { table, tool }: ValuePlace): boolean {
  if (only !== undefined) return table !== undefined ? only.includes(table) : tool !== undefined && only.includes(tool);
  return table === undefined || table === sourceTable;
}

const TIME_EXAMPLES: readonly string[] = ["now", "now + 1h", "now - 1d", "today 18:00", "tomorrow 09:00", "next friday 17:00"];

/**
 * Values for a column or argument named `name` (of `table` when known). `isTimestamp` and
 * `isBoolean` come from the column or parameter type.
 */
export function suggestedValues(
  doc: ScenarioDocument,
  name: string,
  options: ValuePlace & { timestamp?: boolean; boolean?: boolean; role?: boolean },
): SuggestedValue[] {
  if (options.role) return ROLE_NAMES.map((r) => ({ value: r, kind: "enum" }));
  if (options.boolean) return [true, false].map((b) => ({ value: b, kind: "enum" }));
  if (options.timestamp) return TIME_EXAMPLES.map((t) => ({ value: t, kind: "time" }));
  const wanted = sourceFor(doc.pack, name, options);
  if (wanted === null) return [];
  const rows: readonly Row[] = startingWorld(doc)[wanted.table] ?? [];
  const seen = new Set<string>();
  const out: SuggestedValue[] = [];
  for (const row of rows) {
    const value = row[wanted.column];
    if (typeof value !== "string" || seen.has(value)) continue;
    seen.add(value);
    const label = wanted.label === undefined ? undefined : row[wanted.label];
    out.push({ value, kind: "id", table: wanted.table, ...(typeof label === "string" ? { detail: label } : {}) });
  }
  return out;
}

/** The world row an id or phone number names, for hover: "Homer S (CONTACT)". */
export function describeWorldValue(doc: ScenarioDocument, name: string, value: string, place: ValuePlace): string | null {
  const match = suggestedValues(doc, name, place).find((v) => v.value === value);
  if (match?.detail === undefined) return null;
  return `${match.detail} (${match.table ?? "world"} row)`;
}
