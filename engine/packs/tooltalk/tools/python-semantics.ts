// The few Python operations ToolTalk's tools apply to the arguments a model sends, with the errors
// Python raises when a value has the wrong type. ToolTalk never checks argument types: a number
// where a string belongs fails (or not) wherever Python first trips on it, and the exception text
// the model sees is `str(e)` of that error. These helpers raise the same texts.
import type { JsonValue } from "../../../base/json.js";
import { pyEquals, pyStr } from "../../../python/values.js";
import { pyStrRepr } from "../../../python/repr.js";
import { ToolError } from "../../../tools/types.js";
import { pyTypeOf, type PyTypeName } from "../../../tools/validators.js";
import type { CellValue } from "../../../world/types.js";

export { pyEquals, pyStr };

/** A value as a tool sees it: an argument from the model or a cell read from the world. */
export type PyValue = JsonValue | CellValue;

/** Characters for which Python's str.isspace() holds: what `\s`, split() and strip() use. */
export const PY_SPACE_CLASS = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const LEADING_SPACE = new RegExp(`^[${PY_SPACE_CLASS}]+`, "u");
const TRAILING_SPACE = new RegExp(`[${PY_SPACE_CLASS}]+$`, "u");
const SPACE_RUNS = new RegExp(`[${PY_SPACE_CLASS}]+`, "u");

/** type(value).__name__ for a decoded JSON value (an integral number counts as an int). */
export function pyTypeName(value: PyValue | undefined): PyTypeName {
  // A cell's readonly string list is a list to Python as to pyTypeOf.
  return value === undefined ? "NoneType" : pyTypeOf(value as JsonValue);
}

/** Python truthiness: None, False, 0, "" and empty containers are false. */
export function pyTruthy(value: PyValue): boolean {
  if (value === null) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") return value.length > 0;
  return Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0;
}

/** Dict keys must be hashable: `x in some_dict` with a list or dict raises. */
export function requireHashable(value: PyValue): void {
  const type = pyTypeName(value);
  if (type === "list" || type === "dict") throw new ToolError("TypeError", `unhashable type: '${type}'`);
}

/** `item in container` (list: ==, str: substring, dict: key). */
export function pyContains(container: PyValue, item: PyValue): boolean {
  if (typeof container === "string") {
    if (typeof item !== "string")
      throw new ToolError("TypeError", `'in <string>' requires string as left operand, not ${pyTypeName(item)}`);
    return container.includes(item);
  }
  if (Array.isArray(container)) return container.some((element) => pyEquals(element, item));
  if (container !== null && typeof container === "object") {
    requireHashable(item);
    return Object.keys(container).some((key) => pyEquals(key, item));
  }
  throw new ToolError("TypeError", `argument of type '${pyTypeName(container)}' is not iterable`);
}

/** `value + [item]`: only a list can be extended by a list. */
export function pyAppendToCopy(value: PyValue, item: PyValue): PyValue {
  if (Array.isArray(value)) return [...(value as JsonValue[]), item as JsonValue];
  if (typeof value === "string") throw new ToolError("TypeError", 'can only concatenate str (not "list") to str');
  throw new ToolError("TypeError", `unsupported operand type(s) for +: '${pyTypeName(value)}' and 'list'`);
}

/** `for item in value`: a list's items, a string's characters, a dict's keys. */
export function pyIterate(value: PyValue): readonly PyValue[] {
  if (Array.isArray(value)) return value;
  if (typeof value === "string") return Array.from(value);
  if (value !== null && typeof value === "object") return Object.keys(value);
  throw new ToolError("TypeError", `'${pyTypeName(value)}' object is not iterable`);
}

function requireStr(value: PyValue, method: string): string {
  if (typeof value !== "string") throw new ToolError("AttributeError", `'${pyTypeName(value)}' object has no attribute '${method}'`);
  return value;
}

/** `value.lower()`. */
export function pyLower(value: PyValue): string {
  return requireStr(value, "lower").toLowerCase();
}

/** `value.strip()` (Python's whitespace, not JavaScript's). */
export function pyStrip(value: PyValue): string {
  return requireStr(value, "strip").replace(LEADING_SPACE, "").replace(TRAILING_SPACE, "");
}

/** `value.split()`: runs of whitespace separate, empty pieces are dropped. */
export function pySplit(value: string): string[] {
  return value.split(SPACE_RUNS).filter((piece) => piece.length > 0);
}

/** `re.match(pattern, value) is not None`; re.match refuses anything but a string. */
export function pyReMatches(pattern: RegExp, value: PyValue): boolean {
  if (typeof value !== "string") throw new ToolError("TypeError", `expected string or bytes-like object, got '${pyTypeName(value)}'`);
  return pattern.test(value);
}

/** `str(KeyError(key))`: the key's repr. */
export function keyErrorText(key: PyValue): string {
  return typeof key === "string" ? pyStrRepr(key) : pyStr(key as JsonValue);
}
