// The part of Python's string formatting that tool_trace_extract relies on: "{:.2f}"-style fixed
// notation (the extractors' float normalisation) and str.format with named fields (filling a
// target message's content with extracted values).
//
// Fixed notation rounds the exact binary value half to even, as CPython does. Number.toFixed
// rounds exact halves up instead: 2.5 -> "3" and 0.125 -> "0.13", where Python gives "2" and "0.12".
import type { JsonValue } from "../../base/json.js";
import { pyRepr, pyStrRepr } from "../../python/repr.js";
import { pyStr } from "../../python/values.js";

/** The finite double as mantissa * 2^exponent, both exact. */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const high = view.getUint32(0);
  const low = view.getUint32(4);
  const biased = (high >>> 20) & 0x7ff;
  const fraction = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  // Subnormals have no implicit leading bit and the smallest exponent.
  if (biased === 0) return { mantissa: fraction, exponent: -1074 };
  return { mantissa: fraction | (1n << 52n), exponent: biased - 1075 };
}

/** Python format(x, f".{precision}f"): exact value, ties to even, sign kept on negative zero. */
export function formatFixed(x: number, precision: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const negative = x < 0 || Object.is(x, -0);
  const { mantissa, exponent } = decompose(Math.abs(x));
  const scale = 10n ** BigInt(precision);
  let scaled: bigint;
  if (exponent >= 0) {
    scaled = (mantissa << BigInt(exponent)) * scale;
  } else {
    const numerator = mantissa * scale;
    const denominator = 1n << BigInt(-exponent);
    scaled = numerator / denominator;
    const twiceRemainder = 2n * (numerator - scaled * denominator);
    if (twiceRemainder > denominator || (twiceRemainder === denominator && scaled % 2n === 1n)) scaled += 1n;
  }
  const digits = scaled.toString().padStart(precision + 1, "0");
  const whole = digits.slice(0, digits.length - precision);
  const fraction = digits.slice(digits.length - precision);
  return `${negative ? "-" : ""}${whole}${precision > 0 ? `.${fraction}` : ""}`;
}

/** The upstream extractors' float normalisation: "{:.0f}", "{:.1f}", "{:.2f}", "{:.3f}". */
export function floatFormats(x: number): string[] {
  return [0, 1, 2, 3].map((precision) => formatFixed(x, precision));
}

type FormatResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };

interface FormatSpec {
  fill: string;
  align: string | null;
  sign: string;
  width: number;
  grouping: string;
  precision: number | null;
  type: string;
}

const SPEC_REST = /^([+\- ])?(0)?(\d+)?([,_])?(?:\.(\d+))?([sdfF])?$/;

function parseSpec(spec: string): FormatSpec | null {
  let fill = " ";
  let align: string | null = null;
  let rest = spec;
  const chars = [...spec];
  if (chars.length >= 2 && "<>=^".includes(chars[1]!)) {
    fill = chars[0]!;
    align = chars[1]!;
    rest = chars.slice(2).join("");
  } else if (chars.length >= 1 && "<>=^".includes(chars[0]!)) {
    align = chars[0]!;
    rest = chars.slice(1).join("");
  }
  const m = SPEC_REST.exec(rest);
  if (!m) return null;
  if (m[2] && align === null) {
    fill = "0";
    align = "=";
  }
  return {
    fill,
    align,
    sign: m[1] ?? "-",
    width: m[3] ? Number(m[3]) : 0,
    grouping: m[4] ?? "",
    precision: m[5] ? Number(m[5]) : null,
    type: m[6] ?? "",
  };
}

