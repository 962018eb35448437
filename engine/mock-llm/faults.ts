// Faults the mock server can inject, and their command-line syntax:
//   KIND[:key=value[,key=value...]]
// e.g. "latency:ms=200", "rate-limit:every=3,retry_after=1", "server-error:rate=0.2,seed=7".
// Selection keys (every, first, times, rate, seed, role) say which requests a fault hits; the
// other keys belong to one kind. The same objects are the programmatic API.
import type { RequestRole } from "./identify.js";

const FAULT_KINDS = ["latency", "rate-limit", "server-error", "drop", "malformed-arguments", "unknown-tool", "extra-call"] as const;
type FaultKind = (typeof FAULT_KINDS)[number];

/** Which of the requests a fault is eligible for it hits. All given conditions must hold; none given = every one. */
export interface FaultSelection {
  /** Every N-th eligible request (N, 2N, ...). */
  readonly every?: number;
  /** Only the first N eligible requests. */
  readonly first?: number;
  /** At most N injections in all. */
  readonly times?: number;
  /** Each eligible request with probability P, drawn from a generator seeded with `seed` (default 0). */
  readonly rate?: number;
  readonly seed?: number;
  /** Only requests for this side of the conversation. */
  readonly role?: RequestRole;
}

export type Fault = FaultSelection &
  (
    | { readonly kind: "latency"; readonly ms: number }
    /** 429 with a Retry-After header of `retryAfter` seconds (default 1). */
    | { readonly kind: "rate-limit"; readonly retryAfter?: number }
    /** A 5xx answer; `status` defaults to 500. */
    | { readonly kind: "server-error"; readonly status?: number }
    /** The connection is closed without an answer. */
    | { readonly kind: "drop" }
    /** The first tool call's arguments are cut short, so they are not valid JSON. */
    | { readonly kind: "malformed-arguments" }
    /** The answer is one call to a tool the request does not offer (`name`, default "unknown_tool"). */
    | { readonly kind: "unknown-tool"; readonly name?: string }
    /**
     * A detour: the answer is one call to `tool` (offered, with no arguments) in place of the
     * scripted step, which comes on the next answer instead. A useless search, as a model makes.
     */
    | { readonly kind: "extra-call"; readonly tool: string }
  );

/** Faults that answer the request themselves: the faults listed after them do not see it. */
export const ENDING_FAULTS: ReadonlySet<FaultKind> = new Set(["rate-limit", "server-error", "drop"]);

export class FaultSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FaultSpecError";
  }
}

const SIDES: readonly RequestRole[] = ["agent", "user", "judge", "reviewer"];

const SELECTION_KEYS = ["every", "first", "times", "rate", "seed", "role"] as const;

const KIND_KEYS: Readonly<Record<FaultKind, readonly string[]>> = {
  latency: ["ms"],
  "rate-limit": ["retry_after"],
  "server-error": ["status"],
  drop: [],
  "malformed-arguments": [],
  "unknown-tool": ["name"],
  "extra-call": ["tool"],
};

/** Parses one `--fault` value; a FaultSpecError says what is wrong and what is accepted. */
export function parseFault(spec: string): Fault {
  const colon = spec.indexOf(":");
  const kindText = (colon < 0 ? spec : spec.slice(0, colon)).trim();
  const kind = FAULT_KINDS.find((k) => k === kindText);
  if (kind === undefined) throw new FaultSpecError(`unknown fault "${kindText}"; the kinds are ${FAULT_KINDS.join(", ")}`);
  const options = new Map<string, string>();
  const optionText = colon < 0 ? "" : spec.slice(colon + 1).trim();
  for (const pair of optionText === "" ? [] : optionText.split(",")) {
    const eq = pair.indexOf("=");
    if (eq < 0) throw new FaultSpecError(`${kind}: "${pair.trim()}" is not key=value`);
    const key = pair.slice(0, eq).trim();
    const accepted = [...KIND_KEYS[kind], ...SELECTION_KEYS];
    if (!accepted.includes(key)) throw new FaultSpecError(`${kind}: unknown option "${key}"; accepted: ${accepted.join(", ")}`);
    if (options.has(key)) throw new FaultSpecError(`${kind}: "${key}" is given twice`);
    options.set(key, pair.slice(eq + 1).trim());
  }
  const num = (key: string): number | undefined => {
    const text = options.get(key);
    if (text === undefined) return undefined;
    const value = Number(text);
    if (text === "" || !Number.isFinite(value)) throw new FaultSpecError(`${kind}: ${key} must be a number, got "${text}"`);
    return value;
  };
  const roleText = options.get("role");
  const role = roleText === undefined ? undefined : SIDES.find((side) => side === roleText);
  if (roleText !== undefined && role === undefined)
    throw new FaultSpecError(`${kind}: role must be agent, user, judge or reviewer, got "${roleText}"`);
  const selection: FaultSelection = compact({
    every: num("every"),
    first: num("first"),
    times: num("times"),
    rate: num("rate"),
    seed: num("seed"),
    role,
  });
  let fault: Fault;
  switch (kind) {
    case "latency": {
      const ms = num("ms");
      if (ms === undefined) throw new FaultSpecError("latency: give the delay, e.g. latency:ms=200");
      fault = { kind, ms, ...selection };
      break;
    }
    case "rate-limit":
      fault = { kind, ...compact({ retryAfter: num("retry_after") }), ...selection };
      break;
    case "server-error":
      fault = { kind, ...compact({ status: num("status") }), ...selection };
      break;
    case "unknown-tool":
      fault = { kind, ...compact({ name: options.get("name") }), ...selection };
      break;
    case "extra-call": {
      const tool = options.get("tool");
      if (tool === undefined) throw new FaultSpecError("extra-call: give the tool, e.g. extra-call:tool=search_contacts,first=1");
      fault = { kind, tool, ...selection };
      break;
    }
    default:
      fault = { kind, ...selection };
  }
  const problem = faultProblem(fault);
  if (problem !== null) throw new FaultSpecError(problem);
  return fault;
}

