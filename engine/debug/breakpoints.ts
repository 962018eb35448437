// The breakpoints a session holds: line breakpoints bound to what the scenario line stands for,
// function breakpoints (`turn N`, `message N`), the exception filters, and each one's condition
// and hit count. Parsing and binding happen when the client sets them, so a bad condition or a
// line with nothing on it shows unverified with the reason at once.
import { ExpressionError, parseExpression, type Expression } from "./expressions.js";
import type { LineTarget, ScenarioSourceMap } from "./source-map.js";

export const EXCEPTION_FILTERS = [
  { filter: "toolError", label: "Tool error", description: "A tool call the execution environment answered with an exception" },
  { filter: "minefield", label: "Minefield hit", description: "A minefield matches the messages so far, at the message where it is hit" },
  { filter: "modelError", label: "Model error", description: "A model call failed (the episode ends with model_error)" },
  {
    filter: "knowledgeLeak",
    label: "Knowledge leak",
    description: "The simulated user says the value of a knowledge fact marked reveal: never",
  },
  { filter: "end", label: "End of episode", description: "Stop once more when the episode has ended, before the session does" },
] as const;

export type ExceptionFilter = (typeof EXCEPTION_FILTERS)[number]["filter"];

export const isExceptionFilter = (id: string): id is ExceptionFilter => EXCEPTION_FILTERS.some((f) => f.filter === id);

export type FunctionTarget = { readonly kind: "turn"; readonly turn: number } | { readonly kind: "message"; readonly index: number };

/** A hit condition: `N` or `==N` (the Nth hit), `>=N`, `>N`, `%N` (every Nth). */
export interface HitCondition {
  readonly op: "==" | ">=" | ">" | "%";
  readonly n: number;
}

export interface Breakpoint {
  readonly id: number;
  readonly verified: boolean;
  /** Why it cannot bind (shown in the editor); absent when verified. */
  readonly message?: string;
  /** 0-based line for a line breakpoint. */
  readonly line?: number;
  readonly target: { readonly kind: "line"; readonly at: LineTarget } | { readonly kind: "function"; readonly at: FunctionTarget } | null;
  readonly condition: Expression | null;
  readonly hit: HitCondition | null;
  /** Which hit each message index was, counted the first time the session passes it going forward. */
  readonly hits: Map<number, number>;
}

export interface LineRequest {
  /** 0-based. */
  readonly line: number;
  readonly condition?: string;
  readonly hitCondition?: string;
}

export interface FunctionRequest {
  readonly name: string;
  readonly condition?: string;
  readonly hitCondition?: string;
}

let nextId = 1;

function parseHitCondition(text: string): HitCondition {
  const m = /^\s*(==|>=|>|%)?\s*(\d+)\s*$/.exec(text);
  if (!m) throw new ExpressionError(`the hit count "${text}" is not N, ==N, >=N, >N or %N`);
  const n = Number(m[2]);
  if (n < 1) throw new ExpressionError("a hit count starts at 1");
  return { op: (m[1] as HitCondition["op"] | undefined) ?? "==", n };
}

export function hitMatches(hit: HitCondition | null, ordinal: number): boolean {
  if (!hit) return true;
  switch (hit.op) {
    case "==":
      return ordinal === hit.n;
    case ">=":
      return ordinal >= hit.n;
    case ">":
      return ordinal > hit.n;
    case "%":
      return ordinal % hit.n === 0;
  }
}

/** A condition and hit count parsed, or the reason they cannot be. */
function parseExtras(request: {
  readonly condition?: string;
  readonly hitCondition?: string;
}): { condition: Expression | null; hit: HitCondition | null } | { error: string } {
  try {
    const condition = request.condition?.trim() ? parseExpression(request.condition) : null;
    const hit = request.hitCondition?.trim() ? parseHitCondition(request.hitCondition) : null;
    return { condition, hit };
  } catch (e) {
    if (e instanceof ExpressionError) return { error: `condition: ${e.message}` };
    throw e;
  }
}

function unverified(message: string, line?: number): Breakpoint {
  return {
    id: nextId++,
    verified: false,
    message,
    ...(line === undefined ? {} : { line }),
    target: null,
    condition: null,
    hit: null,
    hits: new Map(),
  };
}

/**
 * Binds line breakpoints of `file`. `map` is null when the session has no scenario file (a
 * trajectory whose scenario file was not found); `reasonForStep` says why a reference step
 * cannot stop (its role is played by a model), or null.
 */
export function bindLineBreakpoints(
  requests: readonly LineRequest[],
  map: ScenarioSourceMap | null,
  reasonForStep: (target: Extract<LineTarget, { kind: "reference" }>) => string | null,
): Breakpoint[] {
  return requests.map((request) => {
    if (!map) return unverified("this session has no scenario file to bind lines of", request.line);
    const bound = map.bind(request.line);
    if (!bound.ok) return unverified(bound.reason, request.line);
    if (bound.target.kind === "reference") {
      const reason = reasonForStep(bound.target);
      if (reason !== null) return unverified(reason, bound.line);
    }
    const extras = parseExtras(request);
    if ("error" in extras) return unverified(extras.error, bound.line);
    return { id: nextId++, verified: true, line: bound.line, target: { kind: "line", at: bound.target }, ...extras, hits: new Map() };
  });
}

export function bindFunctionBreakpoints(requests: readonly FunctionRequest[]): Breakpoint[] {
  return requests.map((request) => {
    // "user turn N" is the name frames use; the shorter "turn N" stays for older launch files.
    const m = /^\s*((?:user\s+)?turn|message)\s+(\d+)\s*$/i.exec(request.name);
    if (!m) return unverified(`"${request.name}" is not a function breakpoint; write "user turn N" or "message N"`);
    const n = Number(m[2]);
    const at: FunctionTarget = m[1]!.toLowerCase() !== "message" ? { kind: "turn", turn: n } : { kind: "message", index: n };
    if (at.kind === "turn" && n < 1) return unverified("user turns are counted from 1 (user turn 1 starts at the opening message)");
    const extras = parseExtras(request);
    if ("error" in extras) return unverified(extras.error);
    return { id: nextId++, verified: true, target: { kind: "function", at }, ...extras, hits: new Map() };
  });
}
