// Binding a call's keyword arguments to a tool's parameters the way Python does. Upstream wraps
// every tool with the `decorator` package, which binds the call to the signature with
// inspect.Signature.bind and fills in defaults before the tool (and its @typechecked check) runs.
import type { JsonValue } from "../base/json.js";
import { pyStrRepr } from "../python/repr.js";
import type { CellValue } from "../world/types.js";
import { ToolError } from "./types.js";
import type { ToolParameter } from "./types.js";
import { validateType } from "./validators.js";

/**
 * The arguments a tool runs with: in parameter order, omitted ones replaced by their Python default,
 * omitted NOT_GIVEN ones (no `default`) left out. This is also exactly what the tool trace records.
 */
export type BoundArguments = Readonly<Record<string, JsonValue>>;

/**
 * inspect's order of complaints: it walks the parameters and stops at the first required one that
 * is missing; only then does it report the first leftover keyword (in the caller's order).
 */
export function bindArguments(parameters: readonly ToolParameter[], given: Readonly<Record<string, JsonValue>>): BoundArguments {
  const has = (name: string): boolean => Object.hasOwn(given, name);
  const bound: Record<string, JsonValue> = {};
  for (const p of parameters) {
    if (has(p.name)) bound[p.name] = given[p.name] as JsonValue;
    else if (p.required) throw new ToolError("TypeError", `missing a required argument: ${pyStrRepr(p.name)}`);
    else if (p.default !== undefined) bound[p.name] = p.default;
  }
  const known = new Set(parameters.map((p) => p.name));
  const unknown = Object.keys(given).find((k) => !known.has(k));
  if (unknown !== undefined) throw new ToolError("TypeError", `got an unexpected keyword argument ${pyStrRepr(unknown)}`);
  return bound;
}

/**
 * Upstream's @typechecked: every bound argument, in parameter order, against its annotation.
 * Defaults always pass (None is only ever the default of an Optional parameter).
 */
export function checkArgumentTypes(parameters: readonly ToolParameter[], bound: BoundArguments): void {
  for (const p of parameters) {
    if (!Object.hasOwn(bound, p.name)) continue;
    validateType(bound[p.name] as JsonValue, p.name, p.type, p.annotation, p.nullable ?? false);
  }
}

// Readers for arguments of typechecked tools. The type check has already vetted them, so a value
// of the wrong kind here is a bug in the tool definition and throws a plain Error.

export function stringArg(args: BoundArguments, name: string): string {
  const v = args[name];
  if (typeof v !== "string") throw new Error(`argument ${name} is not a string after type checking`);
  return v;
}

/** A scalar argument as a table cell; `undefined` when omitted (NOT_GIVEN). */
export function scalarArg(args: BoundArguments, name: string): CellValue | undefined {
  const v = args[name];
  if (v !== null && typeof v === "object") throw new Error(`argument ${name} is not a scalar after type checking`);
  return v;
}

/**
 * A float argument: a bool counts as 0 or 1, as Python stores True in a float column as 1.0.
 * `undefined` when omitted (NOT_GIVEN); null when None was given to an Optional parameter.
 */
export function numberArg(args: BoundArguments, name: string): number | null | undefined {
  const v = args[name];
  if (v === undefined || v === null) return v;
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return Number(v);
  throw new Error(`argument ${name} is not a number after type checking`);
}
