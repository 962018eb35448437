// Small readers for data arriving from outside the panel. Each takes an unknown value and the path
// it was found at, returns the value with its proper type, or throws a WireError naming the path.
// Hand-written on purpose: the readers built from these check a value and project it onto the type
// the panel works with (PanelHeader, PanelLine, ...) in one pass, each error naming its path, and the
// page needs only these few shapes. (The Content Security Policy is not the reason: ajv's standalone
// mode compiles validators at build time, with no `new Function` in the page.)
import type { JsonValue } from "../../../engine/base/json.js";
import type { CellValue, Row } from "../../../engine/world/types.js";

export class WireError extends Error {
  constructor(path: string, problem: string) {
    super(`${path === "" ? "the message" : path} ${problem}`);
    this.name = "WireError";
  }
}

export type Reader<T> = (value: unknown, path: string) => T;

/** JSON nested deeper than this is rejected rather than walked (a hostile file could recurse forever). */
const MAX_DEPTH = 64;

export function record(value: unknown, path: string): Readonly<Record<string, unknown>> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new WireError(path, "must be an object");
  return value as Readonly<Record<string, unknown>>;
}

/** An own property only: a key inherited from Object.prototype ("constructor", "toString") is absent. */
export function prop(o: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

export function str(value: unknown, path: string): string {
  if (typeof value !== "string") throw new WireError(path, "must be a string");
  return value;
}

export function bool(value: unknown, path: string): boolean {
  if (typeof value !== "boolean") throw new WireError(path, "must be true or false");
  return value;
}

export function finite(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw new WireError(path, "must be a finite number");
  return value;
}

/** A whole number >= 0 (message indices, row positions, counts). */
export function index(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new WireError(path, "must be a whole number >= 0");
  return value;
}

/** A similarity or score in [0, 1]. */
export function unit(value: unknown, path: string): number {
  const n = finite(value, path);
  if (n < 0 || n > 1) throw new WireError(path, "must be between 0 and 1");
  return n;
}

export function oneOf<T extends string>(allowed: readonly T[]): Reader<T> {
  return (value, path) => {
    const found = allowed.find((a) => a === value);
    if (found === undefined) throw new WireError(path, `must be one of: ${allowed.join(", ")}`);
    return found;
  };
}

export function nullable<T>(read: Reader<T>): Reader<T | null> {
  return (value, path) => (value === null ? null : read(value, path));
}

export function list<T>(read: Reader<T>): Reader<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) throw new WireError(path, "must be a list");
    return value.map((item, i) => read(item, `${path}/${i}`));
  };
}

/** A world cell: a scalar, or a list of strings (a string_list column). */
function cell(value: unknown, path: string): CellValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.map((item, i) => str(item, `${path}/${i}`));
  return finite(value, path);
}

/** A world row: an object of cells. Validated in place; the object itself is returned. */
export function row(value: unknown, path: string): Row {
  const o = record(value, path);
  for (const key of Object.keys(o)) cell(o[key], `${path}/${key}`);
  return o as Row;
}

/** Any JSON value (tool arguments and results), checked in place up to MAX_DEPTH. */
export function json(value: unknown, path: string): JsonValue {
  checkJson(value, path, 0);
  return value as JsonValue;
}

export function jsonObject(value: unknown, path: string): Readonly<Record<string, JsonValue>> {
  record(value, path);
  return json(value, path) as Readonly<Record<string, JsonValue>>;
}

function checkJson(value: unknown, path: string, depth: number): void {
  if (depth > MAX_DEPTH) throw new WireError(path, `is nested deeper than ${MAX_DEPTH} levels`);
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    finite(value, path);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      checkJson(v, `${path}/${i}`, depth + 1);
    });
    return;
  }
  const o = record(value, path);
  for (const key of Object.keys(o)) checkJson(o[key], `${path}/${key}`, depth + 1);
}

/** Runs a reader and reports instead of throwing. */
export function attempt<T>(read: () => T): { ok: true; value: T } | { ok: false; error: string } {
  try {
    return { ok: true, value: read() };
  } catch (e) {
    if (e instanceof WireError) return { ok: false, error: e.message };
    throw e;
  }
}
