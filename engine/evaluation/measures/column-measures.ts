// The column similarity measures (reference 5.3): how one cell compares with the value a target
// row expects in that column, as a number in [0, 1] or null for "left out of the row's mean".
import type { ColumnMeasure } from "../../scenario/model.js";
import { rougeLF } from "../rouge.js";
import { showValue } from "./describe.js";
import { pyEquals } from "../../python/values.js";
import { toolTraceSimilarity } from "./tool-trace-measure.js";
import type { ExpectedValue, MeasuredCell } from "./types.js";

interface ColumnResult {
  /** In [0, 1]; null is neutral (see exactSimilarity). */
  readonly similarity: number | null;
  readonly note?: string;
}

const NEUTRAL: ColumnResult = { similarity: null, note: "null cell: left out of the row's mean" };
const ONE: ColumnResult = { similarity: 1 };

function expectNull(cell: MeasuredCell): ColumnResult {
  return cell === null ? ONE : { similarity: 0, note: `found ${showValue(cell)}, expected null` };
}

/**
 * 1 when the cell equals the value (Python ==), 0 otherwise; a null expectation wants a null cell.
 *
 * Kept upstream quirk: upstream compares with polars, where a null cell compared with a non-null
 * value is null rather than false. The row's mean then skips the column, so a null cell is
 * NEUTRAL: it neither helps nor hurts the row, where 0 would have been the natural reading.
 */
export function exactSimilarity(cell: MeasuredCell, expected: ExpectedValue): ColumnResult {
  if (expected === null) return expectNull(cell);
  if (cell === null) return NEUTRAL;
  return pyEquals(cell, expected) ? ONE : { similarity: 0, note: `found ${showValue(cell)}, expected ${showValue(expected)}` };
}

/**
 * 1 when |cell - value| <= atol. A null cell scores 0 (upstream's is_close falls back to ==).
 * Upstream requires a numeric expectation; a null one is read here as "the cell must be null".
 */
export function closeSimilarity(cell: MeasuredCell, expected: ExpectedValue, atol: number): ColumnResult {
  if (expected === null) return expectNull(cell);
  if (typeof expected !== "number") return { similarity: 0, note: `close needs a number, the target has ${showValue(expected)}` };
  if (typeof cell === "number" && Math.abs(cell - expected) <= atol) return ONE;
  return { similarity: 0, note: `found ${showValue(cell)}, expected ${expected} ± ${atol}` };
}

/**
 * 1 when the cell contains the value as a case-sensitive literal substring; for a list of strings
 * expected, when every expected item is in the cell's list. A null cell is neutral, as for exact.
 */
export function containsSimilarity(cell: MeasuredCell, expected: ExpectedValue): ColumnResult {
  if (cell === null) return NEUTRAL;
  if (isStringList(expected)) return listContains(cell, expected);
  if (typeof expected !== "string") return { similarity: 0, note: `contains needs text, the target has ${showValue(expected)}` };
  if (typeof cell === "string" && cell.includes(expected)) return ONE;
  return { similarity: 0, note: `${showValue(cell)} does not contain ${showValue(expected)}` };
}

function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item: unknown) => typeof item === "string");
}

function listContains(cell: MeasuredCell, expected: readonly string[]): ColumnResult {
  if (!isStringList(cell)) return { similarity: 0, note: `found ${showValue(cell)}, expected a list holding ${showValue(expected)}` };
  const held: readonly string[] = cell;
  const missing = expected.find((item) => !held.includes(item));
  return missing === undefined ? ONE : { similarity: 0, note: `${showValue(cell)} does not hold ${showValue(missing)}` };
}

/**
 * ROUGE-L F-measure with the expected value as the target and the cell as the prediction.
 * Upstream fails on a null cell; here it scores 0, like text sharing no word.
 */
export function rougeSimilarity(cell: MeasuredCell, expected: ExpectedValue): ColumnResult {
  if (expected === null) return expectNull(cell);
  if (typeof expected !== "string") return { similarity: 0, note: `rouge_l needs text, the target has ${showValue(expected)}` };
  if (typeof cell !== "string") return { similarity: 0, note: `found ${showValue(cell)}, expected text` };
  const similarity = rougeLF(expected, cell);
  return similarity === 1 ? ONE : { similarity, note: `ROUGE-L against ${showValue(expected)}` };
}

export function columnSimilarity(measure: ColumnMeasure, cell: MeasuredCell, expected: ExpectedValue): ColumnResult {
  switch (measure.kind) {
    case "exact":
      return exactSimilarity(cell, expected);
    case "close":
      return closeSimilarity(cell, expected, measure.atol);
    case "contains":
      return containsSimilarity(cell, expected);
    case "rouge_l":
      return rougeSimilarity(cell, expected);
    case "any":
      return ONE;
    case "tool_trace":
      return toolTraceSimilarity(cell, expected, measure.atol);
  }
}
