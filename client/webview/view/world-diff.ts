// The world at a message: the row changes recorded there (added, removed, changed with old → new),
// and on demand every table as it stood, with the rows this step touched marked.
import { changedColumns } from "../../../engine/world/changes.js";
import type { CellValue, Row, RowChange, TableSchema, Tables } from "../../../engine/world/types.js";
import { el } from "./dom.js";
import { cellText, isTimestampColumn, localTime, plural } from "./format.js";
import { appendHighlighted } from "./text.js";

export interface WorldContext {
  readonly timezone: string;
  readonly query: string;
  /** The world tables of the trajectory's pack: keys, column order, timestamp columns. */
  readonly schemas: ReadonlyMap<string, TableSchema>;
}

/** One card per change: what was added, removed or changed, with the old and the new values. */
export function changeList(changes: readonly RowChange[], context: WorldContext): HTMLElement {
  return el("div", { class: "changes" }, ...changes.map((c) => changeCard(c, context)));
}

function changeCard(c: RowChange, context: WorldContext): HTMLElement {
  const label = { insert: "added", delete: "removed", update: "changed" }[c.op];
  const symbol = { insert: "+", delete: "−", update: "~" }[c.op];
  const identity = c.op === "update" ? c.old : c.row;
  const key = keyOf(context.schemas.get(c.table), identity);
  const moved =
    c.op === "update" && c.new_position !== c.position ? `moved from row ${c.position} to row ${c.new_position}` : `row ${c.position}`;
  const head = el(
    "div",
    { class: "change-head" },
    el("span", { class: "change-op", text: symbol, attrs: { "aria-label": label } }),
    el("span", { class: "change-table", text: c.table }),
    key ? el("span", { class: "change-key" }, `${key.column} `, cellValue(c.table, key.column, key.value, context)) : null,
    el("span", { class: "change-where", text: `${label} · ${moved}` }),
  );
  const body = el("div", { class: "change-body" });
  if (c.op === "update") {
    const changed = changedColumns(c.old, c.new);
    for (const column of changed) {
      body.append(
        el("span", { class: "col-name", text: column }),
        el("span", { class: "old" }, cellValue(c.table, column, c.old[column], context)),
        el("span", { class: "arrow", text: "→", attrs: { "aria-label": "becomes" } }),
        el("span", { class: "new" }, cellValue(c.table, column, c.new[column], context)),
      );
    }
    const same = Object.keys(c.new).filter((col) => !changed.includes(col)).length;
    if (changed.length === 0) body.append(el("span", { class: "unchanged", text: "no values changed" }));
    else if (same > 0) body.append(el("span", { class: "unchanged", text: `${plural(same, "other column")} unchanged` }));
  } else {
    const side = c.op === "insert" ? "new" : "old";
    for (const column of Object.keys(c.row)) {
      body.append(
        el("span", { class: "col-name", text: column }),
        el("span", { class: `${side} wide` }, cellValue(c.table, column, c.row[column], context)),
      );
    }
  }
  return el("div", { class: `change ${c.op}`, attrs: { "data-op": c.op } }, head, body);
}

/** Every table at this message; rows that this step added or changed are marked. */
export function worldTables(tables: Tables, changes: readonly RowChange[], context: WorldContext): HTMLElement {
  const touched = new Set<Row>(changes.flatMap((c) => (c.op === "insert" ? [c.row] : c.op === "update" ? [c.new] : [])));
  const sections = Object.keys(tables).map((name) => {
    const rows = tables[name] ?? [];
    const columns = columnsOf(context.schemas.get(name), rows);
    const table = el(
      "table",
      { class: "world-table" },
      el("thead", {}, el("tr", {}, ...columns.map((c) => el("th", { text: c, attrs: { scope: "col" } })))),
      el(
        "tbody",
        {},
        ...rows.map((r) =>
          el("tr", { class: touched.has(r) ? "touched" : "" }, ...columns.map((c) => el("td", {}, cellValue(name, c, r[c], context)))),
        ),
      ),
    );
    return el(
      "section",
      { class: "world-table-section" },
      el("h4", {}, name, el("span", { class: "count", text: ` ${plural(rows.length, "row")}` })),
      rows.length === 0 ? el("p", { class: "muted", text: "(no rows)" }) : el("div", { class: "table-scroll" }, table),
    );
  });
  return el("div", { class: "world-tables" }, ...sections);
}

function columnsOf(schema: TableSchema | undefined, rows: readonly Row[]): string[] {
  const known = schema?.columns.map((c) => c.name) ?? [];
  const extra = new Set<string>();
  for (const r of rows) for (const c of Object.keys(r)) if (!known.includes(c)) extra.add(c);
  return [...known, ...extra];
}

function keyOf(schema: TableSchema | undefined, row: Row): { column: string; value: CellValue | undefined } | null {
  const key = schema?.key;
  return key !== undefined && Object.hasOwn(row, key) ? { column: key, value: row[key] } : null;
}

/** A cell as JSON; a timestamp also in the scenario's local time. */
function cellValue(table: string, column: string, value: CellValue | undefined, context: WorldContext): HTMLElement {
  const kind = value === null || value === undefined ? "null" : Array.isArray(value) ? "list" : typeof value;
  const span = el("span", { class: `cell ${kind}` });
  appendHighlighted(span, cellText(value), context.query);
  if (typeof value === "number" && isTimestampColumn(context.schemas.get(table), column))
    span.append(el("span", { class: "local-time", text: ` ${localTime(value, context.timezone)}` }));
  return span;
}
