// snapshot_similarity (reference 5.5): the rows must match the target one to one. Each (target
// row, row) pair costs the mean over the target's columns of -ln(similarity), i.e. -ln of the
// columns' geometric mean; the pairing with the least total cost is found as a linear sum
// assignment, and the score is exp(-mean assigned cost): the geometric mean over rows of each
// row's geometric mean over columns. A column scoring 0 costs +Infinity, so the optimal pairing
// avoids it when it can, and the score is 0 when it cannot.
//
// Upstream runs this in float32 (polars similarity columns); this port stays in float64, so
// scores may differ from upstream's in the 7th significant digit.
import { munkres } from "munkres";
import type { ColumnMeasure, TargetRow } from "../../scenario/model.js";
import { columnSimilarity } from "./column-measures.js";
import { measureFor } from "./default-measures.js";
import { countOf } from "./describe.js";
import type { ColumnScore, MeasuredRow, RowPairing, WeakestColumn } from "./types.js";

export interface RowsComparison {
  readonly similarity: number;
  readonly reason: string | null;
  readonly pairs: readonly RowPairing[];
  readonly weakest: WeakestColumn | null;
}

interface RowsToCompare {
  readonly table: string;
  readonly rows: readonly MeasuredRow[];
  /** Where each of `rows` sits in the table the explanation refers to; default 0, 1, 2, ... */
  readonly positions?: readonly number[];
  /** Every column the compared table has. */
  readonly columns: ReadonlySet<string>;
  readonly target: readonly TargetRow[];
  readonly measures: Readonly<Record<string, ColumnMeasure>>;
  /** What a compared row is, for messages: "row", "new row", "removed row", "changed row". */
  readonly noun: string;
  /** Only the similarity will be read: one row against one target row skips the explanation. */
  readonly scoreOnly?: boolean;
}

/**
 * One row against one target row, similarity only: the same sums as rowCost and the pairing
 * below (0 + cost, divided by 1), stopping at the first column that scores 0 (its cost is
 * +Infinity, so the score is 0 whatever the other columns say: a SANDBOX message from the wrong
 * sender is not compared word by word).
 */
function singlePairSimilarity(row: MeasuredRow, targetRow: TargetRow, measures: RowsToCompare["measures"]): number {
  let sum = 0;
  let count = 0;
  for (const [column, expected] of Object.entries(targetRow)) {
    const similarity = columnSimilarity(measureFor(measures, column), row[column] ?? null, expected).similarity;
    if (similarity === null) continue;
    if (similarity === 0) return 0;
    sum += -Math.log(similarity);
    count++;
  }
  return count === 0 ? 0 : Math.exp(-(sum / count));
}

const failed = (reason: string): RowsComparison => ({ similarity: 0, reason, pairs: [], weakest: null });

/** -ln of the geometric mean of the scored columns; NaN when every column is neutral. */
function rowCost(columns: readonly ColumnScore[]): number {
  let sum = 0;
  let count = 0;
  for (const { similarity } of columns) {
    if (similarity === null) continue;
    sum += -Math.log(similarity);
    count++;
  }
  return count === 0 ? NaN : sum / count;
}

function weakestOf(pairs: readonly RowPairing[]): WeakestColumn | null {
  let weakest: WeakestColumn | null = null;
  for (const pair of pairs) {
    for (const { column, similarity } of pair.columns) {
      if (similarity !== null && similarity < 1 && (weakest === null || similarity < weakest.similarity)) {
        weakest = { target: pair.target, row: pair.row, column, similarity };
      }
    }
  }
  return weakest;
}

export function compareRows(input: RowsToCompare): RowsComparison {
  const { rows, target } = input;
  const positions = input.positions ?? rows.map((_, i) => i);
  if (rows.length !== target.length) {
    return failed(`row count differs: expected ${countOf(target.length, input.noun)}, found ${rows.length}`);
  }
  for (const targetRow of target) {
    const missing = Object.keys(targetRow).find((column) => !input.columns.has(column));
    if (missing !== undefined) return failed(`column '${missing}' does not exist in ${input.table}`);
  }
  // Upstream cannot score an empty target (it fails building the cost matrix); nothing expected
  // and nothing found is read here as a full match.
  if (target.length === 0) return { similarity: 1, reason: null, pairs: [], weakest: null };
  if (input.scoreOnly && rows.length === 1 && target.length === 1) {
    return { similarity: singlePairSimilarity(rows[0]!, target[0]!, input.measures), reason: null, pairs: [], weakest: null };
  }

  const scores: ColumnScore[][][] = target.map((targetRow) =>
    rows.map((row) =>
      Object.entries(targetRow).map(([column, expected]): ColumnScore => {
        const measure = measureFor(input.measures, column);
        const result = columnSimilarity(measure, row[column] ?? null, expected);
        const { similarity, note } = result;
        return note === undefined ? { column, measure: measure.kind, similarity } : { column, measure: measure.kind, similarity, note };
      }),
    ),
  );
  const costs = scores.map((byRow) => byRow.map(rowCost));
  for (let t = 0; t < costs.length; t++) {
    const r = costs[t]!.findIndex((cost) => Number.isNaN(cost));
    // Upstream's assignment solver rejects a cost matrix holding NaN, and the score is 0.
    if (r >= 0) return failed(`target row ${t} has only null cells to compare with row ${positions[r]}, so nothing can be scored`);
  }

  // One target row and one row pair up without solving anything (what munkres returns too).
  const assignment = costs.length === 1 ? [[0, 0] as const] : munkres(costs).sort((a, b) => a[0] - b[0]);
  let total = 0;
  const pairs = assignment.map(([t, r]): RowPairing => {
    const cost = costs[t]![r]!;
    total += cost;
    return { target: t, row: positions[r]!, similarity: Math.exp(-cost), columns: scores[t]![r]! };
  });
  const similarity = Math.exp(-(total / assignment.length));
  const reason = similarity === 0 ? "every pairing of the rows has a column scoring 0" : null;
  return { similarity, reason, pairs, weakest: weakestOf(pairs) };
}
