// Constraint targets and column measures: the expected rows of a world table or the expected
// message on SANDBOX (whose tool_trace column holds golden traces), checked column by column.
import { ROLE_NAMES, type RoleName } from "../base/message-parts.js";
import type { WorldPack } from "../packs/types.js";
import type { ColumnSchema, ColumnType } from "../world/types.js";
import { findColumn, resolveCell } from "./cells.js";
import type { ColumnMeasure, GoldenTrace, TargetRow } from "./model.js";
import { describeValue, list, obj, str } from "./raw.js";
import { closestMatch, didYouMean, listOf } from "./suggest.js";
import { lookupTool, resolveArguments, type ToolContext } from "./tool-calls.js";
import { resolveTolerance } from "./tolerances.js";
import type { Path } from "./yaml-source.js";

/** What a column holds, for type checks and for which measures make sense on it. */
type ColumnKind = "text" | "texts" | "number" | "bool" | "role" | "roles" | "traces";

const KIND_OF_TYPE: Readonly<Record<ColumnType, ColumnKind>> = {
  string: "text",
  string_list: "texts",
  float: "number",
  int: "number",
  bool: "bool",
};

interface TargetColumn {
  readonly name: string;
  readonly kind: ColumnKind;
  /** The world column, when it is one (its type check and time expressions apply). */
  readonly schema?: ColumnSchema;
}

/** The message-bus columns a SANDBOX target may name (reference 2.3). */
const SANDBOX_COLUMNS: readonly TargetColumn[] = [
  {
    name: "sandbox_message_index",
    kind: "number",
    schema: { name: "sandbox_message_index", type: "int", nullable: false, description: "" },
  },
  { name: "sender", kind: "role" },
  { name: "recipient", kind: "role" },
  { name: "content", kind: "text", schema: { name: "content", type: "string", nullable: false, description: "" } },
  { name: "openai_tool_call_id", kind: "text", schema: { name: "openai_tool_call_id", type: "string", nullable: true, description: "" } },
  { name: "openai_function_name", kind: "text", schema: { name: "openai_function_name", type: "string", nullable: true, description: "" } },
  { name: "conversation_active", kind: "bool", schema: { name: "conversation_active", type: "bool", nullable: false, description: "" } },
  { name: "tool_call_exception", kind: "text", schema: { name: "tool_call_exception", type: "string", nullable: true, description: "" } },
  { name: "tool_trace", kind: "traces" },
  { name: "visible_to", kind: "roles" },
];

/** The columns a target of `table` may name: SANDBOX's, or those of the pack's world table; null for an unknown table. */
function targetColumns(pack: WorldPack, table: string): readonly TargetColumn[] | null {
  if (table === "SANDBOX") return SANDBOX_COLUMNS;
  const schema = pack.schemas.get(table);
  if (!schema) return null;
  return schema.columns.map((c) => ({ name: c.name, kind: KIND_OF_TYPE[c.type], schema: c }));
}

export function resolveTarget(ctx: ToolContext, path: Path, table: string, raw: unknown): TargetRow[] {
  const columns = targetColumns(ctx.pack, table);
  if (!columns) return [];
  return list(raw).map((item, i) => {
    const row: Record<string, TargetRow[string]> = {};
    for (const [name, value] of Object.entries(obj(item) ?? {})) {
      const columnPath = [...path, i, name];
      const column = findColumn(ctx, columnPath, table, columns, name);
      const resolved = column ? resolveTargetValue(ctx, columnPath, column, value) : undefined;
      if (resolved !== undefined) row[name] = resolved;
    }
    return row;
  });
}

function resolveTargetValue(ctx: ToolContext, path: Path, column: TargetColumn, value: unknown): TargetRow[string] | undefined {
  switch (column.kind) {
    case "role":
      return resolveRole(ctx, path, column.name, value);
    case "roles": {
      if (!Array.isArray(value)) return reportType(ctx, path, column.name, "a list of roles", value);
      const roles = value.map((v, i) => resolveRole(ctx, [...path, i], column.name, v));
      return roles.every((r): r is RoleName => r !== undefined) ? roles : undefined;
    }
    case "traces": {
      const traces = (Array.isArray(value) ? value.map((v, i) => [v, [...path, i]] as const) : [[value, path] as const]).map(([v, p]) =>
        resolveGoldenTrace(ctx, p, v),
      );
      return traces.every((t): t is GoldenTrace => t !== null) ? traces : undefined;
    }
    default:
      return column.schema ? resolveCell(ctx, path, column.schema, value) : undefined;
  }
}

function resolveRole(ctx: ToolContext, path: Path, column: string, value: unknown): RoleName | undefined {
  const role = ROLE_NAMES.find((r) => r === value);
  if (role) return role;
  if (typeof value !== "string") return reportType(ctx, path, column, listOf(ROLE_NAMES), value);
  const suggestion = closestMatch(value, ROLE_NAMES);
  ctx.reporter.report(path, "column-type", `"${value}" is not a role; "${column}" takes ${listOf(ROLE_NAMES)}.${didYouMean(suggestion)}`, {
    data: suggestion === null ? undefined : { suggestion },
  });
  return undefined;
}

