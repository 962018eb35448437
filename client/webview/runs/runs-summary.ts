/// <reference lib="dom" />
// Above the table of runs: how many, the model calls they cost, the paper's per-category table
// (mean score and turns per category tag) and τ-bench's pass^k, and the suites.
import { ALL_CATEGORIES } from "../../../engine/evaluation/categories.js";
import type { RunsData } from "../../../engine/runs/runs-data.js";
import { el } from "../view/dom.js";

export function runsSummary(data: RunsData): HTMLElement {
  const { report } = data;
  const t = report.telemetry;
  const facts = [`${report.runs.toLocaleString("en-US")} runs`, `${report.damaged} damaged`];
  if (t.calls > 0) facts.push(`${t.calls.toLocaleString("en-US")} model calls`, `${(t.latency_ms / 1000).toFixed(1)} s model time`, `${t.total_tokens.toLocaleString("en-US")} tokens`);
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
    report.categories.length === 0
      ? null
      : el(
          "details",
          { class: "runs-categories", attrs: { open: "" } },
          el("summary", { text: "Per category" }),
          el(
            "table",
            { attrs: { "data-testid": "runs-categories" } },
            el("thead", {}, el("tr", {}, ...["Category", "Scenarios", "Score", "Turns"].map((h) => el("th", { text: h })))),
            el(
              "tbody",
              {},
              ...report.categories.map((row) =>
                el(
                  "tr",
                  { class: row.category === ALL_CATEGORIES ? "all" : row.group },
                  el("td", { text: row.category }),
                  el("td", { class: "num", text: String(row.scenarios) }),
                  el("td", { class: "num", text: row.score.toFixed(3) }),
                  el("td", { class: "num", text: row.turn_count.toFixed(2) }),
                ),
              ),
            ),
          ),
        ),
    report.suites.length > 1
      ? el("p", { class: "runs-suites", text: `Suites: ${report.suites.map((s) => `${s.suite === "" ? "(top)" : s.suite} ${s.runs}${s.score === null ? "" : ` (${s.score.toFixed(2)})`}`).join(" · ")}` })
      : null,
  );
}
