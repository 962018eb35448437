// Argument checks shared by every tool module, raising the same agent-visible errors as upstream's
// common/validators.py (reference section 3.1). Each check throws a ToolError; the text is
// `${pyType}: ${message}` exactly as Python prints the last traceback line.
import { PhoneNumberUtil } from "google-libphonenumber";
import type { JsonValue } from "../base/json.js";
import { pyFloatRepr } from "../python/repr.js";
import { ToolError } from "./types.js";
import type { ParamType } from "./types.js";

// Exception names as Python's traceback prints them: builtins bare, everything else qualified by
// its module. The polars exceptions are defined in `polars.exceptions`, so upstream's agent sees
// e.g. "polars.exceptions.NoDataError: ..." (reference 3.2 writes them short as "NoDataError:").
export const NUMBER_PARSE_EXCEPTION = "phonenumbers.phonenumberutil.NumberParseException";
export const POLARS_DUPLICATE_ERROR = "polars.exceptions.DuplicateError";
export const POLARS_NO_DATA_ERROR = "polars.exceptions.NoDataError";

export type PyTypeName = "str" | "int" | "float" | "bool" | "NoneType" | "list" | "dict";

/** The Python type json.loads gives a value; an integral JS number counts as an int. */
export function pyTypeOf(value: JsonValue): PyTypeName {
  if (value === null) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "string") return "str";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  return Array.isArray(value) ? "list" : "dict";
}

const PY_TYPE_OF_PARAM: Readonly<Record<ParamType, PyTypeName>> = {
  string: "str",
  integer: "int",
  number: "float",
  boolean: "bool",
  array: "list",
};

/**
 * Upstream's validate_type: the value's exact type must be one the annotation allows, except that
 * an int is accepted for a float and a bool for an int or a float (bool subclasses int in Python).
 * `annotation` is how Python prints the expected type ("<class 'str'>", "typing.Optional[float]").
 */
export function validateType(value: JsonValue, name: string, expected: ParamType, annotation: string, nullable = false): void {
  const actual = pyTypeOf(value);
  const wanted = PY_TYPE_OF_PARAM[expected];
  const ok =
    actual === wanted ||
    (nullable && actual === "NoneType") ||
    (actual === "int" && wanted === "float") ||
    (actual === "bool" && (wanted === "int" || wanted === "float"));
  if (!ok) {
    throw new ToolError("TypeError", `Parameter '${name}' is of type '<class '${actual}'>', but expected '${annotation}'.`);
  }
  // An array parameter is a list of strings: each item is checked too, as typeguard checks List[str].
  if (expected === "array" && Array.isArray(value)) {
    const bad = value.find((item) => typeof item !== "string");
    if (bad !== undefined)
      throw new ToolError(
        "TypeError",
        `Parameter '${name}' holds an item of type '<class '${pyTypeOf(bad)}'>', but expected '${annotation}'.`,
      );
  }
}

/**
 * Upstream's validate_range. Only numbers are checked (omitted values and None pass); a bool counts
 * as 0 or 1 as in Python. The bounds print as Python floats because upstream's bounds are floats.
 */
export function validateRange(value: JsonValue | undefined, name: string, min?: number, max?: number): void {
  if (typeof value !== "number" && typeof value !== "boolean") return;
  const n = Number(value);
  if (min !== undefined && n < min) {
    throw new ToolError("ValueError", `Parameter '${name}' is smaller than its valid range minimum of ${pyFloatRepr(min)}.`);
  }
  if (max !== undefined && n > max) {
    throw new ToolError("ValueError", `Parameter '${name}' is larger than its valid range maximum of ${pyFloatRepr(max)}.`);
  }
}

/** Timestamps must lie in [1980, 2050) so a unit mistake (ms instead of s) is caught. */
const TIMESTAMP_MIN = 315529200.0;
const TIMESTAMP_MAX = 2524604400.0;

export function validateTimestamp(value: JsonValue | undefined, name: string): void {
  validateRange(value, name, TIMESTAMP_MIN, TIMESTAMP_MAX);
}

export function validateLatitude(value: JsonValue | undefined, name: string): void {
  validateRange(value, name, -90.0, 90.0);
}

export function validateLongitude(value: JsonValue | undefined, name: string): void {
  validateRange(value, name, -180.0, 180.0);
}

// --- phone numbers -----------------------------------------------------------------------------

