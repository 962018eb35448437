// The runs view: the summary of the runs (the per-category table, pass^k, suites, model cost) and
// below it the table of runs, one row each, sortable by any column, filtered by words and grouped
// by suite or category. Only the rows in view exist in the DOM (fixed height), so 10,000 runs draw
// as fast as 20. Opening a row (click, Enter) asks the host to open its replay; two rows picked
// with Ctrl/Cmd+click can be compared.
import type { RunRecord } from "../../../engine/reports/types.js";
import type { RunsData } from "../../../engine/reports/runs-data.js";
import { FIRST_RENDER_MARK, type ViewRequest } from "../../../engine/panel/protocol.js";
import { button, el, replaceChildren } from "../view/dom.js";
import { runsSummary } from "./runs-summary.js";
import { runsReport, type RunsReport } from "../../../engine/reports/runs-report.js";
import { COLUMNS, matches, tableRows, type Grouping, type TableQuery, type TableRow } from "./table-model.js";

const RUN_ROW_HEIGHT = 26;
const OVERSCAN = 8;

export class RunsView {
  readonly element = el("div", { class: "runs-app" });
  private readonly summary = el("section", { class: "runs-summary", attrs: { "data-testid": "runs-summary" } });
  private readonly head = el("div", { class: "runs-row runs-head", attrs: { role: "row" } });
  private readonly body = el("div", { class: "runs-body", attrs: { role: "rowgroup", tabindex: "0", "data-testid": "runs-table" } });
  private readonly spacer = el("div", { class: "runs-spacer" });
  private readonly count = el("span", { class: "runs-count", attrs: { "data-testid": "runs-count" } });
  private readonly pickedNote = el("span", { class: "runs-picked", attrs: { "data-testid": "runs-picked", role: "status" } });
  private readonly table = el("div", { class: "runs-table", attrs: { role: "table", "aria-label": "Runs" } });
  private summaryTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  private readonly compareButton: HTMLButtonElement;
  private data: RunsData | null = null;
  private rows: TableRow[] = [];
  private query: TableQuery = { sort: "date", descending: true, filter: "", group: "none" };
  private picked: string[] = [];
  private frame = 0;

  constructor(
    private readonly request: (request: ViewRequest) => void,
    private readonly canOpen: boolean,
  ) {
    const filter = el("input", {
      class: "runs-filter",
      attrs: { type: "search", placeholder: "Filter runs", "aria-label": "Filter runs", "data-testid": "runs-filter" },
    });
    filter.addEventListener("input", () => this.update({ filter: filter.value }));
    const group = el("select", { class: "runs-group", attrs: { "aria-label": "Group by", "data-testid": "runs-group" } });
    for (const [value, label] of [
      ["none", "no grouping"],
      ["suite", "group by suite"],
      ["category", "group by category"],
      ["app", "group by app"],
    ] as const)
      group.append(el("option", { text: label, attrs: { value } }));
    group.addEventListener("change", () => this.update({ group: group.value as Grouping }));
    this.compareButton = button(
      "Compare",
      { class: "tool", title: "Compare the two runs picked with Ctrl+click", attrs: { "data-action": "compare" } },
      () => {
        const [a, b] = this.picked;
        if (a !== undefined && b !== undefined) this.request({ type: "compare-runs", files: [a, b] });
      },
    );
    this.compareButton.disabled = true;
    for (const column of COLUMNS) {
      const cell = el("button", {
        class: `runs-cell col-${column.id}${column.numeric ? " num" : ""}`,
        text: column.label,
        attrs: { type: "button", "data-sort": column.id },
      });
      cell.addEventListener("click", () =>
        this.update(
          this.query.sort === column.id ? { descending: !this.query.descending } : { sort: column.id, descending: column.numeric },
        ),
      );
      this.head.append(cell);
    }
    this.body.append(this.spacer);
    this.body.addEventListener("scroll", () => this.schedule());
    this.body.addEventListener("click", (event) => {
      const row = event.target instanceof Element ? event.target.closest<HTMLElement>(".runs-row[data-file]") : null;
      const file = row?.dataset.file;
      if (file === undefined) return;
      // A row's own action (Save as Scenario…) is not a click on the row.
      if (event.target instanceof Element && event.target.closest("[data-action='save-as-scenario']")) {
        if (this.canOpen) this.request({ type: "save-as-scenario", file });
      } else if (event.ctrlKey || event.metaKey) this.pick(file);
      else if (this.canOpen) this.request({ type: "open-run", file });
    });
    new ResizeObserver(() => this.schedule()).observe(this.body);
    this.pickedNote.hidden = true;
    const tools = el("div", { class: "runs-tools" }, filter, group, this.count, this.pickedNote, this.canOpen ? this.compareButton : null);
    if (this.canOpen) {
      this.table.classList.add("with-actions");
      this.head.append(el("span", { class: "runs-cell col-actions", text: "" }));
    }
    this.table.append(this.head, this.body);
    replaceChildren(this.element, this.summary, tools, this.table);
  }

