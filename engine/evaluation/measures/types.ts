// Shapes shared by the similarity measures: the rows they compare and the explanation they give.
// Explanations are shown in the editor and the run panel, so they stay small and JSON-serialisable.
import type { JsonValue } from "../../base/json.js";
import type { RoleName, ToolTrace } from "../../episode/types.js";
import type { CellValue, TableSchema } from "../../world/types.js";
import type { ColumnMeasure, Constraint, ConstraintReference, GoldenTrace, TableName } from "../../scenario/model.js";

/** A cell of a compared row: a world cell, or a message's tool traces or visibility list. */
export type MeasuredCell = CellValue | readonly ToolTrace[] | readonly RoleName[];
/** A compared row: a world table row, or a message as a SANDBOX row (sandbox-rows.ts). */
export type MeasuredRow = Readonly<Record<string, MeasuredCell>>;

/** What a target row expects in one column (TargetRow's value type). */
export type ExpectedValue = CellValue | readonly GoldenTrace[] | readonly RoleName[];

/**
 * The automatic "nothing else changed" check (reference 5.7). Not written in scenarios: the
 * evaluation adds one per watched table and reference, so it is not part of the scenario model.
 */
export interface GuardrailConstraint {
  readonly kind: "guardrail";
  readonly table: TableName;
  readonly reference: ConstraintReference;
}

export type MeasuredConstraint = Constraint | GuardrailConstraint;

export interface ConstraintInput {
  /**
   * Only the similarity will be read (the matcher scoring thousands of messages): a measure may
   * then leave the explanation out where that saves work. The similarity is the same bits.
   */
  readonly scoreOnly?: boolean;
  /**
   * The state at the candidate message index: the table's rows in order, or for SANDBOX the one
   * message row at that index.
   */
  readonly current: readonly MeasuredRow[];
  /**
   * The state at the reference: the table at the referenced milestone's matched index (or the
   * initial state); for tool_trace_extract the referenced message row. Null without a reference.
   */
  readonly reference: readonly MeasuredRow[] | null;
  /**
   * The world table's schema in the scenario's pack: column names, zero values and default
   * measures. Absent for SANDBOX, and for a table the pack does not have (its columns are then
   * the keys the rows use, each compared exactly).
   */
  readonly schema?: TableSchema;
}

export interface ColumnScore {
  readonly column: string;
  readonly measure: ColumnMeasure["kind"];
  /** In [0, 1]. Null is neutral: the column is left out of the row's mean (exact match on a null cell). */
  readonly similarity: number | null;
  /** Why the column scored below 1, in a few words. Absent when it scored 1. */
  readonly note?: string;
}

export interface RowPairing {
  /** Position of the target row. */
  readonly target: number;
  /** Position of the paired row in the table named by ConstraintExplanation.rows. */
  readonly row: number;
  /** Geometric mean of the scored (non-neutral) column similarities. */
  readonly similarity: number;
  readonly columns: readonly ColumnScore[];
}

/** The column that pulled the score down the most: the lowest column similarity of any pairing. */
export interface WeakestColumn {
  readonly target: number;
  readonly row: number;
  readonly column: string;
  readonly similarity: number;
}

/** How a tool_trace_extract constraint used the referenced message's traces. */
export interface ExtractionExplanation {
  /** Every value set extracted from the referenced traces, in order. */
  readonly values: readonly Readonly<Record<string, JsonValue>>[];
  /** Position in `values` of the set that gave the best similarity; null when none scored. */
  readonly best: number | null;
  /** The target cell filled with the best set: the formatted content or the golden traces. */
  readonly filled: string | readonly GoldenTrace[] | null;
}

export interface ConstraintExplanation {
  readonly kind: MeasuredConstraint["kind"];
  readonly table: TableName;
  readonly similarity: number;
  /**
   * Which rows `pairs[].row` counts in: the current state (snapshot, addition, update, SANDBOX)
   * or the reference (removal compares the rows that were removed from it).
   */
  readonly rows: "current" | "reference";
  /** Why the score is what it is when a rule decided it ("row count differs: ..."); null otherwise. */
  readonly reason: string | null;
  /** Which target row was paired with which row, and each column's similarity. */
  readonly pairs: readonly RowPairing[];
  /** Set when some column scored below 1. */
  readonly weakest: WeakestColumn | null;
  readonly extraction?: ExtractionExplanation;
}

export interface ConstraintScore {
  readonly similarity: number;
  readonly explanation: ConstraintExplanation;
}
