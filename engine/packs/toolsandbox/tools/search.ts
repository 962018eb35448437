// The row filters behind search_contacts, search_messages and search_reminder (reference 3.4):
// each given criterion narrows the rows left by the previous one, in the order listed. Also the
// lookups by key that the modify_* and remove_* tools share.
import * as fuzz from "fuzzball";
import type { JsonObject, JsonValue } from "../../../json.js";
import { pyStrRepr } from "../../../python/repr.js";
import { cellJson } from "../../../world/cells.js";
import type { WorldTransaction } from "../../../world/transaction.js";
import type { CellValue, Row, TableSchema } from "../../../world/types.js";
import { ToolError, type ToolParameter } from "../../../tools/types.js";
import { POLARS_DUPLICATE_ERROR, POLARS_NO_DATA_ERROR } from "../../../tools/validators.js";

export type FilterKind =
  | { readonly kind: "exact" }
  /** WRatio similarity (0-100) of at least `threshold`; keeps the 5 best rows, best first. */
  | { readonly kind: "fuzzy"; readonly threshold: number }
  /** Inclusive lower bound. */
  | { readonly kind: "min" }
  /** Inclusive upper bound. */
  | { readonly kind: "max" };

export interface FilterCriterion {
  readonly column: string;
  /** `undefined` is upstream's NOT_GIVEN: the criterion is skipped. */
  readonly value: JsonValue | undefined;
  readonly filter: FilterKind;
}

export const EXACT: FilterKind = { kind: "exact" };
export const AT_LEAST: FilterKind = { kind: "min" };
export const AT_MOST: FilterKind = { kind: "max" };
export const fuzzyAtLeast = (threshold: number): FilterKind => ({ kind: "fuzzy", threshold });

/** Upstream's fuzzy filter uses rapidfuzz's process.extract with its default limit. */
const FUZZY_LIMIT = 5;

/**
 * Applies the criteria in turn. Throws the "No search criteria" ValueError when none is given; its
 * text lists every criterion's column as a Python tuple, a column listed twice appearing twice.
 */
export function filterRows(rows: readonly Row[], criteria: readonly FilterCriterion[]): Row[] {
  if (criteria.every((c) => c.value === undefined)) {
    const names = criteria.map((c) => pyStrRepr(c.column));
    const tuple = names.length === 1 ? `(${names[0]},)` : `(${names.join(", ")})`;
    throw new ToolError(
      "ValueError",
      `No search criteria are given. At least one search criteria should be provided among ${tuple}`,
    );
  }
  let current = rows.slice();
  for (const { column, value, filter } of criteria) {
    if (value === undefined) continue;
    switch (filter.kind) {
      case "exact":
        current = current.filter((row) => exactMatch(row[column] ?? null, value));
        break;
      case "fuzzy":
        current = fuzzyFilter(current, column, value, filter.threshold);
        break;
      case "min":
        current = current.filter((row) => compareNumber(row[column] ?? null, value, (a, b) => a >= b));
        break;
      case "max":
        current = current.filter((row) => compareNumber(row[column] ?? null, value, (a, b) => a <= b));
        break;
    }
  }
  return current;
}

/** Polars casts a bool or number to text when compared with a string (its supertype rule). */
function asText(value: CellValue): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return String(value);
  return null;
}

/**
 * Polars equality as used by upstream's exact filter: a null cell or a null query never matches.
 * Values of different kinds are compared after polars' supertype cast [inferred for polars 0.20,
 * not run]: bool and number as numbers, anything with a string as text. Typechecked tools only
 * ever pass the column's own type; only search_contacts can pass something else. A list or dict
 * query matches nothing.
 */
function exactMatch(cell: CellValue, query: JsonValue): boolean {
  if (cell === null || query === null || typeof query === "object") return false;
  if (typeof cell === typeof query) return cell === query;
  if (typeof cell !== "string" && typeof query !== "string") return Number(cell) === Number(query);
  return asText(cell) === asText(query);
}

/** Inclusive range comparison; null cells are dropped as polars drops null comparisons. */
function compareNumber(cell: CellValue, bound: JsonValue, test: (a: number, b: number) => boolean): boolean {
  if (cell === null || (typeof bound !== "number" && typeof bound !== "boolean")) return false;
  if (typeof cell !== "number" && typeof cell !== "boolean") return false;
  return test(Number(cell), Number(bound));
}

