// The evaluation result at the panel's boundary. Rebuilt field by field, so what the panel holds is
// exactly what it checked; the tool_trace_extract details (`extraction`), which the panel does
// not show, are left out.
import type { ConstraintResult, EvaluationResult, NodeResult, ReferenceUsed } from "../../../engine/evaluation/result.js";
import type { ColumnScore, ConstraintExplanation, RowPairing, WeakestColumn } from "../../../engine/evaluation/measures/types.js";
import { index, list, nullable, oneOf, prop, record, str, unit, type Reader } from "./check.js";

const CONSTRAINT_KINDS = ["snapshot", "addition", "removal", "update", "tool_trace_extract", "guardrail"] as const;
const MEASURES = ["exact", "close", "contains", "rouge_l", "any", "tool_trace"] as const;

export function evaluationResult(value: unknown, path: string): EvaluationResult {
  const o = record(value, path);
  const windowValue = prop(o, "window");
  return {
    score: unit(prop(o, "score"), `${path}/score`),
    milestone_score: unit(prop(o, "milestone_score"), `${path}/milestone_score`),
    minefield_score: unit(prop(o, "minefield_score"), `${path}/minefield_score`),
    turn_count: index(prop(o, "turn_count"), `${path}/turn_count`),
    zero_reason: nullable(str)(prop(o, "zero_reason"), `${path}/zero_reason`),
    window: windowValue === null ? null : indexWindow(windowValue, `${path}/window`),
    milestones: list(nodeResult)(prop(o, "milestones"), `${path}/milestones`),
    minefields: list(nodeResult)(prop(o, "minefields"), `${path}/minefields`),
  };
}

function indexWindow(value: unknown, path: string): { first: number; last: number } {
  const o = record(value, path);
  return { first: index(prop(o, "first"), `${path}/first`), last: index(prop(o, "last"), `${path}/last`) };
}

function nodeResult(value: unknown, path: string): NodeResult {
  const o = record(value, path);
  return {
    id: str(prop(o, "id"), `${path}/id`),
    matched_at: nullable(index)(prop(o, "matched_at"), `${path}/matched_at`),
    explained_at: nullable(index)(prop(o, "explained_at"), `${path}/explained_at`),
    similarity: unit(prop(o, "similarity"), `${path}/similarity`),
    constraints: list(constraintResult)(prop(o, "constraints"), `${path}/constraints`),
    guardrails: list(constraintResult)(prop(o, "guardrails"), `${path}/guardrails`),
  };
}

const constraintKind = oneOf(CONSTRAINT_KINDS);

function constraintResult(value: unknown, path: string): ConstraintResult {
  const o = record(value, path);
  return {
    kind: constraintKind(prop(o, "kind"), `${path}/kind`),
    table: str(prop(o, "table"), `${path}/table`),
    similarity: unit(prop(o, "similarity"), `${path}/similarity`),
    reference: nullable(referenceUsed)(prop(o, "reference"), `${path}/reference`),
    explanation: explanation(prop(o, "explanation"), `${path}/explanation`),
  };
}

function referenceUsed(value: unknown, path: string): ReferenceUsed {
  const o = record(value, path);
  return { id: str(prop(o, "id"), `${path}/id`), index: index(prop(o, "index"), `${path}/index`) };
}

function explanation(value: unknown, path: string): ConstraintExplanation {
  const o = record(value, path);
  return {
    kind: constraintKind(prop(o, "kind"), `${path}/kind`),
    table: str(prop(o, "table"), `${path}/table`),
    similarity: unit(prop(o, "similarity"), `${path}/similarity`),
    rows: oneOf(["current", "reference"] as const)(prop(o, "rows"), `${path}/rows`),
    reason: nullable(str)(prop(o, "reason"), `${path}/reason`),
    pairs: list(pairing)(prop(o, "pairs"), `${path}/pairs`),
    weakest: nullable(weakestColumn)(prop(o, "weakest"), `${path}/weakest`),
  };
}

function pairing(value: unknown, path: string): RowPairing {
  const o = record(value, path);
  return {
    target: index(prop(o, "target"), `${path}/target`),
    row: index(prop(o, "row"), `${path}/row`),
    similarity: unit(prop(o, "similarity"), `${path}/similarity`),
    columns: list(columnScore)(prop(o, "columns"), `${path}/columns`),
  };
}

const measure: Reader<ColumnScore["measure"]> = oneOf(MEASURES);

function columnScore(value: unknown, path: string): ColumnScore {
  const o = record(value, path);
  const note = prop(o, "note");
  return {
    column: str(prop(o, "column"), `${path}/column`),
    measure: measure(prop(o, "measure"), `${path}/measure`),
    similarity: nullable(unit)(prop(o, "similarity"), `${path}/similarity`),
    ...(note === undefined ? {} : { note: str(note, `${path}/note`) }),
  };
}

function weakestColumn(value: unknown, path: string): WeakestColumn {
  const o = record(value, path);
  return {
    target: index(prop(o, "target"), `${path}/target`),
    row: index(prop(o, "row"), `${path}/row`),
    column: str(prop(o, "column"), `${path}/column`),
    similarity: unit(prop(o, "similarity"), `${path}/similarity`),
  };
}