function group(digits: string, separator: string): string {
  return separator === "" ? digits : digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

function pad(body: string, signText: string, spec: FormatSpec, defaultAlign: string): string {
  const length = [...signText].length + [...body].length;
  const room = Math.max(0, spec.width - length);
  const align = spec.align ?? defaultAlign;
  const fill = spec.fill.repeat(room);
  if (align === "=") return signText + fill + body;
  if (align === "<") return signText + body + fill;
  if (align === "^") {
    const left = spec.fill.repeat(Math.floor(room / 2));
    return left + signText + body + spec.fill.repeat(room - Math.floor(room / 2));
  }
  return fill + signText + body;
}

/** format(value, spec) for the supported subset; an error message where Python raises or the spec is not supported. */
function formatValue(value: JsonValue, specText: string, field: string): FormatResult {
  if (specText === "") return { ok: true, text: pyStr(value) };
  const spec = parseSpec(specText);
  if (!spec) return { ok: false, error: `unsupported format "${field}"` };
  // With a non-empty spec Python formats a bool as the int it is.
  const v = typeof value === "boolean" ? Number(value) : value;
  if (typeof v === "string") {
    if (spec.type !== "" && spec.type !== "s")
      return { ok: false, error: `format code '${spec.type}' does not apply to text ("${field}")` };
    if (spec.sign !== "-" || spec.grouping !== "" || spec.align === "=")
      return { ok: false, error: `format "${field}" does not apply to text` };
    const text = spec.precision === null ? v : [...v].slice(0, spec.precision).join("");
    return { ok: true, text: pad(text, "", spec, "<") };
  }
  if (typeof v !== "number") return { ok: false, error: `format "${field}" does not apply to ${pyStr(v)}` };
  const isInt = Number.isInteger(v);
  let body: string;
  if (spec.type === "f" || spec.type === "F") {
    body = formatFixed(Math.abs(v), spec.precision ?? 6);
    if (spec.type === "F") body = body.toUpperCase();
    const [whole = "", fraction] = body.split(".");
    body = group(whole, spec.grouping) + (fraction === undefined ? "" : `.${fraction}`);
  } else if ((spec.type === "d" || spec.type === "") && isInt && spec.precision === null) {
    body = group(BigInt(Math.abs(v)).toString(), spec.grouping);
  } else if (spec.type === "" && spec.precision === null) {
    body = pyStr(Math.abs(v));
  } else {
    return { ok: false, error: `unsupported format "${field}" for ${pyStr(v)}` };
  }
  const negative = v < 0 || Object.is(v, -0);
  const signText = negative ? "-" : spec.sign === "+" ? "+" : spec.sign === " " ? " " : "";
  return { ok: true, text: pad(body, signText, spec, ">") };
}

/**
 * Python `template.format(**values)` for named fields: "{name}", "{name:spec}", "{name!r}",
 * "{name!s}", "{{" and "}}". Positional and indexed fields, and nested specs, are reported as errors.
 */
export function pyFormat(template: string, values: Readonly<Record<string, JsonValue>>): FormatResult {
  let out = "";
  let i = 0;
  while (i < template.length) {
    const ch = template[i]!;
    if (ch === "}") {
      if (template[i + 1] !== "}") return { ok: false, error: "single '}' in the template" };
      out += "}";
      i += 2;
      continue;
    }
    if (ch !== "{") {
      out += ch;
      i++;
      continue;
    }
    if (template[i + 1] === "{") {
      out += "{";
      i += 2;
      continue;
    }
    const close = template.indexOf("}", i);
    if (close < 0) return { ok: false, error: "single '{' in the template" };
    const field = template.slice(i, close + 1);
    const inner = template.slice(i + 1, close);
    if (inner.includes("{")) return { ok: false, error: `nested fields are not supported ("${field}")` };
    const m = /^([^!:]*)(?:!([rs]))?(?::(.*))?$/s.exec(inner);
    const name = m?.[1] ?? "";
    if (!m) return { ok: false, error: `malformed field "${field}"` };
    if (name === "" || /^\d+$/.test(name)) return { ok: false, error: `"${field}" needs a positional value; use a name` };
    if (!/^[A-Za-z_]\w*$/.test(name)) return { ok: false, error: `unsupported field "${field}"` };
    if (!Object.hasOwn(values, name)) return { ok: false, error: `no extracted value for {${name}}` };
    let value = values[name]!;
    if (m[2] === "r") value = typeof value === "string" ? pyStrRepr(value) : pyRepr(value);
    else if (m[2] === "s") value = pyStr(value);
    const formatted = formatValue(value, m[3] ?? "", field);
    if (!formatted.ok) return formatted;
    out += formatted.text;
    i = close + 1;
  }
  return { ok: true, text: out };
}
