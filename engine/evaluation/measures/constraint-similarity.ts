// One constraint of a milestone or minefield scored against the state at a candidate message
// index: the similarity in [0, 1] the matcher maximises, and an explanation of it for the editor
// and the run panel.
import type { TableName } from "../../scenario/model.js";
import { effectiveMeasures } from "./default-measures.js";
import { deltaSimilarity } from "./delta-measures.js";
import { guardrailSimilarity } from "./guardrail.js";
import { compareRows, type RowsComparison } from "./snapshot-measure.js";
import { columnSet, tableColumnKinds, tableColumns } from "./table-columns.js";
import { toolTraceExtractSimilarity } from "./tool-trace-extract.js";
import type { ConstraintExplanation, ConstraintInput, ConstraintScore, MeasuredConstraint } from "./types.js";

function scored(constraint: MeasuredConstraint, result: RowsComparison, rows: ConstraintExplanation["rows"]): ConstraintScore {
  const explanation: ConstraintExplanation = {
    kind: constraint.kind,
    table: constraint.table,
    similarity: result.similarity,
    rows,
    reason: result.reason,
    pairs: result.pairs,
    weakest: result.weakest,
  };
  return { similarity: result.similarity, explanation };
}

function noReference(table: TableName): RowsComparison {
  return { similarity: 0, reason: `no reference state of ${table} to compare with`, pairs: [], weakest: null };
}

/**
 * The constraint's similarity. `input.current` holds the table at the candidate index (for
 * SANDBOX, the one message there); `input.reference` the table at the reference, or for
 * tool_trace_extract the referenced message.
 */
export function constraintSimilarity(constraint: MeasuredConstraint, input: ConstraintInput): ConstraintScore {
  const kinds = tableColumnKinds(constraint.table, input.schema);
  const columns = tableColumns(kinds, kinds ? [] : [...input.current, ...(input.reference ?? [])]);

  if (constraint.kind === "guardrail") {
    if (input.reference === null) return scored(constraint, noReference(constraint.table), "current");
    const { similarity, reason } = guardrailSimilarity(input.current, input.reference, columns);
    return scored(constraint, { similarity, reason, pairs: [], weakest: null }, "current");
  }

  const measures = effectiveMeasures(constraint.table, constraint.measures, input.schema);
  switch (constraint.kind) {
    case "snapshot": {
      const result = compareRows({
        table: constraint.table,
        rows: input.current,
        columns: columnSet(columns),
        target: constraint.target,
        measures,
        noun: "row",
        scoreOnly: input.scoreOnly === true,
      });
      return scored(constraint, result, "current");
    }
    case "addition":
    case "removal":
    case "update": {
      const rows = constraint.kind === "removal" ? "reference" : "current";
      if (input.reference === null) return scored(constraint, noReference(constraint.table), rows);
      const result = deltaSimilarity({
        kind: constraint.kind,
        table: constraint.table,
        current: input.current,
        reference: input.reference,
        target: constraint.target,
        measures,
        columns,
        kinds,
      });
      return scored(constraint, result, rows);
    }
    case "tool_trace_extract": {
      if (input.reference === null) return scored(constraint, noReference(constraint.table), "current");
      const result = toolTraceExtractSimilarity({
        constraint,
        current: input.current,
        reference: input.reference,
        measures,
        columns: columnSet(columns),
      });
      const { explanation } = scored(constraint, result, "current");
      return { similarity: result.similarity, explanation: { ...explanation, extraction: result.extraction } };
    }
  }
}