/**
 * Upstream: rapidfuzz `process.extract(query, column, scorer=WRatio, processor=default_process,
 * score_cutoff=threshold)`, default limit 5. So at most 5 rows survive, reordered by score
 * (descending, ties in row order), and null cells are skipped. A None query matches nothing, as
 * in rapidfuzz; a non-string query (possible only through search_contacts) scores 0 here.
 *
 * fuzzball's WRatio is a port of thefuzz (fuzzywuzzy), not of rapidfuzz, so scores are close but
 * not bit-identical: fuzzball rounds to an integer where rapidfuzz returns a float (89.6 passes a
 * cutoff of 90 here but not upstream), and their partial-match steps are computed differently.
 * Processing mirrors rapidfuzz's default_process: lower-case, non-alphanumerics to spaces,
 * trimmed, with runs of spaces kept (fuzzball would collapse them by default).
 */
function fuzzyFilter(rows: readonly Row[], column: string, query: JsonValue, threshold: number): Row[] {
  if (typeof query !== "string") return [];
  const scored: { row: Row; score: number; index: number }[] = [];
  rows.forEach((row, index) => {
    const cell = row[column];
    if (typeof cell !== "string") return;
    const score = fuzzyScore(query, cell);
    if (score >= threshold) scored.push({ row, score, index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, FUZZY_LIMIT).map((s) => s.row);
}

const FUZZ_OPTIONS = { full_process: true, force_ascii: false, collapseWhitespace: false } as const;

/** The WRatio score (0-100) the fuzzy filter compares with its threshold. */
export function fuzzyScore(query: string, text: string): number {
  return fuzz.WRatio(query, text, FUZZ_OPTIONS);
}

// --- results and lookups by key --------------------------------------------------------------

/** Rows as upstream's `to_dicts()` returns them: one dict per row, columns in schema order. */
export function rowsAsResult(rows: readonly Row[], table: TableSchema): JsonObject[] {
  return rows.map((row) => {
    const out: JsonObject = {};
    for (const col of table.columns) out[col.name] = cellJson(row[col.name]);
    return out;
  });
}

/** Positions of the rows whose `column` equals `value` (upstream: `pl.col(column) == value`). */
export function positionsWhere(rows: readonly Row[], column: string, value: string): number[] {
  const out: number[] = [];
  rows.forEach((row, i) => {
    if (row[column] === value) out.push(i);
  });
  return out;
}

/**
 * Deletes every row whose `column` equals `value`, as upstream's remove_from_database does with the
 * predicate `pl.col(column) == value`, raising NoDataError when none matches.
 *
 * Upstream's message embeds the polars expression's repr, which ends in the expression object's
 * memory address (`<Expr [...] at 0x7F...>`) and so differs from run to run. We print the
 * expression text polars shows for the same predicate, without the address, so the agent-visible
 * text is deterministic and still names the id that was not found.
 */
export function deleteWhere(world: WorldTransaction, table: string, column: string, value: string): void {
  const positions = positionsWhere(world.rows(table), column, value);
  if (positions.length === 0) {
    throw new ToolError(POLARS_NO_DATA_ERROR, `No db entry matching predicate=[(col("${column}")) == (String(${value}))] found`);
  }
  // From the last match backwards, so each recorded position is valid when it is applied.
  for (const position of positions.reverse()) world.deleteAt(table, position);
}

/**
 * Upstream's modify_contact / modify_reminder: the row with key `id` must exist exactly once
 * (NoDataError, DuplicateError, with the id printed as Python's `f"{id=}"` does); it is then
 * deleted and re-appended with `patch` applied, which moves it to the end of the table.
 */
export function replaceUniqueRow(
  world: WorldTransaction,
  table: string,
  keyColumn: string,
  id: string,
  patch: Readonly<Record<string, CellValue>>,
): void {
  const positions = positionsWhere(world.rows(table), keyColumn, id);
  const [position] = positions;
  if (position === undefined) throw new ToolError(POLARS_NO_DATA_ERROR, `No db entry matching ${keyColumn}=${pyStrRepr(id)} found`);
  if (positions.length > 1) throw new ToolError(POLARS_DUPLICATE_ERROR, `More than 1 entry with ${keyColumn}=${pyStrRepr(id)} found`);
  world.updateAt(table, position, patch, true);
}

/** How upstream annotates an optional search or modify argument whose default is the NOT_GIVEN sentinel. */
export const NOT_GIVEN_ANNOTATION = {
  str: "typing.Union[str, tool_sandbox.common.utils.NotGiven]",
  float: "typing.Union[float, tool_sandbox.common.utils.NotGiven]",
  bool: "typing.Union[bool, tool_sandbox.common.utils.NotGiven]",
} as const;

/** One optional search criterion (omitted = not given, so it is left out of the trace). */
export function searchCriterion(name: string, type: "string" | "number", description: string, timestamp = false): ToolParameter {
  const annotation = type === "string" ? NOT_GIVEN_ANNOTATION.str : NOT_GIVEN_ANNOTATION.float;
  return timestamp ? { name, type, description, required: false, annotation, timestamp } : { name, type, description, required: false, annotation };
}
