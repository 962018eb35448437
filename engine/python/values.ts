// Python's value semantics where upstream's measures depend on them: `==` between decoded JSON
// values, the float() and int() conversions of the extractors, and str().
import { pyFloatRepr, pyIntRepr, pyRepr } from "./repr.js";
import type { JsonValue } from "../base/json.js";

/** A Python number: bool is an int. (Module level: pyEquals runs for every compared cell.) */
function isNumeric(v: unknown): v is number | boolean {
  return typeof v === "number" || typeof v === "boolean";
}

function isPlainObject(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Python `==` on decoded JSON values. Python's bool is an int, so `True == 1` and `1 == 1.0`
 * hold; lists compare element by element and dicts by key set and values.
 */
export function pyEquals(a: unknown, b: unknown): boolean {
  if (isNumeric(a) && isNumeric(b)) return Number(a) === Number(b);
  if (a === null || b === null || typeof a === "string" || typeof b === "string") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item: unknown, i) => pyEquals(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && pyEquals(a[k], b[k]));
  }
  return false;
}

/** Python's float literal syntax as float() accepts it (underscores between digits allowed). */
const FLOAT_TEXT = /^[+-]?(?:(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?|\d(?:_?\d)*\.|inf|infinity|nan)$/i;
const INT_TEXT = /^[+-]?\d(?:_?\d)*$/;

/** Python float(value); null where Python raises (TypeError, ValueError). */
export function pyFloat(value: unknown): number | null {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (!FLOAT_TEXT.test(text)) return null;
  const lower = text.replace(/_/g, "").toLowerCase();
  const sign = lower.startsWith("-") ? -1 : 1;
  const body = lower.replace(/^[+-]/, "");
  if (body === "inf" || body === "infinity") return sign * Infinity;
  if (body === "nan") return NaN;
  return Number(lower);
}

/** Python int(value): truncates floats toward zero; null where Python raises. */
export function pyInt(value: unknown): number | null {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) + 0 : null;
  if (typeof value !== "string") return null;
  const text = value.trim();
  return INT_TEXT.test(text) ? Number(text.replace(/_/g, "")) : null;
}

/**
 * Python str(value). JSON has one number type: an integral value prints as an int ("5") and any
 * other as a float ("5.5"), which is what json.loads gives for the usual spellings.
 */
export function pyStr(value: JsonValue): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isInteger(value) ? pyIntRepr(value) : pyFloatRepr(value);
  return pyRepr(value);
}
