// guardrail_similarity (reference 5.5, 5.7): 1 when the table is exactly as it was at the
// reference, else 0. Kept upstream semantics: the comparison is polars frame equality, which is
// order-sensitive. A modify_* tool deletes the row and appends the new one, so even a modify that
// writes the same values moves the row to the end and breaks the guardrail.
import { countOf, showValue } from "./describe.js";
import type { MeasuredCell, MeasuredRow } from "./types.js";

interface GuardrailResult {
  readonly similarity: 0 | 1;
  readonly reason: string | null;
}

function sameCell(a: MeasuredCell, b: MeasuredCell): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function rowKey(row: MeasuredRow, columns: readonly string[]): string {
  return JSON.stringify(columns.map((c) => row[c] ?? null));
}

export function guardrailSimilarity(
  current: readonly MeasuredRow[],
  reference: readonly MeasuredRow[],
  columns: readonly string[],
): GuardrailResult {
  if (current.length !== reference.length) {
    return { similarity: 0, reason: `table changed: ${countOf(reference.length, "row")} at the reference, ${current.length} now` };
  }
  for (const [i, row] of current.entries()) {
    const before = reference[i]!;
    const column = columns.find((c) => !sameCell(row[c] ?? null, before[c] ?? null));
    if (column === undefined) continue;
    const sorted = (rows: readonly MeasuredRow[]): string =>
      rows
        .map((r) => rowKey(r, columns))
        .sort()
        .join("\n");
    if (sorted(current) === sorted(reference)) {
      return {
        similarity: 0,
        reason: `same rows in a different order from row ${i} on (a modify moves its row to the end); guardrails compare order`,
      };
    }
    return {
      similarity: 0,
      reason: `row ${i} changed in column '${column}': ${showValue(before[column] ?? null)} at the reference, ${showValue(row[column] ?? null)} now`,
    };
  }
  return { similarity: 1, reason: null };
}
