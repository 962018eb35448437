// `datetime.strptime` for the formats ToolTalk uses ("%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d"),
// matching CPython 3.11's _strptime: the same per-directive regular expressions (so "7:5:3" and
// "2023-9-1" are accepted, as in Python), whitespace in the format matching any run of whitespace,
// Unicode decimal digits counting as digits, and the same error texts in the same order.
import { pyStrRepr } from "../../../python/repr.js";
import { naiveFromFields, type NaiveDateTime } from "../../../tools/python-datetime.js";
import { ToolError } from "../../../tools/types.js";
import { PY_SPACE_CLASS, pyTypeName, type PyValue } from "./python-semantics.js";

export const TIME_FORMAT = "%H:%M:%S";
export const DATETIME_FORMAT = "%Y-%m-%d %H:%M:%S";
export const DATE_FORMAT = "%Y-%m-%d";

type Directive = "Y" | "m" | "d" | "H" | "M" | "S";

// CPython's TimeRE entries, with \d widened to every Unicode decimal digit as Python's re does.
const D = "\\p{Nd}";
const DIRECTIVES: Readonly<Record<Directive, string>> = {
  Y: `${D}${D}${D}${D}`,
  m: "1[0-2]|0[1-9]|[1-9]",
  d: `3[01]|[12]${D}|0[1-9]|[1-9]| [1-9]`,
  H: `2[0-3]|[0-1]${D}|${D}`,
  M: `[0-5]${D}|${D}`,
  S: `6[0-1]|[0-5]${D}|${D}`,
};

interface CompiledFormat {
  readonly regex: RegExp;
  readonly groups: readonly Directive[];
}

const SPACE = new RegExp(`[${PY_SPACE_CLASS}]`, "u");
const compiled = new Map<string, CompiledFormat>();

function compile(format: string): CompiledFormat {
  const cached = compiled.get(format);
  if (cached) return cached;
  const groups: Directive[] = [];
  let source = "";
  for (let i = 0; i < format.length; i++) {
    const ch = format[i]!;
    if (ch === "%") {
      const directive = format[i + 1] as Directive;
      source += `(${DIRECTIVES[directive]})`;
      groups.push(directive);
      i++;
    } else if (SPACE.test(ch)) {
      source += `[${PY_SPACE_CLASS}]+`;
      while (i + 1 < format.length && SPACE.test(format[i + 1]!)) i++;
    } else {
      source += ch.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }
  }
  // Anchored at the start only: Python reports text left over after a match separately.
  const result = { regex: new RegExp(`^(?:${source})`, "iu"), groups };
  compiled.set(format, result);
  return result;
}

const DECIMAL_DIGIT = /\p{Nd}/u;

/** The value of a decimal digit of any script: digits come in runs of ten, zero first. */
function digitValue(ch: string): number {
  let code = ch.codePointAt(0)!;
  let offset = 0;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(code - 1))) {
    code--;
    offset++;
  }
  return offset % 10;
}

/** int() of a matched field (a day may carry a leading space, which int() ignores). */
function fieldValue(text: string): number {
  let value = 0;
  for (const ch of text.trim()) value = value * 10 + digitValue(ch);
  return value;
}

/** `datetime.strptime(value, format)` as a naive datetime; raises Python's TypeError or ValueError. */
export function strptime(value: PyValue, format: string): NaiveDateTime {
  // CPython's argument check names None itself, other values by their type.
  if (typeof value !== "string")
    throw new ToolError("TypeError", `strptime() argument 1 must be str, not ${value === null ? "None" : pyTypeName(value)}`);
  const { regex, groups } = compile(format);
  const found = regex.exec(value);
  if (!found) throw new ToolError("ValueError", `time data ${pyStrRepr(value)} does not match format ${pyStrRepr(format)}`);
  if (found[0].length !== value.length) throw new ToolError("ValueError", `unconverted data remains: ${value.slice(found[0].length)}`);
  const fields = { year: 1900, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  groups.forEach((directive, i) => {
    const n = fieldValue(found[i + 1] ?? "");
    if (directive === "Y") fields.year = n;
    else if (directive === "m") fields.month = n;
    else if (directive === "d") fields.day = n;
    else if (directive === "H") fields.hour = n;
    else if (directive === "M") fields.minute = n;
    else fields.second = n;
  });
  // The datetime constructor then checks year, day of month and second (60 and 61 pass the regex).
  return naiveFromFields(fields);
}

/** a < b, a == b, a > b as -1, 0, 1. */
export function compareNaive(a: NaiveDateTime, b: NaiveDateTime): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  return a.micros === b.micros ? 0 : a.micros < b.micros ? -1 : 1;
}
