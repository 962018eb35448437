// Python `repr` text of JSON values. Upstream shows the agent `repr(result)` of every tool result,
// so the exact Python spelling (quotes, True/False/None, float digits, dict order) is part of what
// the agent sees and must match character for character.
//
// JSON (and JS) has one number type where Python has two. A JSON Schema, when given, decides:
// "number" prints as a float (1700000000.0), "integer" as an int. Without one, an integral value
// prints as an int and anything else as a float, which is what json.loads would have produced for
// the usual spellings ("5" -> 5, "5.5" -> 5.5).
import type { JsonObject, JsonValue } from "../base/json.js";
import { isJsonObject } from "../base/json.js";
import type { CellValue } from "../world/types.js";

/** Python's repr of a float: shortest round-trip digits, scientific below 1e-4 and from 1e16 up. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  // toExponential() without an argument gives the shortest digits that round-trip, like Python.
  const match = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(Math.abs(x).toExponential());
  if (!match) throw new Error(`unexpected exponential form of ${x}`);
  const digits = (match[1] ?? "") + (match[2] ?? "");
  const exponent = Number(match[3]);
  if (exponent < -4 || exponent >= 16) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const expSign = exponent < 0 ? "-" : "+";
    return `${sign}${mantissa}e${expSign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  // Position of the decimal point counted from the start of `digits`.
  const point = exponent + 1;
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point < digits.length) return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${sign}${digits}${"0".repeat(point - digits.length)}.0`;
}

/** Python's repr of an int held in a JS number (arbitrary size, so 1e21 prints all its digits). */
export function pyIntRepr(x: number): string {
  if (!Number.isInteger(x)) throw new Error(`${x} is not an integer`);
  return BigInt(x).toString();
}

// Python's str.isprintable() is false for these categories (the ASCII space excepted).
const NON_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, "0");
}

/** Python's repr of a str: single quotes unless only the double quote avoids escaping. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  // for...of walks code points; a lone surrogate comes through as one unit and is escaped below.
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += `\\x${hex(code, 2)}`;
    else if (code < 0x7f) out += ch;
    else if (!NON_PRINTABLE.test(ch)) out += ch;
    else if (code <= 0xff) out += `\\x${hex(code, 2)}`;
    else if (code <= 0xffff) out += `\\u${hex(code, 4)}`;
    else out += `\\U${hex(code, 8)}`;
  }
  return out + quote;
}

type NumberKind = "int" | "float";

function schemaTypes(schema: JsonObject): string[] {
  const t = schema.type;
  if (typeof t === "string") return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === "string");
  return [];
}

function jsonTypeAccepts(types: readonly string[], value: JsonValue | CellValue): boolean {
  if (types.length === 0) return true;
  if (value === null) return types.includes("null");
  if (typeof value === "boolean") return types.includes("boolean");
  if (typeof value === "number") return types.includes("number") || types.includes("integer");
  if (typeof value === "string") return types.includes("string");
  if (Array.isArray(value)) return types.includes("array");
  return types.includes("object");
}

/** The (sub)schema that describes `value`: anyOf/oneOf branches are tried in order. */
function resolveSchema(schema: JsonObject | undefined, value: JsonValue | CellValue): JsonObject | undefined {
  if (!schema) return undefined;
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    for (const branch of branches) {
      if (!isJsonObject(branch)) continue;
      const resolved = resolveSchema(branch, value);
      if (resolved && jsonTypeAccepts(schemaTypes(resolved), value)) return resolved;
    }
    return undefined;
  }
  return schema;
}

function numberKind(schema: JsonObject | undefined, value: number): NumberKind {
  if (!Number.isInteger(value)) return "float";
  const types = schema ? schemaTypes(schema) : [];
  if (types.includes("number")) return "float";
  return "int";
}

function itemSchema(schema: JsonObject | undefined): JsonObject | undefined {
  const items = schema?.items;
  return isJsonObject(items) ? items : undefined;
}

function propertySchema(schema: JsonObject | undefined, key: string): JsonObject | undefined {
  const props = schema?.properties;
  if (isJsonObject(props)) {
    const prop = props[key];
    if (isJsonObject(prop)) return prop;
  }
  const extra = schema?.additionalProperties;
  return isJsonObject(extra) ? extra : undefined;
}

/** Python `repr` text of a JSON value or a world cell (a list cell prints as a Python list), with numbers typed by `schema` when given. */
export function pyRepr(value: JsonValue | CellValue, schema?: JsonObject): string {
  const s = resolveSchema(schema, value);
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return pyStrRepr(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return pyFloatRepr(value);
    return numberKind(s, value) === "int" ? pyIntRepr(value) : pyFloatRepr(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => pyRepr(item, itemSchema(s))).join(", ")}]`;
  }
  // Insertion order, like a Python dict. (JS puts integer-like keys such as "2" first; no tool
  // result has such keys.)
  const entries = Object.entries(value).map(([k, v]) => `${pyStrRepr(k)}: ${pyRepr(v, propertySchema(s, k))}`);
  return `{${entries.join(", ")}}`;
}
