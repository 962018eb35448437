// Plain-text tables: columns are data, so commands can add a column (scores, say) in one place.

export interface Column<T> {
  readonly header: string;
  readonly align?: "left" | "right";
  /** Minimum width; the header and every cell widen it. */
  readonly width?: number;
  cell(row: T): string;
}

/** Widths that fit the headers, the minimum widths and the given rows. */
export function columnWidths<T>(columns: readonly Column<T>[], rows: readonly T[]): number[] {
  return columns.map((c) => Math.max(c.header.length, c.width ?? 0, ...rows.map((r) => c.cell(r).length)));
}

function formatCells(cells: readonly string[], widths: readonly number[], aligns: readonly ("left" | "right")[]): string {
  return cells
    .map((text, i) => {
      const width = widths[i] ?? text.length;
      return aligns[i] === "right" ? text.padStart(width) : text.padEnd(width);
    })
    .join("  ")
    .trimEnd();
}

export function headerLine<T>(columns: readonly Column<T>[], widths: readonly number[]): string {
  return formatCells(
    columns.map((c) => c.header),
    widths,
    columns.map((c) => c.align ?? "left"),
  );
}

export function rowLine<T>(columns: readonly Column<T>[], widths: readonly number[], row: T): string {
  return formatCells(
    columns.map((c) => c.cell(row)),
    widths,
    columns.map((c) => c.align ?? "left"),
  );
}

/** A whole table: header line then one line per row. */
export function renderTable<T>(columns: readonly Column<T>[], rows: readonly T[]): string[] {
  const widths = columnWidths(columns, rows);
  return [headerLine(columns, widths), ...rows.map((r) => rowLine(columns, widths, r))];
}
