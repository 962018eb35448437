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
export interface SandboxJob {
  readonly type: "job";
  readonly code: string;
  readonly functionName: string;
  readonly calls: readonly SandboxCall[];
}

/** What one call did: returned (with the world after it), raised, or could not be read back. */
export type CallOutcome =
  | { readonly kind: "returned"; readonly result: JsonValue; readonly world: JsonValue }
  | { readonly kind: "raised"; readonly exception: string; readonly message: string };

export type ChildMessage =
  | { readonly type: "ready" }
  /** The function is defined; the calls follow. */
  | { readonly type: "defined" }
  /** The code did not define the function (a syntax error, an import refused, no such name). */
  | { readonly type: "load_failed"; readonly reason: string }
  | { readonly type: "call"; readonly id: string; readonly outcome: CallOutcome }
  | { readonly type: "done" };

type Obj = { readonly [key: string]: unknown };
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function isJson(v: unknown, depth = 0): v is JsonValue {
  if (depth > 64) return false;
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

/** A child's line, or null when it is not one of the messages above. */
export function readChildMessage(line: string): ChildMessage | null {
  const v = parse(line);
  if (!isObject(v)) return null;
  switch (v.type) {
    case "ready":
    case "defined":
    case "done":
      return { type: v.type };
    case "load_failed":
      return typeof v.reason === "string" ? { type: "load_failed", reason: v.reason } : null;
    case "call": {
      const o = v.outcome;
      if (typeof v.id !== "string" || !isObject(o)) return null;
      if (o.kind === "returned" && isJson(o.result) && isJson(o.world))
        return { type: "call", id: v.id, outcome: { kind: "returned", result: o.result, world: o.world } };
      if (o.kind === "raised" && typeof o.exception === "string" && typeof o.message === "string")
        return { type: "call", id: v.id, outcome: { kind: "raised", exception: o.exception, message: o.message } };
      return null;
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
