// tool_trace_dependant_similarity (reference 5.5): values extracted from the traces of the
// referenced message fill the target before it is compared with the current message.
//
// - fill "tool_trace": every golden alternative is filled twice, once with the extracted values
//   overriding its arguments and once with its own arguments winning, and all of them become
//   the alternatives of the tool_trace column.
// - fill "content": the target content is a Python format string ("It is {days} days ...").
//
// The score is the best over all extracted value sets. Kept upstream semantics: a referenced
// message without traces scores 0, and a content template that cannot be filled (a missing
// name) makes the whole constraint 0, even if another value set scored before it.
import type { ToolTrace } from "../../episode/types.js";
import type { ColumnMeasure, Constraint, GoldenTrace, TargetRow } from "../../scenario/model.js";
import { extractValues, type ExtractedValues } from "./extractors.js";
import { pyFormat } from "./python-format.js";
import { compareRows, type RowsComparison } from "./snapshot-measure.js";
import { goldenAlternatives } from "./tool-trace-measure.js";
import type { ExtractionExplanation, MeasuredRow } from "./types.js";

type ExtractConstraint = Extract<Constraint, { kind: "tool_trace_extract" }>;

interface ExtractInput {
  readonly constraint: ExtractConstraint;
  readonly current: readonly MeasuredRow[];
  readonly reference: readonly MeasuredRow[];
  readonly measures: Readonly<Record<string, ColumnMeasure>>;
  readonly columns: ReadonlySet<string>;
}

interface ExtractComparison extends RowsComparison {
  readonly extraction: ExtractionExplanation;
}

function isToolTrace(v: unknown): v is ToolTrace {
  return typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as { tool_name?: unknown }).tool_name === "string";
}

function fillTraces(golden: readonly GoldenTrace[], values: ExtractedValues): GoldenTrace[] {
  return golden.flatMap((candidate) => [
    { tool_name: candidate.tool_name, arguments: { ...candidate.arguments, ...values } },
    { tool_name: candidate.tool_name, arguments: { ...values, ...candidate.arguments } },
  ]);
}

type Filled = { readonly ok: true; readonly cell: string | GoldenTrace[] } | { readonly ok: false; readonly error: string };

function fill(constraint: ExtractConstraint, values: ExtractedValues): Filled {
  const first = constraint.target[0];
  if (constraint.fill === "tool_trace") {
    const golden = goldenAlternatives(first?.tool_trace);
    return golden ? { ok: true, cell: fillTraces(golden, values) } : { ok: false, error: "the target has no tool_trace to fill" };
  }
  const template = first?.content;
  if (typeof template !== "string") return { ok: false, error: "the target has no content to fill" };
  const formatted = pyFormat(template, values);
  return formatted.ok ? { ok: true, cell: formatted.text } : { ok: false, error: `cannot fill the content: ${formatted.error}` };
}

export function toolTraceExtractSimilarity(input: ExtractInput): ExtractComparison {
  const { constraint } = input;
  const noExtraction: ExtractionExplanation = { values: [], best: null, filled: null };
  const failed = (reason: string, extraction = noExtraction): ExtractComparison => ({
    similarity: 0,
    reason,
    pairs: [],
    weakest: null,
    extraction,
  });
  const message = input.current[0];
  const referenced = input.reference[0];
  if (input.current.length !== 1 || input.reference.length !== 1 || !message || !referenced) {
    return failed("tool_trace_extract compares one message with one referenced message");
  }
  const traces = referenced.tool_trace;
  if (!Array.isArray(traces)) return failed("the referenced message has no tool trace");

  const values: ExtractedValues[] = [];
  let firstError: string | null = null;
  for (const trace of traces) {
    if (!isToolTrace(trace)) continue;
    const extracted = extractValues(constraint.extract, trace);
    if (extracted.ok) values.push(...extracted.values);
    else firstError ??= extracted.error;
  }
  if (values.length === 0) {
    return failed(`nothing extracted from the referenced message's traces${firstError === null ? "" : `: ${firstError}`}`);
  }

  const column = constraint.fill === "tool_trace" ? "tool_trace" : "content";
  let best: { comparison: RowsComparison; index: number; cell: string | GoldenTrace[] } | null = null;
  for (const [index, set] of values.entries()) {
    const filled = fill(constraint, set);
    if (!filled.ok) return failed(filled.error, { values, best: null, filled: null });
    const target: TargetRow[] = constraint.target.map((row) => ({ ...row, [column]: filled.cell }));
    const comparison = compareRows({
      table: "SANDBOX",
      rows: [message],
      columns: input.columns,
      target,
      measures: input.measures,
      noun: "row",
    });
    if (best === null || comparison.similarity > best.comparison.similarity) best = { comparison, index, cell: filled.cell };
  }
  if (best === null) return failed("nothing extracted from the referenced message's traces");
  const { comparison, index, cell } = best;
  const extraction: ExtractionExplanation = { values, best: comparison.similarity > 0 ? index : null, filled: cell };
  return { ...comparison, extraction };
}
