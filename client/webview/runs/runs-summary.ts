/// <reference lib="dom" />
// Above the table of runs: how many, the model calls they cost, the paper's per-category table
// (mean score and turns per category tag), the same per app, τ-bench's pass^k, and the suites.
import { ALL_CATEGORIES } from "../../../engine/evaluation/categories.js";
import type { RunsData } from "../../../engine/runs/runs-data.js";
import { el } from "../view/dom.js";

export function runsSummary(data: RunsData): HTMLElement {
  const { report } = data;
  const t = report.telemetry;
  const facts = [`${report.runs.toLocaleString("en-US")} runs`, `${report.damaged} damaged`];
  if (t.calls > 0)
    facts.push(
      `${t.calls.toLocaleString("en-US")} model calls`,
      `${(t.latency_ms / 1000).toFixed(1)} s model time`,
      `${t.total_tokens.toLocaleString("en-US")} tokens`,
    );
  const passK = report.pass_hat_k;
  return el(
    "div",
    { class: "runs-summary-body" },
    el("h1", { text: data.title }),
    el("p", { class: "runs-facts", text: facts.join(" · "), attrs: { "data-testid": "runs-facts" } }),
    passK === null
      ? null
      : el("p", {
          class: "runs-pass-k",
          text: `pass^k (score ≥ ${passK.threshold.toFixed(2)}, ${passK.tasks.length} scenarios): ${passK.pass_hat_k.map((p) => `k=${p.k} ${p.value.toFixed(3)}`).join(" · ")} · mean score ${passK.average_score.toFixed(3)}`,
          attrs: { "data-testid": "runs-pass-k" },
        }),
    meansTable(
      "Per category",
      "runs-categories",
      ["Category", "Scenarios", "Score", "Turns"],
      report.categories.map((row) => ({ label: row.category, rowClass: row.category === ALL_CATEGORIES ? "all" : row.group, ...row })),
      true,
    ),
    meansTable(
      "Per app",
      "runs-apps",
      ["App", "Scenarios", "Score", "Turns"],
      report.apps.map((row) => ({ label: row.app, rowClass: "", ...row })),
      false,
    ),
    report.suites.length > 1
      ? el("p", {
          class: "runs-suites",
          text: `Suites: ${report.suites.map((s) => `${s.suite === "" ? "(top)" : s.suite} ${s.runs}${s.score === null ? "" : ` (${s.score.toFixed(2)})`}`).join(" · ")}`,
        })
      : null,
  );
}

/** A folding table of rows with a count of scenarios, a mean score and mean turns (per category, per app). */
function meansTable(
  title: string,
  testId: string,
  headers: readonly string[],
  rows: readonly { label: string; rowClass: string; scenarios: number; score: number; turn_count: number }[],
  open: boolean,
): HTMLElement | null {
  if (rows.length === 0) return null;
  return el(
    "details",
    { class: "runs-categories", attrs: open ? { open: "" } : {} },
    el("summary", { text: title }),
    el(
      "table",
      { attrs: { "data-testid": testId } },
      el("thead", {}, el("tr", {}, ...headers.map((h) => el("th", { text: h })))),
      el(
        "tbody",
        {},
        ...rows.map((row) =>
          el(
            "tr",
            { class: row.rowClass },
            el("td", { text: row.label }),
            el("td", { class: "num", text: String(row.scenarios) }),
            el("td", { class: "num", text: row.score.toFixed(3) }),
            el("td", { class: "num", text: row.turn_count.toFixed(2) }),
          ),
        ),
      ),
    ),
  );
}