function resolveGoldenTrace(ctx: ToolContext, path: Path, value: unknown): GoldenTrace | null {
  const trace = obj(value);
  const name = str(trace?.tool_name);
  if (!trace || name === null) {
    if (!trace) reportType(ctx, path, "tool_trace", "a tool trace { tool_name, arguments }", value);
    return null;
  }
  const tool = lookupTool(ctx, [...path, "tool_name"], name);
  if (!tool) return null;
  const errors = ctx.reporter.errorCount;
  const args = resolveArguments(ctx, [...path, "arguments"], tool, obj(trace.arguments), "golden");
  return ctx.reporter.errorCount === errors ? { tool_name: name, arguments: args } : null;
}

function reportType(ctx: ToolContext, path: Path, column: string, expected: string, value: unknown): undefined {
  ctx.reporter.report(path, "column-type", `"${column}" takes ${expected}, found ${describeValue(value)}.`);
  return undefined;
}

/** Which measures fit which column kind. */
const MEASURE_FITS: Readonly<Record<ColumnMeasure["kind"], readonly ColumnKind[]>> = {
  exact: ["text", "texts", "number", "bool", "role", "roles"],
  close: ["number"],
  // On a list: every expected item is in the cell.
  contains: ["text", "texts"],
  rouge_l: ["text"],
  any: ["text", "texts", "number", "bool", "role", "roles", "traces"],
  tool_trace: ["traces"],
};

const KIND_WORDS: Readonly<Record<ColumnKind, string>> = {
  text: "text",
  texts: "lists of strings",
  number: "numbers",
  bool: "true/false values",
  role: "a role",
  roles: "a list of roles",
  traces: "tool traces",
};

export function resolveMeasures(ctx: ToolContext, path: Path, table: string, raw: unknown): Record<string, ColumnMeasure> {
  const columns = targetColumns(ctx.pack, table);
  const out: Record<string, ColumnMeasure> = {};
  if (!columns) return out;
  for (const [name, value] of Object.entries(obj(raw) ?? {})) {
    const column = findColumn(ctx, [...path, name], table, columns, name);
    const measure = parseMeasure(value);
    if (!column || !measure) continue;
    if (!MEASURE_FITS[measure.kind].includes(column.kind)) {
      const fitting = (Object.keys(MEASURE_FITS) as ColumnMeasure["kind"][]).filter((k) => MEASURE_FITS[k].includes(column.kind));
      ctx.reporter.report(
        [...path, name, "kind"],
        "measure-mismatch",
        `A ${measure.kind} measure does not fit "${name}", which holds ${KIND_WORDS[column.kind]}. Use ${listOf(fitting)}.`,
      );
      continue;
    }
    out[name] = measure;
  }
  return out;
}

function parseMeasure(raw: unknown): ColumnMeasure | null {
  const m = obj(raw);
  switch (m?.kind) {
    case "exact":
    case "contains":
    case "rouge_l":
    case "any":
      return { kind: m.kind };
    case "close": {
      const tolerance = resolveTolerance(m.atol);
      return tolerance === null ? null : { kind: "close", atol: tolerance };
    }
    case "tool_trace": {
      const atol = obj(m.atol);
      if (!atol) return { kind: "tool_trace" };
      const entries = Object.entries(atol).flatMap(([name, v]): [string, number][] => {
        const tolerance = resolveTolerance(v);
        return tolerance === null ? [] : [[name, tolerance]];
      });
      return { kind: "tool_trace", atol: Object.fromEntries(entries) };
    }
    default:
      return null;
  }
}

/**
 * The argument names of a tool_trace tolerance must be arguments of a traced tool: a misspelt key
 * would silently never apply (and a match that needed it would silently fail).
 */
export function checkToleranceKeys(ctx: ToolContext, path: Path, target: readonly TargetRow[], raw: unknown): void {
  const atol = obj(obj(obj(raw)?.tool_trace)?.atol);
  if (!atol) return;
  const traces = target.flatMap((row) => (Array.isArray(row.tool_trace) ? (row.tool_trace as readonly GoldenTrace[]) : []));
  const tools = [...new Set(traces.map((t) => t.tool_name))].flatMap((name) => {
    const tool = ctx.catalog.byName(name);
    return tool ? [tool] : [];
  });
  if (tools.length === 0) return;
  const names = [...new Set(tools.flatMap((t) => t.parameters.map((p) => p.name)))];
  for (const key of Object.keys(atol)) {
    if (names.includes(key)) continue;
    const suggestion = closestMatch(key, names);
    const owners = listOf(tools.map((t) => t.name));
    ctx.reporter.report(
      [...path, "tool_trace", "atol", key],
      "unknown-tolerance-argument",
      `"${key}" is not an argument of ${owners}, so this tolerance would never apply.${didYouMean(suggestion)}`,
      {
        anchor: "key",
        data: suggestion === null ? undefined : { suggestion },
      },
    );
  }
}
