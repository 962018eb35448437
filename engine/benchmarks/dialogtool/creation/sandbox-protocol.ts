// The lines the sandbox host and its child process exchange (JSON, one object a line), and their
// checks. Each side validates what it receives: the child trusts no host line it cannot read, and
// the host trusts nothing of the child, which runs model-written code.
import type { JsonValue } from "../../../base/json.js";

/** One call of the model's function: its keyword arguments and the world it starts from. */
export interface SandboxCall {
  readonly id: string;
  readonly arguments: { readonly [name: string]: JsonValue };
  readonly world: { readonly [table: string]: JsonValue };
}

/** The host's one request: define `functionName` from `code`, then make each call in turn. */
interface SandboxJob {
  readonly type: "job";
  readonly code: string;
  readonly functionName: string;
  readonly calls: readonly SandboxCall[];
}

/** What one call did: returned (with the world after it), raised, or could not be read back. */
export type CallOutcome =
  | { readonly kind: "returned"; readonly result: JsonValue; readonly world: JsonValue }
  | { readonly kind: "raised"; readonly exception: string; readonly message: string };

/** A call's outcome as the host accepts it: as sent, or refused with a one-line reason (the case fails). */
export type CheckedOutcome = CallOutcome | { readonly kind: "rejected"; readonly reason: string };

/**
 * The descriptor the child writes its messages to: a pipe the host opens beside stdin, stdout and
 * stderr. Python's own descriptors live in Emscripten's file system and never reach it.
 */
export const PROTOCOL_FD = 3;

export type ChildMessage =
  | { readonly type: "ready" }
  /** The function is defined; the calls follow. */
  | { readonly type: "defined" }
  /** The code did not define the function (a syntax error, an import refused, no such name). */
  | { readonly type: "load_failed"; readonly reason: string }
  | { readonly type: "call"; readonly id: string; readonly outcome: CallOutcome }
  | { readonly type: "done" };

/** A child's message as the host reads it: a call's values are checked separately (checkOutcome). */
export type ReceivedMessage =
  | Exclude<ChildMessage, { type: "call" }>
  | { readonly type: "call"; readonly id: string; readonly outcome: CheckedOutcome };

type Obj = { readonly [key: string]: unknown };
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const MAX_DEPTH = 64;

function isJson(v: unknown, depth = 0): v is JsonValue {
  if (depth > MAX_DEPTH) return false;
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every((x) => isJson(x, depth + 1));
  return isObject(v) && Object.values(v).every((x) => isJson(x, depth + 1));
}

const isJsonObject = (v: unknown): v is { readonly [key: string]: JsonValue } => isObject(v) && isJson(v);

function parse(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** Line breaks and other control characters, whatever the viewer counts as a new line. */
const LINE_BREAKING = /[\p{Cc}\u0085\u2028\u2029]+/gu;

/**
 * Unicode's bidirectional controls (embeddings, overrides, isolates, marks): text holding one can
 * show a terminal or an editor something else than it says (U+202E turns the rest of a line
 * around), so model-written text keeps them only as visible escapes.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** `text` with each bidirectional control written as its escape (`\u202E`), so that it shows and does nothing. */
export function escapeBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
}

/**
 * `text` as one line of at most `max` characters, its bidirectional controls escaped: what every
 * reason and message the host keeps must be.
 */
export function oneLine(text: string, max = 300): string {
  const line = escapeBidi(text.replace(LINE_BREAKING, " ")).trim();
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}

/** An exception's class name as Python spells identifiers, bounded: anything else is not one. */
const EXCEPTION_NAME = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]{0,99}$/u;

/** Why a returned value cannot be compared as sent (a number past exact integers, too deep), or null. */
function valueProblem(v: unknown, depth = 0): string | null {
  if (depth > MAX_DEPTH) return `is nested deeper than ${MAX_DEPTH} levels`;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return "holds a number that is not finite";
    if (Math.abs(v) > Number.MAX_SAFE_INTEGER) return `holds a number past the exactly representable range (2^53 - 1): ${v}`;
    return null;
  }
  if (v === null || typeof v === "string" || typeof v === "boolean") return null;
  const values = Array.isArray(v) ? v : isObject(v) ? Object.values(v) : null;
  if (values === null) return "is not JSON";
  for (const x of values) {
    const problem = valueProblem(x, depth + 1);
    if (problem !== null) return problem;
  }
  return null;
}

/**
 * A call's outcome as received, checked: values the comparison could get wrong (JSON.parse turns
 * 10**400 into Infinity, and a number past 2^53 into a neighbour) and exception names that are not
 * names are a failed case with the reason; messages are cut to one line.
 */
export function checkOutcome(outcome: Obj): CheckedOutcome | null {
  if (outcome.kind === "returned" && "result" in outcome && "world" in outcome) {
    const resultProblem = valueProblem(outcome.result);
    if (resultProblem !== null) return { kind: "rejected", reason: oneLine(`the result ${resultProblem}`) };
    const worldProblem = valueProblem(outcome.world);
    if (worldProblem !== null) return { kind: "rejected", reason: oneLine(`the world after the call ${worldProblem}`) };
    return { kind: "returned", result: outcome.result as JsonValue, world: outcome.world as JsonValue };
  }
  if (outcome.kind === "raised" && typeof outcome.exception === "string" && typeof outcome.message === "string") {
    if (!EXCEPTION_NAME.test(outcome.exception))
      return { kind: "rejected", reason: oneLine(`raised an exception whose name is not a Python identifier of at most 100 characters`) };
    return { kind: "raised", exception: outcome.exception, message: oneLine(outcome.message) };
  }
  return null;
}

/** A child's line, or null when it is not one of the messages above (a protocol violation). */
export function readChildMessage(line: string): ReceivedMessage | null {
  const v = parse(line);
  if (!isObject(v)) return null;
  switch (v.type) {
    case "ready":
    case "defined":
    case "done":
      return { type: v.type };
    case "load_failed":
      return typeof v.reason === "string" ? { type: "load_failed", reason: oneLine(v.reason) } : null;
    case "call": {
      if (typeof v.id !== "string" || !isObject(v.outcome)) return null;
      const outcome = checkOutcome(v.outcome);
      return outcome === null ? null : { type: "call", id: v.id, outcome };
    }
    default:
      return null;
  }
}

/** The host's job line, or null (the child then stops). */
export function readJob(line: string): SandboxJob | null {
  const v = parse(line);
  if (!isObject(v) || v.type !== "job" || typeof v.code !== "string" || typeof v.functionName !== "string") return null;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(v.functionName) || !Array.isArray(v.calls)) return null;
  const calls: SandboxCall[] = [];
  for (const c of v.calls as unknown[]) {
    if (!isObject(c) || typeof c.id !== "string" || !isJsonObject(c.arguments) || !isJsonObject(c.world)) return null;
    calls.push({ id: c.id, arguments: c.arguments, world: c.world });
  }
  return { type: "job", code: v.code, functionName: v.functionName, calls };
}
