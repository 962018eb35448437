// Tool-trace extraction (reference 5.6): pulling values out of a referenced message's traces to
// fill a tool_trace_extract target. Upstream's ten named extractors are extraction-rule lists
// (defined with the scenario model, which validates the names); this file applies rules.
import type { JsonValue } from "../../base/json.js";
import type { ToolTrace } from "../../episode/types.js";
import type { ExtractionRule } from "../../scenario/model.js";
import { floatFormats } from "./python-format.js";
import { pyFloat, pyInt } from "../../python/values.js";

export { EXTRACTORS as UPSTREAM_EXTRACTORS, EXTRACTOR_NAMES as UPSTREAM_EXTRACTOR_NAMES } from "../../scenario/extractors.js";

export type ExtractedValues = Readonly<Record<string, JsonValue>>;

type Extraction = { readonly ok: true; readonly values: readonly ExtractedValues[] } | { readonly ok: false; readonly error: string };

/** The value at a dotted path ("result.days", "arguments.latitude", "result.0"), or undefined. */
function atPath(trace: ToolTrace, path: string): JsonValue | undefined {
  let value: JsonValue | undefined = { tool_name: trace.tool_name, arguments: { ...trace.arguments }, result: trace.result };
  for (const segment of path.split(".")) {
    if (Array.isArray(value)) value = /^\d+$/.test(segment) ? value[Number(segment)] : undefined;
    else if (typeof value === "object" && value !== null && Object.hasOwn(value, segment)) value = value[segment];
    else return undefined;
  }
  return value;
}

/**
 * One rule's candidate values. float_formats: Python float(v) printed as "{:.0f}" to "{:.3f}";
 * int: Python int(v), truncating; raw: the value itself.
 */
function ruleValues(rule: ExtractionRule, trace: ToolTrace): JsonValue[] | string {
  const value = atPath(trace, rule.path);
  if (value === undefined) return `the ${trace.tool_name} trace has no '${rule.path}'`;
  switch (rule.normalize) {
    case "float_formats": {
      const number = pyFloat(value);
      return number === null ? `'${rule.path}' of the ${trace.tool_name} trace is not a number` : floatFormats(number);
    }
    case "int": {
      const number = pyInt(value);
      return number === null ? `'${rule.path}' of the ${trace.tool_name} trace is not an integer` : [number];
    }
    case "raw":
      return [value];
  }
}

/**
 * The value sets one trace yields: one per combination of the rules' candidates, in order (one
 * float_formats rule gives four). Like upstream, a trace where any rule fails yields nothing.
 */
export function extractValues(rules: readonly ExtractionRule[], trace: ToolTrace): Extraction {
  let sets: Record<string, JsonValue>[] = [{}];
  for (const rule of rules) {
    const candidates = ruleValues(rule, trace);
    if (typeof candidates === "string") return { ok: false, error: candidates };
    sets = sets.flatMap((set) => candidates.map((candidate) => ({ ...set, [rule.as]: candidate })));
  }
  return { ok: true, values: sets };
}
