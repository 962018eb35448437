// The building blocks mutants and variants are made of: a reference made playable again after an
// edit, plausible wrong values of an argument's kind, and arguments for a call the reference never
// makes. All choices are deterministic: the first candidate in the world's row order.
import type { JsonValue } from "../base/json.js";
import { packTables } from "../packs/tables.js";
import type { ReferenceCall, ReferenceStep, Scenario } from "../scenario/model.js";
import type { ToolDefinition, ToolParameter } from "../tools/types.js";
import { type ReferenceFacts, rowIsNamed, worldTables } from "./reference-facts.js";

/** What a wrong agent says when it has nothing to say: no value, no question. */
export const NEUTRAL_REPLY = "Done.";

/**
 * The steps in a playable order: the agent speaks first, after the user and after its own calls'
 * results; the user speaks after the agent's text. Where the agent is to speak but the next step
 * is the user's, the agent says NEUTRAL_REPLY. Where the user is to speak but the next step is the
 * agent's, no user could be scripted: null.
 */
export function playable(steps: readonly ReferenceStep[]): ReferenceStep[] | null {
  const out: ReferenceStep[] = [];
  let agentSpeaks = true;
  for (const step of steps) {
    const agentStep = step.kind === "agent_text" || step.kind === "agent_calls";
    if (agentSpeaks && !agentStep) out.push({ kind: "agent_text", text: NEUTRAL_REPLY });
    else if (!agentSpeaks && agentStep) return null;
    out.push(step);
    agentSpeaks = step.kind === "user_text" || step.kind === "agent_calls";
  }
  return out;
}

type ValueKind = "enum" | "row" | "number" | "timestamp" | "boolean" | "text";

interface WrongValue {
  readonly value: JsonValue;
  readonly kind: ValueKind;
}

const DAY = 86_400;

/**
 * A plausible wrong value of the same kind: for a parameter with an `enum`, the member after it
 * (the first one after the last); the other boolean; a time a day later on the scenario clock;
 * another row's value of the world column holding it (or of the column named like the argument);
 * a neighbouring number. Null when none is found (null, lists, objects).
 */
export function wrongValue(
  value: JsonValue,
  argument: string,
  parameter: ToolParameter | undefined,
  scenario: Scenario,
): WrongValue | null {
  const members = parameter?.enum ?? [];
  const at = typeof value === "string" ? members.indexOf(value) : -1;
  if (at >= 0 && members.length > 1) return { value: members[(at + 1) % members.length]!, kind: "enum" };
  if (typeof value === "boolean") return { value: !value, kind: "boolean" };
  if (typeof value === "number" && (parameter?.timestamp === true || /timestamp/.test(argument))) {
    return { value: value + DAY, kind: "timestamp" };
  }
  if (typeof value === "number" || typeof value === "string") {
    const other = otherRowValue(value, argument, scenario);
    if (other !== null) return { value: other, kind: "row" };
  }
  if (typeof value === "number")
    return { value: Number.isInteger(value) ? value + 1 : Math.round((value + 1) * 1e6) / 1e6, kind: "number" };
  if (typeof value === "string") {
    const number = /-?\d+(\.\d+)?/.exec(value);
    if (number) return { value: value.replace(number[0], neighbour(number[0])), kind: "number" };
    if (value.length > 0) return { value: `${value} (not this)`, kind: "text" };
  }
  return null;
}

/** The number written one further: 17 -> 18, 2.5 -> 3.5. */
function neighbour(written: string): string {
  const n = Number(written) + 1;
  const decimals = written.split(".")[1]?.length ?? 0;
  return decimals === 0 ? String(n) : n.toFixed(decimals);
}

