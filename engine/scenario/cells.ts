// Column values written in a scenario (world rows, `where`, `set`, constraint targets): checked
// against the column's type, with time expressions on timestamp columns turned into seconds.
import type { CellValue, ColumnSchema } from "../world/types.js";
import type { CheckContext } from "./check-context.js";
import { describeValue, quoteHint } from "./raw.js";
import { closestMatch, didYouMean } from "./suggest.js";
import { parseTimeExpression } from "./time-expressions.js";
import type { Path } from "./yaml-source.js";

const TYPE_WORDS: Readonly<Record<ColumnSchema["type"], string>> = {
  string: "a string",
  float: "a number",
  int: "a whole number",
  bool: "true or false",
  string_list: "a list of strings",
};

/** The column of `table` named `name`, or null after reporting an unknown column at the key. */
export function findColumn<C extends { readonly name: string }>(
  ctx: CheckContext,
  path: Path,
  table: string,
  columns: readonly C[],
  name: string,
): C | null {
  const column = columns.find((c) => c.name === name);
  if (column) return column;
  const suggestion = closestMatch(
    name,
    columns.map((c) => c.name),
  );
  ctx.reporter.report(path, "unknown-column", `${table} has no column "${name}".${didYouMean(suggestion)}`, {
    anchor: "key",
    data: suggestion === null ? undefined : { suggestion },
  });
  return null;
}

/** The resolved value, or undefined after reporting why the value does not fit the column. */
export function resolveCell(ctx: CheckContext, path: Path, column: ColumnSchema, value: unknown): CellValue | undefined {
  if (value === null) {
    if (column.nullable) return null;
    ctx.reporter.report(path, "column-type", `"${column.name}" cannot be empty; it takes ${expected(column)}.`);
    return undefined;
  }
  if (column.timestamp && (typeof value === "string" || typeof value === "number")) {
    const time = parseTimeExpression(value, ctx.clock);
    if (time.ok) return time.value;
    ctx.reporter.report(path, "bad-time-expression", time.message, {
      data: time.suggestion === undefined ? undefined : { suggestion: time.suggestion },
    });
    return undefined;
  }
  if (column.type === "string_list") return resolveList(ctx, path, column, value);
  const fits =
    column.type === "string"
      ? typeof value === "string"
      : column.type === "float"
        ? typeof value === "number"
        : column.type === "int"
          ? Number.isInteger(value)
          : typeof value === "boolean";
  if (fits) return value as CellValue;
  ctx.reporter.report(
    path,
    "column-type",
    `"${column.name}" takes ${expected(column)}, found ${describeValue(value)}.${quoteHint(column.type === "string", value)}`,
  );
  return undefined;
}

/** A string_list cell: a list whose items are all strings; the first item that is not is reported. */
function resolveList(ctx: CheckContext, path: Path, column: ColumnSchema, value: unknown): CellValue | undefined {
  if (!Array.isArray(value)) {
    ctx.reporter.report(path, "column-type", `"${column.name}" takes ${expected(column)}, found ${describeValue(value)}.`);
    return undefined;
  }
  const items: unknown[] = value;
  const bad = items.findIndex((item) => typeof item !== "string");
  if (bad < 0) return items.filter((item): item is string => typeof item === "string");
  const item = items[bad];
  ctx.reporter.report(
    [...path, bad],
    "column-type",
    `Each item of "${column.name}" is a string, found ${describeValue(item)}.${quoteHint(true, item)}`,
  );
  return undefined;
}

function expected(column: ColumnSchema): string {
  const base = column.timestamp ? "POSIX seconds or a time expression" : TYPE_WORDS[column.type];
  return column.nullable ? `${base} or null` : base;
}
