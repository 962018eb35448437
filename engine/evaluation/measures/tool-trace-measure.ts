// Golden tool-trace matching (reference 5.3, column_tool_trace_exact_match_similarity): a message
// scores 1 when any of its traces matches any golden alternative. A golden trace names the tool
// and only the arguments that matter; each must be present in the actual call and equal to the
// golden value (within the argument's atol when both are numbers). Extra actual arguments and the
// result are ignored, so a golden trace with no arguments accepts any call of that tool, and a
// golden trace that expects a default must list it (traces carry the bound defaults).
import type { ToolTrace } from "../../episode/types.js";
import type { GoldenTrace } from "../../scenario/model.js";
import { showValue } from "./describe.js";
import { pyEquals } from "../../python/values.js";
import type { ExpectedValue, MeasuredCell } from "./types.js";

type Atol = Readonly<Record<string, number>> | undefined;

interface TraceScore {
  readonly similarity: 0 | 1;
  readonly note?: string;
}

function isRecord(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isTraceLike(v: unknown): v is GoldenTrace | ToolTrace {
  return isRecord(v) && typeof v.tool_name === "string" && isRecord(v.arguments);
}

/** The golden alternatives of a target cell: one trace or a list of them. */
export function goldenAlternatives(expected: unknown): readonly GoldenTrace[] | null {
  const list: readonly unknown[] = Array.isArray(expected) ? expected : [expected];
  return list.length > 0 && list.every(isTraceLike) ? (list as readonly GoldenTrace[]) : null;
}

function isNumeric(v: unknown): v is number | boolean {
  return typeof v === "number" || typeof v === "boolean";
}

/** Upstream is_close: |a - b| <= atol when an atol is given and both are numbers (Python bools are ints), else ==. */
function isClose(actual: unknown, golden: unknown, atol: number | undefined): boolean {
  if (atol !== undefined && isNumeric(actual) && isNumeric(golden)) return Math.abs(Number(actual) - Number(golden)) <= atol;
  return pyEquals(actual, golden);
}

/** The first golden argument the actual call fails, or null when the call matches. */
function firstMismatch(actual: GoldenTrace | ToolTrace, golden: GoldenTrace, atol: Atol): string | null {
  for (const [name, expected] of Object.entries(golden.arguments)) {
    // Upstream reads a missing argument as NOT_GIVEN, which equals nothing.
    if (!Object.hasOwn(actual.arguments, name)) return `${golden.tool_name}: argument '${name}' was not given`;
    const tolerance = atol?.[name];
    if (!isClose(actual.arguments[name], expected, tolerance)) {
      const within = tolerance !== undefined && typeof expected === "number" ? ` ± ${tolerance}` : "";
      return `${golden.tool_name}: argument '${name}' is ${showValue(actual.arguments[name])}, expected ${showValue(expected)}${within}`;
    }
  }
  return null;
}

export function toolTraceSimilarity(cell: MeasuredCell, expected: ExpectedValue, atol: Atol): TraceScore {
  const golden = goldenAlternatives(expected);
  if (!golden) return { similarity: 0, note: "the target holds no golden tool trace" };
  const traces = Array.isArray(cell) ? cell.filter(isTraceLike) : [];
  if (traces.length === 0) return { similarity: 0, note: "no tool trace on this message" };
  let firstFailure: string | null = null;
  for (const alternative of golden) {
    for (const trace of traces) {
      if (trace.tool_name !== alternative.tool_name) continue;
      const mismatch = firstMismatch(trace, alternative, atol);
      if (mismatch === null) return { similarity: 1 };
      firstFailure ??= mismatch;
    }
  }
  if (firstFailure !== null) return { similarity: 0, note: firstFailure };
  const names = [...new Set(golden.map((g) => `'${g.tool_name}'`))];
  return { similarity: 0, note: `no trace for tool ${names.join(" or ")}` };
}