/** Another row's value from the column holding `value`, else from a column named like the argument. */
function otherRowValue(value: string | number, argument: string, scenario: Scenario): string | number | null {
  const tables = worldTables(scenario.world.tables);
  const pick = (column: string, only?: string): string | number | null => {
    for (const [table, rows] of tables) {
      if (only !== undefined && table !== only) continue;
      for (const row of rows) {
        const v = row[column];
        if ((typeof v === "string" || typeof v === "number") && v !== value && typeof v === typeof value && v !== "") return v;
      }
    }
    return null;
  };
  for (const [table, rows] of tables)
    for (const row of rows)
      for (const [column, v] of Object.entries(row))
        if (v === value && (typeof value !== "number" || column === argument)) return pick(column, table);
  return pick(argument);
}

/**
 * Arguments for a call of `tool` the reference never makes, each from a row the task never names:
 * an id from a table keyed by that name, else a value of a column named like the parameter, a time
 * a day after now, `false` for a boolean (the switch turned off), 0 for another number. Null when
 * a required parameter cannot be filled.
 */
export function unnamedArguments(tool: ToolDefinition, scenario: Scenario, facts: ReferenceFacts): Record<string, JsonValue> | null {
  const out: Record<string, JsonValue> = {};
  const tables = worldTables(scenario.world.tables);
  const keyed = new Map<string, string>();
  for (const [table] of tables) {
    const key = keyOf(table, scenario);
    if (key !== null) keyed.set(key, table);
  }
  const firstOptional = tool.parameters.find(
    (p) => !p.required && p.type === "string" && !keyed.has(p.name) && columnRow(p.name, scenario, facts) !== null,
  );
  for (const p of tool.parameters) {
    if (!p.required && p !== firstOptional) continue;
    const filled = fill(p, keyed, scenario, facts);
    if (filled === null) return null;
    out[p.name] = filled;
  }
  // An update that sets a row's column to the value it has changes nothing: take another row's.
  if (firstOptional !== undefined) {
    const target = tool.parameters.find((p) => p.required && keyed.has(p.name));
    const table = target ? keyed.get(target.name) : undefined;
    const row =
      table === undefined || target === undefined
        ? undefined
        : scenario.world.tables[table]?.find((r) => r[target.name] === out[target.name]);
    if (row !== undefined && row[firstOptional.name] === out[firstOptional.name]) {
      const other = scenario.world.tables[table!]
        ?.map((r) => r[firstOptional.name])
        .find((v) => typeof v === "string" && v !== "" && v !== out[firstOptional.name]);
      if (typeof other === "string") out[firstOptional.name] = other;
    }
  }
  return out;
}

function fill(p: ToolParameter, keyed: ReadonlyMap<string, string>, scenario: Scenario, facts: ReferenceFacts): JsonValue | null {
  if (p.type === "boolean") return false;
  if (p.timestamp === true) return scenario.clock.now + DAY;
  const table = keyed.get(p.name);
  if (table !== undefined) {
    const row = scenario.world.tables[table]?.find((r) => !rowIsNamed(r, p.name, facts));
    const v = row?.[p.name];
    return typeof v === "string" || typeof v === "number" ? v : null;
  }
  const v = columnRow(p.name, scenario, facts);
  if (v !== null) return v;
  if (p.type === "number" || p.type === "integer") return 0;
  return null;
}

/** A value of a column named `column` from a row the task never names. */
function columnRow(column: string, scenario: Scenario, facts: ReferenceFacts): string | number | null {
  for (const [table, rows] of worldTables(scenario.world.tables)) {
    const key = keyOf(table, scenario) ?? column;
    for (const row of rows) {
      const v = row[column];
      if ((typeof v === "string" || typeof v === "number") && v !== "" && !rowIsNamed(row, key, facts)) return v;
    }
  }
  return null;
}

/** The identifying column of a world table (person_id, reminder_id...), from the pack's schemas. */
function keyOf(table: string, scenario: Scenario): string | null {
  return packTables(scenario.world.pack).schemas.get(table)?.key ?? null;
}

/** A call the reference never makes, with an id no reference call has. */
export function extraCall(tool: string, args: Readonly<Record<string, JsonValue>>, n: number): ReferenceCall {
  return { id: `strength_${tool}_${n}`, tool, arguments: args };
}