  show(data: RunsData): void {
    this.data = data;
    document.title = data.title;
    // Agent and User columns as wide as their longest name (up to 48 characters): never cut to "openai:…".
    const widest = (names: readonly string[]): string => `${Math.min(48, Math.max(6, ...names.map((n) => n.length)) + 2)}ch`;
    this.table.style.setProperty("--agent-width", widest(data.records.map((r) => r.agent)));
    this.table.style.setProperty("--user-width", widest(data.records.map((r) => r.user)));
    replaceChildren(this.summary, runsSummary(data));
    this.update({});
    performance.mark(FIRST_RENDER_MARK);
  }

  private update(change: Partial<TableQuery>): void {
    const filtered = change.filter !== undefined && change.filter !== this.query.filter;
    this.query = { ...this.query, ...change };
    const data = this.data;
    // The figures above the table follow the filter: they are recomputed for the runs it keeps, once
    // typing pauses (the bootstrap intervals of a large folder take a moment).
    if (data && filtered) {
      clearTimeout(this.summaryTimer);
      const filter = this.query.filter;
      this.summaryTimer = setTimeout(
        () => replaceChildren(this.summary, runsSummary({ ...data, report: filteredReport(data, filter) })),
        SUMMARY_DELAY_MS,
      );
    }
    this.rows = data ? tableRows(data.records, this.query) : [];
    const runs = this.rows.filter((r) => r.kind === "run").length;
    this.count.textContent = data ? `${runs.toLocaleString("en-US")} of ${data.records.length.toLocaleString("en-US")} runs` : "";
    for (const cell of this.head.children) {
      const id = (cell as HTMLElement).dataset.sort;
      cell.setAttribute("aria-sort", id === this.query.sort ? (this.query.descending ? "descending" : "ascending") : "none");
    }
    this.spacer.style.height = `${this.rows.length * RUN_ROW_HEIGHT}px`;
    this.draw();
  }

  private pick(file: string): void {
    this.picked = this.picked.includes(file) ? this.picked.filter((f) => f !== file) : [...this.picked, file].slice(-2);
    this.compareButton.disabled = this.picked.length !== 2;
    // Which runs are picked, in words too: they may be scrolled or filtered out of sight.
    const name = (file: string): string => file.split(/[\\/]/).pop() ?? file;
    this.pickedNote.textContent = this.picked.map((file, i) => `${PICK_LETTERS[i]}: ${name(file)}`).join(" · ");
    this.pickedNote.title = this.picked.map((file, i) => `${PICK_LETTERS[i]}: ${file}`).join("\n");
    this.pickedNote.hidden = this.picked.length === 0;
    this.draw();
  }