/** What is wrong with a fault's values (programmatic faults are checked too); null when nothing. */
export function faultProblem(fault: Fault): string | null {
  const positiveInteger = (key: string, v: number | undefined): string | null =>
    v === undefined || (Number.isSafeInteger(v) && v >= 1) ? null : `${fault.kind}: ${key} must be a whole number of at least 1, got ${v}`;
  const problems = [
    positiveInteger("every", fault.every),
    positiveInteger("first", fault.first),
    positiveInteger("times", fault.times),
    fault.rate === undefined || (fault.rate >= 0 && fault.rate <= 1)
      ? null
      : `${fault.kind}: rate must be between 0 and 1, got ${fault.rate}`,
    fault.seed === undefined || Number.isSafeInteger(fault.seed) ? null : `${fault.kind}: seed must be an integer, got ${fault.seed}`,
    fault.role === undefined || SIDES.includes(fault.role) ? null : `${fault.kind}: role must be agent, user, judge or reviewer`,
  ];
  switch (fault.kind) {
    case "latency":
      problems.push(
        Number.isFinite(fault.ms) && fault.ms >= 0 ? null : `latency: ms must be a number of milliseconds, at least 0, got ${fault.ms}`,
      );
      break;
    case "rate-limit":
      problems.push(
        fault.retryAfter === undefined || (Number.isSafeInteger(fault.retryAfter) && fault.retryAfter >= 0)
          ? null
          : `rate-limit: retry_after must be a whole number of seconds, at least 0, got ${fault.retryAfter}`,
      );
      break;
    case "server-error":
      problems.push(
        fault.status === undefined || (Number.isSafeInteger(fault.status) && fault.status >= 500 && fault.status <= 599)
          ? null
          : `server-error: status must be from 500 to 599, got ${fault.status}`,
      );
      break;
    case "unknown-tool":
      problems.push(
        fault.name === undefined || /^[a-zA-Z0-9_-]{1,64}$/.test(fault.name)
          ? null
          : `unknown-tool: name must be a valid tool name, got "${fault.name}"`,
      );
      break;
    case "extra-call":
      problems.push(/^[a-zA-Z0-9_-]{1,64}$/.test(fault.tool) ? null : `extra-call: tool must be a valid tool name, got "${fault.tool}"`);
      break;
  }
  return problems.find((p) => p !== null) ?? null;
}

/** The fault written back in the command-line syntax, for logs. */
export function describeFault(fault: Fault): string {
  const options: string[] = [];
  if (fault.kind === "latency") options.push(`ms=${fault.ms}`);
  if (fault.kind === "rate-limit" && fault.retryAfter !== undefined) options.push(`retry_after=${fault.retryAfter}`);
  if (fault.kind === "server-error" && fault.status !== undefined) options.push(`status=${fault.status}`);
  if (fault.kind === "unknown-tool" && fault.name !== undefined) options.push(`name=${fault.name}`);
  if (fault.kind === "extra-call") options.push(`tool=${fault.tool}`);
  for (const key of SELECTION_KEYS) {
    const value = fault[key];
    if (value !== undefined) options.push(`${key}=${value}`);
  }
  return options.length > 0 ? `${fault.kind}:${options.join(",")}` : fault.kind;
}

/** The object without its undefined fields (so `{ ...compact(x) }` adds only what was given). */
function compact<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
