// Tool names and arguments written in a scenario: the allow/deny lists, the reference solution's
// calls and the golden traces of SANDBOX targets, all checked against the scenario pack's tools.
import type { JsonValue } from "../base/json.js";
import { PACKS } from "../packs/registry.js";
import type { ToolDefinition, ToolParameter } from "../tools/types.js";
import type { CheckContext } from "./check-context.js";
import { describeValue, list, obj, quoteHint, type RawObject } from "./raw.js";
import { closestMatch, didYouMean } from "./suggest.js";
import { parseTimeExpression } from "./time-expressions.js";
import type { Path } from "./yaml-source.js";

/** The part of the catalog the checker reads (the real one in production, any list in tests). */
export interface ToolCatalogView {
  readonly names: readonly string[];
  byName(name: string): ToolDefinition | undefined;
}

export interface ToolContext extends CheckContext {
  readonly catalog: ToolCatalogView;
}

export function lookupTool(ctx: ToolContext, path: Path, name: string): ToolDefinition | null {
  const tool = ctx.catalog.byName(name);
  if (tool) return tool;
  const suggestion = closestMatch(name, ctx.catalog.names);
  const elsewhere = suggestion === null ? PACKS.find((pack) => pack.id !== ctx.pack.id && pack.toolByName(name) !== undefined) : undefined;
  const hint =
    elsewhere !== undefined
      ? ` It is a tool of the ${elsewhere.id} pack; this scenario's world.pack is ${ctx.pack.id}.`
      : didYouMean(suggestion);
  ctx.reporter.report(path, "unknown-tool", `Unknown tool "${name}".${hint}`, {
    data: suggestion === null ? undefined : { suggestion },
  });
  return null;
}

export interface ToolLists {
  readonly allow: readonly string[] | null;
  readonly deny: readonly string[];
}

/** The `tools:` section: allow omitted = every tool; unknown names are reported. */
export function resolveToolLists(ctx: ToolContext, raw: unknown): ToolLists {
  const tools = obj(raw);
  const names = (key: "allow" | "deny"): string[] =>
    list(tools?.[key]).flatMap((name, i) => (typeof name === "string" && lookupTool(ctx, ["tools", key, i], name) ? [name] : []));
  return { allow: Array.isArray(tools?.allow) ? names("allow") : null, deny: names("deny") };
}

/** Why the agent cannot call `tool` under these lists, or null when it can. */
export function unavailableReason(tool: ToolDefinition, lists: ToolLists): string | null {
  if (!tool.visibleTo.includes("agent")) return `only the user can call "${tool.name}"`;
  if (lists.deny.includes(tool.name)) return `tools.deny withholds "${tool.name}"`;
  if (lists.allow !== null && !lists.allow.includes(tool.name)) return `tools.allow does not list "${tool.name}"`;
  return null;
}

/**
 * Checked arguments with timestamp parameters resolved to seconds. A "call" (reference solution)
 * must give every required argument; a "golden" trace lists only the arguments that must match.
 */
export function resolveArguments(
  ctx: ToolContext,
  path: Path,
  tool: ToolDefinition,
  raw: RawObject | null,
  mode: "call" | "golden",
): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  const given = raw ?? {};
  const suggested = new Set<string>();
  for (const [name, value] of Object.entries(given)) {
    const argPath = [...path, name];
    const param = tool.parameters.find((p) => p.name === name);
    if (!param) {
      const suggestion = closestMatch(
        name,
        tool.parameters.map((p) => p.name),
      );
      if (suggestion !== null) suggested.add(suggestion);
      const known = tool.parameters.length === 0 ? ` ${tool.name} takes no arguments.` : didYouMean(suggestion);
      ctx.reporter.report(argPath, "unknown-argument", `${tool.name} has no argument "${name}".${known}`, {
        anchor: "key",
        data: suggestion === null ? undefined : { suggestion },
      });
      continue;
    }
    const resolved = resolveArgument(ctx, argPath, param, value);
    if (resolved !== undefined) out[name] = resolved;
  }
  if (mode === "call") {
    // A required argument a misspelt one already points at ("contnet" -> "content") is not reported twice.
    const missing = tool.parameters.filter((p) => p.required && !(p.name in given) && !suggested.has(p.name)).map((p) => p.name);
    if (missing.length > 0) {
      const names = missing.map((m) => `"${m}"`).join(", ");
      ctx.reporter.report(
        path,
        "missing-argument",
        `${tool.name} needs ${missing.length === 1 ? "the argument" : "the arguments"} ${names}.`,
        {
          anchor: "key",
          data: { insert: missing[0] ?? "" },
        },
      );
    }
  }
  return out;
}

const PARAM_WORDS: Readonly<Record<ToolParameter["type"], string>> = {
  string: "a string",
  integer: "a whole number",
  number: "a number",
  boolean: "true or false",
  array: "a list of strings",
};

function resolveArgument(ctx: ToolContext, path: Path, param: ToolParameter, value: unknown): JsonValue | undefined {
  if (value === null && (param.nullable === true || param.default === null)) return null;
  if (param.timestamp && typeof value === "string") {
    const time = parseTimeExpression(value, ctx.clock);
    if (time.ok) return time.value;
    ctx.reporter.report(path, "bad-time-expression", time.message, {
      data: time.suggestion === undefined ? undefined : { suggestion: time.suggestion },
    });
    return undefined;
  }
  const fits =
    param.type === "string"
      ? typeof value === "string"
      : param.type === "integer"
        ? Number.isInteger(value)
        : param.type === "number"
          ? typeof value === "number"
          : param.type === "array"
            ? Array.isArray(value)
            : typeof value === "boolean";
  if (fits && Array.isArray(value)) {
    const items: unknown[] = value;
    const bad = items.findIndex((item) => typeof item !== "string");
    if (bad < 0) return items.filter((item): item is string => typeof item === "string");
    ctx.reporter.report(
      [...path, bad],
      "argument-type",
      `Each item of "${param.name}" is a string, found ${describeValue(items[bad])}.${quoteHint(true, items[bad])}`,
    );
    return undefined;
  }
  if (fits) return value as JsonValue;
  const expected = `${PARAM_WORDS[param.type]}${param.timestamp ? " (POSIX seconds) or a time expression" : ""}${param.nullable ? " or null" : ""}`;
  ctx.reporter.report(
    path,
    "argument-type",
    `"${param.name}" takes ${expected}, found ${describeValue(value)}.${quoteHint(param.type === "string", value)}`,
  );
  return undefined;
}