// Python phonenumbers' error types (NumberParseException.error_type), printed as "(<n>) <msg>".
const INVALID_COUNTRY_CODE = 0;
const NOT_A_NUMBER = 1;
const TOO_SHORT_AFTER_IDD = 2;
const TOO_SHORT_NSN = 3;
const TOO_LONG = 4;
const MAX_INPUT_LENGTH = 250;

function parseError(errorType: number, message: string): ToolError {
  return new ToolError(NUMBER_PARSE_EXCEPTION, `(${errorType}) ${message}`);
}

/** Whether the part of the text parsing starts from (first plus sign or digit) is a plus sign. */
function startsWithPlus(text: string): boolean {
  const start = /[+\uFF0B\p{Nd}]/u.exec(text);
  return start !== null && (start[0] === "+" || start[0] === "\uFF0B");
}

/**
 * google-libphonenumber throws an Error whose message names the error type; this maps it to the
 * Python library's type number and message. Python distinguishes two cases of each of two types
 * that the JS port reports alike; the input tells them apart:
 * - INVALID_COUNTRY_CODE: without a leading plus there is no region to parse against ("Missing or
 *   invalid default region."); with one, the digits after it named no country (Python retries
 *   without the plus and then gives "Could not interpret numbers after plus-sign.").
 * - TOO_LONG: over 250 characters of input is rejected before parsing ("...too long to parse.");
 *   otherwise the national number has more than 17 digits.
 * TOO_SHORT_AFTER_IDD is mapped for completeness; without a default region the viability check
 * (three digits at least) seems to catch every input that could reach it.
 */
function mapParseFailure(text: string, jsMessage: string): ToolError {
  switch (jsMessage) {
    case "Invalid country calling code":
      return startsWithPlus(text)
        ? parseError(INVALID_COUNTRY_CODE, "Could not interpret numbers after plus-sign.")
        : parseError(INVALID_COUNTRY_CODE, "Missing or invalid default region.");
    case "The string supplied did not seem to be a phone number":
      return parseError(NOT_A_NUMBER, "The string supplied did not seem to be a phone number.");
    case "Phone number too short after IDD":
      return parseError(TOO_SHORT_AFTER_IDD, "Phone number had an IDD, but after this was not long enough to be a viable phone number.");
    case "The string supplied is too short to be a phone number":
      return parseError(TOO_SHORT_NSN, "The string supplied is too short to be a phone number.");
    case "The string supplied is too long to be a phone number":
      return parseError(TOO_LONG, "The string supplied is too long to be a phone number.");
    default:
      throw new Error(`unexpected google-libphonenumber failure: ${jsMessage}`);
  }
}

/**
 * Upstream's validate_phone_number: `phonenumbers.parse(value)` with no default region, so only
 * numbers written with a leading "+<country code>" pass. Nothing beyond parsing is checked (an
 * unassigned number such as +10000000000 is accepted). `undefined` is upstream's NOT_GIVEN: no check.
 *
 * Non-string values only reach this from search_contacts, which upstream does not typecheck; they
 * fail the way the Python library fails on them [inferred from its source, not run]: None is
 * rejected by the library, a number has no len(), and a list or dict has no .find().
 */
export function validatePhoneNumber(value: JsonValue | undefined): void {
  if (value === undefined) return;
  if (value === null) throw parseError(NOT_A_NUMBER, "The phone number supplied was None.");
  if (typeof value === "number" || typeof value === "boolean") {
    throw new ToolError("TypeError", `object of type '${pyTypeOf(value)}' has no len()`);
  }
  if (typeof value !== "string") {
    throw new ToolError("AttributeError", `'${pyTypeOf(value)}' object has no attribute 'find'`);
  }
  // Python measures the length in code points.
  if ([...value].length > MAX_INPUT_LENGTH) throw parseError(TOO_LONG, "The string supplied was too long to parse.");
  try {
    PhoneNumberUtil.getInstance().parse(value);
  } catch (e) {
    if (e instanceof Error) throw mapParseFailure(value, e.message);
    throw e;
  }
}

// --- currencies --------------------------------------------------------------------------------

let knownCurrencies: ReadonlySet<string> | undefined;

/**
 * Upstream's validate_currency_code (ccy): the code, upper-cased, must be a known ISO 4217 code.
 * The list is ICU's (Intl.supportedValuesOf), which is larger than ccy's table, so a few rare
 * codes upstream rejects are accepted here.
 */
export function validateCurrencyCode(code: string): void {
  knownCurrencies ??= new Set(Intl.supportedValuesOf("currency"));
  if (!knownCurrencies.has(code.toUpperCase())) {
    throw new ToolError("ValueError", `${code} is not a known 3 letter ISO 4217 currency code`);
  }
}