  private schedule(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private draw(): void {
    const height = this.body.clientHeight || RUN_ROW_HEIGHT * 30;
    const first = Math.max(0, Math.floor(this.body.scrollTop / RUN_ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.rows.length, Math.ceil((this.body.scrollTop + height) / RUN_ROW_HEIGHT) + OVERSCAN);
    const drawn: HTMLElement[] = [];
    for (let i = first; i < last; i++) drawn.push(this.row(this.rows[i]!, i));
    this.spacer.replaceChildren(...drawn);
  }

  private row(row: TableRow, position: number): HTMLElement {
    let element: HTMLElement;
    if (row.kind === "group") {
      const score = row.score === null ? "" : ` · mean score ${row.score.toFixed(2)}`;
      element = el("div", {
        class: "runs-row runs-group-row",
        text: `${row.label} · ${row.runs} run${row.runs === 1 ? "" : "s"}${score}`,
        attrs: { role: "row" },
      });
    } else {
      const r: RunRecord = row.record;
      const pick = this.picked.indexOf(r.file);
      element = el("div", {
        class: `runs-row${r.damaged !== null ? " damaged" : ""}${pick >= 0 ? " picked" : ""}${r.status === "errored" ? " errored" : scoreClass(r.score)}`,
        title: r.file,
        attrs: {
          role: "row",
          "data-file": r.file,
          "aria-selected": String(pick >= 0),
        },
      });
      for (const column of COLUMNS) {
        const text = column.text(r);
        // A cell cut with an ellipsis keeps its whole text in its tooltip.
        const letter: Record<string, string> = column.id === "scenario" && pick >= 0 ? { "data-pick": PICK_LETTERS[pick] ?? "" } : {};
        // A run with no score that counts shows its status as a badge (amber errored, red damaged,
        // grey unscored), never a number; the tooltip says why.
        const status =
          column.id === "score" && r.status !== "scored"
            ? el("span", {
                class: `status-badge ${r.status}`,
                text,
                title:
                  r.status === "damaged"
                    ? `damaged${r.damaged_line === null ? "" : ` at line ${r.damaged_line}`}: ${r.damaged ?? ""}`
                    : (r.error ?? r.status),
                attrs: { "data-testid": "run-status" },
              })
            : null;
        element.append(
          el(
            "span",
            {
              class: `runs-cell col-${column.id}${column.numeric ? " num" : ""}`,
              text: status === null ? text : undefined,
              title: column.numeric ? "" : text,
              attrs: letter,
            },
            status,
          ),
        );
      }
      if (this.canOpen) element.append(saveAsScenarioButton(r));
    }
    element.style.transform = `translateY(${position * RUN_ROW_HEIGHT}px)`;
    return element;
  }
}

/** A run row's action: draft a scenario from the run (the host refuses a damaged or errored one in a line). */
function saveAsScenarioButton(r: RunRecord): HTMLButtonElement {
  return el("button", {
    class: "runs-cell col-actions",
    text: "Save as Scenario…",
    title: `Save ${r.file.split(/[\\/]/).pop() ?? r.file} as a draft scenario`,
    attrs: { type: "button", "data-action": "save-as-scenario" },
  });
}

/** The sides the two picked runs take in the comparison, in the order they were picked. */
const PICK_LETTERS = ["A", "B"] as const;

/** How long the filter must rest before the figures above the table are recomputed. */
const SUMMARY_DELAY_MS = 250;

const scoreClass = (score: number | null): string =>
  score === null ? " unscored" : score >= 1 - 1e-6 ? " full" : score > 0 ? " partial" : " zero";

/** The report of the runs the filter keeps, made as the host made the whole one (same threshold and policy). */
function filteredReport(data: RunsData, filter: string): RunsReport {
  const words = filter
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== "");
  const kept = data.records.filter((r) => matches(r, words));
  return runsReport(kept, { threshold: data.report.threshold, errorsAsFailures: data.report.errors_as_failures });
}
