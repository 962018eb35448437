// addition_similarity, removal_similarity and update_similarity (reference 5.5): measures of what
// changed between the reference state and the current one.
//
// - addition: the current rows must contain every reference row (an inner join on all columns
//   must count exactly as many rows as the reference has), and the rows that are not in the
//   reference (an anti-join on all columns) are compared with the target.
// - removal: the same with the two states swapped: the rows that disappeared are compared.
// - update: both states must have the same number of rows; the current rows that are not in the
//   reference (the full updated rows) are compared with the target. A no-op update leaves none.
//
// Kept upstream semantics: inside these three measures only, every null becomes its column
// type's zero (0, 0.0, false, "") before joining and comparing, in the current rows, the
// reference and the target alike, so null and the zero value are the same thing here. Rows are
// matched on every column, creation timestamps included, and the join counts duplicates: two
// identical current rows both join one reference row, which breaks the containment count.
import type { ColumnMeasure, TargetRow } from "../../scenario/model.js";
import { countOf } from "./describe.js";
import { compareRows, type RowsComparison } from "./snapshot-measure.js";
import type { ColumnKind, ColumnKinds } from "./table-columns.js";
import type { CellValue } from "../../world/types.js";
import type { ExpectedValue, MeasuredRow } from "./types.js";

type DeltaKind = "addition" | "removal" | "update";

interface DeltaInput {
  readonly kind: DeltaKind;
  readonly table: string;
  readonly current: readonly MeasuredRow[];
  readonly reference: readonly MeasuredRow[];
  readonly target: readonly TargetRow[];
  readonly measures: Readonly<Record<string, ColumnMeasure>>;
  readonly columns: readonly string[];
  readonly kinds: ColumnKinds | null;
}

/** An empty list is a string_list column's zero; SANDBOX's list columns (traces, roles) have none. */
const ZERO: Readonly<Record<ColumnKind, CellValue>> = { string: "", int: 0, float: 0, bool: false, string_list: [], list: null };

function zero(kinds: ColumnKinds | null, column: string): CellValue {
  const kind = kinds?.[column];
  return kind === undefined ? null : ZERO[kind];
}

/** The row over `columns` (sandbox_message_index dropped) with nulls replaced by zeros. */
function zeroFilled(row: MeasuredRow, columns: readonly string[], kinds: ColumnKinds | null): MeasuredRow {
  return Object.fromEntries(columns.map((column) => [column, row[column] ?? zero(kinds, column)]));
}

/**
 * A world row is one object shared by every snapshot it survives in, and the matcher compares a
 * table's states pairwise, so the same rows are filled and keyed again and again: each row keeps
 * its last filling (for one signature of columns and kinds) and join key. Pure functions of the
 * row, so the answers are the same; the rows are never mutated.
 */
interface Filled {
  readonly signature: string;
  readonly row: MeasuredRow;
  readonly key: string;
}
const fillings = new WeakMap<MeasuredRow, Filled>();
const keys = new WeakMap<MeasuredRow, string>();

function filledRow(row: MeasuredRow, columns: readonly string[], kinds: ColumnKinds | null, signature: string): MeasuredRow {
  const known = fillings.get(row);
  if (known && known.signature === signature) return known.row;
  const filled = zeroFilled(row, columns, kinds);
  const key = JSON.stringify(columns.map((column) => filled[column] ?? null));
  fillings.set(row, { signature, row: filled, key });
  keys.set(filled, key);
  return filled;
}

function zeroFilledTarget(row: TargetRow, kinds: ColumnKinds | null): TargetRow {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]): [string, ExpectedValue] => [column, value === null ? zero(kinds, column) : value]),
  );
}

/** Equality key of a row for the joins: its cells in column order. */
function joinKey(row: MeasuredRow, columns: readonly string[]): string {
  return keys.get(row) ?? JSON.stringify(columns.map((column) => row[column] ?? null));
}

interface Difference {
  /** Rows of `rows` with an equal row in `other`: the inner-join count, duplicates multiplied. */
  readonly joined: number;
  /** Rows of `rows` with no equal row in `other` (the anti-join), and their positions. */
  readonly extra: readonly MeasuredRow[];
  readonly positions: readonly number[];
}

function difference(rows: readonly MeasuredRow[], other: readonly MeasuredRow[], columns: readonly string[]): Difference {
  const otherCounts = new Map<string, number>();
  for (const row of other) {
    const key = joinKey(row, columns);
    otherCounts.set(key, (otherCounts.get(key) ?? 0) + 1);
  }
  let joined = 0;
  const extra: MeasuredRow[] = [];
  const positions: number[] = [];
  rows.forEach((row, position) => {
    const matches = otherCounts.get(joinKey(row, columns)) ?? 0;
    joined += matches;
    if (matches === 0) {
      extra.push(row);
      positions.push(position);
    }
  });
  return { joined, extra, positions };
}

const failed = (reason: string): RowsComparison => ({ similarity: 0, reason, pairs: [], weakest: null });

export function deltaSimilarity(input: DeltaInput): RowsComparison {
  const columns = input.columns.filter((c) => c !== "sandbox_message_index");
  const signature = columns.map((column) => `${column}:${input.kinds?.[column] ?? ""}`).join(",");
  const fill = (rows: readonly MeasuredRow[]): MeasuredRow[] => rows.map((row) => filledRow(row, columns, input.kinds, signature));
  const current = fill(input.current);
  const reference = fill(input.reference);
  const compare = (rows: Difference, noun: string): RowsComparison =>
    compareRows({
      table: input.table,
      rows: rows.extra,
      positions: rows.positions,
      columns: new Set(columns),
      target: input.target.map((row) => zeroFilledTarget(row, input.kinds)),
      measures: input.measures,
      noun,
    });

  switch (input.kind) {
    case "addition": {
      const added = difference(current, reference, columns);
      if (added.joined !== reference.length) return failed(notContained("reference", "snapshot", added.joined, reference.length));
      return compare(added, "new row");
    }
    case "removal": {
      const removed = difference(reference, current, columns);
      if (removed.joined !== current.length) return failed(notContained("snapshot", "reference", removed.joined, current.length));
      return compare(removed, "removed row");
    }
    case "update": {
      if (current.length !== reference.length) {
        return failed(
          `row count differs: the reference has ${countOf(reference.length, "row")}, the snapshot ${current.length}; an update keeps the count`,
        );
      }
      return compare(difference(current, reference, columns), "changed row");
    }
  }
}

function notContained(inner: string, outer: string, joined: number, expected: number): string {
  return `${inner} not contained in ${outer}: the join on all columns found ${countOf(joined, "row")}, the ${inner} has ${expected}`;
}
