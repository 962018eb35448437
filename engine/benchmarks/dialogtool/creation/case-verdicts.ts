// Whether the model's function did what our tool does on one case. The rule (docs/dialogtool.md):
// where ours returns, the function must return a JSON-equal result and leave a JSON-equal world
// (key order free, numbers equal to 1e-9 relative); where ours raises, the function must raise an
// exception of the same class name (the last dotted part of ours: NoDataError, not polars'
// full path). The message is not compared: it is ours to word.
import type { JsonValue } from "../../../base/json.js";
import type { ToolCase } from "./cases.js";
import type { SandboxCallResult } from "./sandbox.js";
import { oneLine } from "./sandbox-protocol.js";

export interface CaseVerdict {
  readonly id: string;
  readonly label: string;
  readonly kind: ToolCase["kind"];
  readonly pass: boolean;
  /** Why it failed, one line; empty when it passed. */
  readonly reason: string;
}

function sameNumber(a: number, b: number): boolean {
  return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** JSON equality: objects compared key by key in any order, arrays in order, numbers to 1e-9. */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (typeof a === "number" && typeof b === "number") return sameNumber(a, b);
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i] as JsonValue));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => k in b && jsonEqual(a[k] as JsonValue, b[k] as JsonValue));
}

const brief = (v: JsonValue): string => {
  const text = JSON.stringify(v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

/** The first key of the world whose value differs (a table name, `new_ids`, or a key added or lost). */
function firstDifference(expected: JsonValue, got: JsonValue): string {
  if (typeof expected !== "object" || expected === null || Array.isArray(expected)) return "the world";
  if (typeof got !== "object" || got === null || Array.isArray(got)) return "the world (not a dict)";
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(got)])];
  const key = keys.find((k) => !(k in expected) || !(k in got) || !jsonEqual(expected[k] as JsonValue, got[k] as JsonValue));
  return key === undefined ? "the world" : `world["${key}"]`;
}

export function judgeCase(c: ToolCase, got: SandboxCallResult | undefined): CaseVerdict {
  const verdict = (reason: string): CaseVerdict => ({
    id: c.id,
    label: c.label,
    kind: c.kind,
    pass: reason === "",
    reason: oneLine(reason),
  });
  const expected = c.expected;
  if (!got) return verdict("no answer from the sandbox");
  if (got.kind === "not_run" || got.kind === "rejected") return verdict(got.reason);
  if (expected.kind === "raised") {
    if (got.kind === "returned") return verdict(`returned ${brief(got.result)} where ours raises ${expected.exception}`);
    return verdict(got.exception === expected.exception ? "" : `raised ${got.exception} where ours raises ${expected.exception}`);
  }
  if (got.kind === "raised")
    return verdict(oneLine(`raised ${got.exception}: ${got.message} where ours returns ${brief(expected.result)}`));
  if (!jsonEqual(expected.result, got.result)) return verdict(`returned ${brief(got.result)} where ours returns ${brief(expected.result)}`);
  if (!jsonEqual(expected.world, got.world))
    return verdict(`${firstDifference(expected.world, got.world)} after the call differs from ours`);
  return verdict("");
}
