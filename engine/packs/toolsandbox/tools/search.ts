// The row filters behind search_contacts, search_messages and search_reminder (reference 3.4):
// each given criterion narrows the rows left by the previous one, in the order listed. Also the
// lookups by key that the modify_* and remove_* tools share.
import { wRatioProcessed } from "../../../tools/fuzzy/wratio.js";
import type { JsonObject, JsonValue } from "../../../base/json.js";
import { pyStrRepr } from "../../../python/repr.js";
import { cellJson } from "../../../world/cells.js";
import type { WorldTransaction } from "../../../world/transaction.js";
import type { CellValue, ColumnType, Row, TableSchema } from "../../../world/types.js";
import { ToolError, type ToolParameter } from "../../../tools/types.js";
import { POLARS_DUPLICATE_ERROR, POLARS_NO_DATA_ERROR } from "../../../tools/validators.js";

type FilterKind =
  | { readonly kind: "exact" }
  /** WRatio similarity (0-100) of at least `threshold`; keeps the 5 best rows, best first. */
  | { readonly kind: "fuzzy"; readonly threshold: number }
  /** Inclusive lower bound. */
  | { readonly kind: "min" }
  /** Inclusive upper bound. */
  | { readonly kind: "max" };

interface FilterCriterion {
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
export function filterRows(rows: readonly Row[], criteria: readonly FilterCriterion[], table?: TableSchema): Row[] {
  if (criteria.every((c) => c.value === undefined)) {
    const names = criteria.map((c) => pyStrRepr(c.column));
    const tuple = names.length === 1 ? `(${names[0]},)` : `(${names.join(", ")})`;
    throw new ToolError("ValueError", `No search criteria are given. At least one search criteria should be provided among ${tuple}`);
  }
  let current = rows.slice();
  for (const { column, value, filter } of criteria) {
    if (value === undefined) continue;
    switch (filter.kind) {
      case "exact":
        current = exactFilter(current, column, table?.columns.find((c) => c.name === column)?.type ?? cellType(current, column), value);
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

/**
 * Upstream's exact filter, `pl.col(column) == value`. Typechecked tools only ever pass the
 * column's own type; search_contacts is not typechecked, so a model can pass anything, and then
 * polars decides. What it does was measured with polars 1.x (the conformance battery): a number
 * against a text column raises, and the agent sees the last traceback line, which is the
 * expression; a list raises a cast error; a bool or an object matches nothing. Against a bool
 * column a number compares as 1/0 and text as "true"/"false". A null cell or query never matches.
 */
function exactFilter(rows: readonly Row[], column: string, columnType: ColumnType | undefined, query: JsonValue): Row[] {
  if (query === null) return [];
  if (columnType === "string" && typeof query !== "string") {
    if (typeof query === "number") {
      throw new ToolError(
        "polars.exceptions.ComputeError",
        `cannot compare string with numeric type\n\nThis error occurred in the following expression:\n\t[(col("${column}")) == (${polarsLiteral(query)})]`,
      );
    }
    if (Array.isArray(query)) {
      throw new ToolError(
        "polars.exceptions.InvalidOperationError",
        `cannot cast List type (inner: '${polarsListInner(query)}', to: 'String')`,
      );
    }
    return [];
  }
  if (columnType === "bool" && typeof query !== "boolean") {
    if (typeof query === "number") return rows.filter((row) => typeof row[column] === "boolean" && (row[column] ? 1 : 0) === query);
    // Text is compared with the bool printed in lower case.
    if (typeof query === "string") return rows.filter((row) => typeof row[column] === "boolean" && String(row[column]) === query);
    if (typeof query === "object") {
      throw new ToolError(
        "polars.exceptions.InvalidOperationError",
        `\n\t[(col("${column}")) == (${Array.isArray(query) ? `[${query.map((v) => JSON.stringify(v)).join(", ")}]` : "{}"})]`,
      );
    }
    return [];
  }
  return rows.filter((row) => exactMatch(row[column] ?? null, query));
}

/** Without a schema, a column's type as its first non-null cell shows it. */
function cellType(rows: readonly Row[], column: string): ColumnType | undefined {
  const cell = rows.find((row) => row[column] !== null && row[column] !== undefined)?.[column];
  if (typeof cell === "string") return "string";
  if (typeof cell === "boolean") return "bool";
  if (typeof cell === "number") return "float";
  return undefined;
}

/** How polars prints a Python int or float literal in an expression. */
function polarsLiteral(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER) return `dyn int: ${value}`;
  return `dyn float: ${Number.isInteger(value) ? BigInt(value).toString() : String(value)}`;
}

/** The element type polars infers for a Python list. */
function polarsListInner(items: readonly JsonValue[]): string {
  const kinds = new Set(
    items
      .filter((v) => v !== null)
      .map((v) =>
        typeof v === "number"
          ? Number.isInteger(v)
            ? "Int64"
            : "Float64"
          : typeof v === "string"
            ? "String"
            : typeof v === "boolean"
              ? "Boolean"
              : "Object",
      ),
  );
  if (kinds.size === 0) return "Null";
  if (kinds.size === 2 && kinds.has("Int64") && kinds.has("Float64")) return "Float64";
  return [...kinds][0] as string;
}

/** Same-kind equality; numbers and bools compare as numbers (the other kinds are handled above). */
function exactMatch(cell: CellValue, query: JsonValue): boolean {
  if (cell === null || query === null || typeof query === "object") return false;
  if (typeof cell === typeof query) return cell === query;
  if (typeof cell !== "string" && typeof query !== "string") return Number(cell) === Number(query);
  return false;
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
 * in rapidfuzz; any other non-string query (possible only through search_contacts) raises
 * rapidfuzz's TypeError.
 * Scores come from our re-implementation of rapidfuzz (engine/tools/fuzzy), pinned to the
 * wheel's own values, so the same rows pass the cutoff as upstream.
 */
function fuzzyFilter(rows: readonly Row[], column: string, query: JsonValue, threshold: number): Row[] {
  if (query === null) return [];
  // rapidfuzz's default_process refuses anything but text (only search_contacts lets it through).
  if (typeof query !== "string") throw new ToolError("TypeError", "sentence must be a String");
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

/** The WRatio score (0-100) the fuzzy filter compares with its threshold. */
export function fuzzyScore(query: string, text: string): number {
  return wRatioProcessed(query, text);
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
function positionsWhere(rows: readonly Row[], column: string, value: string): number[] {
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
  return timestamp
    ? { name, type, description, required: false, annotation, timestamp }
    : { name, type, description, required: false, annotation };
}
