// Above the table of runs: how many (scored, errored, damaged), the model calls they cost, then per
// group of agent, user, prompt set and augmentation its score and success rate with their 95%
// intervals, τ-bench's pass^k, the paper's per-category table and the same per app; the suites.
import { ALL_CATEGORIES } from "../../../engine/evaluation/categories.js";
import type { RunsData } from "../../../engine/reports/runs-data.js";
import type { GroupReport } from "../../../engine/reports/runs-report.js";
import { formatInterval, type Interval } from "../../../engine/evaluation/statistics/intervals.js";
import { el } from "../view/dom.js";

export function runsSummary(data: RunsData): HTMLElement {
  const { report } = data;
  const t = report.telemetry;
  const facts = [
    `${report.runs.toLocaleString("en-US")} run${report.runs === 1 ? "" : "s"}`,
    `${report.scored} scored`,
    `${report.errored} errored (${report.errors_as_failures ? "scored 0" : "left out"})`,
    `${report.damaged} damaged`,
  ];
  if (report.unscored > 0) facts.push(`${report.unscored} unscored`);
  if (t.calls > 0)
    facts.push(
      `${t.calls.toLocaleString("en-US")} model calls`,
      `${(t.latency_ms / 1000).toFixed(1)} s model time`,
      `${t.total_tokens.toLocaleString("en-US")} tokens`,
    );
  return el(
    "div",
    { class: "runs-summary-body" },
    el("h1", { text: data.title }),
    el("p", { class: "runs-facts", text: facts.join(" · "), attrs: { "data-testid": "runs-facts" } }),
    // Copies counted once, and scenarios run from several versions, said before any figure.
    ...(report.notes ?? []).map((note) => el("p", { class: "runs-note", text: note, attrs: { "data-testid": "runs-note" } })),
    ...report.groups.map((group) => groupSection(group, report.groups.length === 1)),
    report.suites.length > 1
      ? el("p", {
          class: "runs-suites",
          text: `Suites: ${report.suites.map((s) => `${s.suite === "" ? "(top)" : s.suite} ${s.runs}${s.score === null ? "" : ` (${s.score.toFixed(2)} ${formatInterval(s.interval)})`}`).join(" · ")}`,
        })
      : null,
  );
}

/** One group of agent, user, prompt set and augmentation: its figures are never pooled with another's. */
function groupSection(group: GroupReport, only: boolean): HTMLElement {
  const passK = group.pass_hat_k;
  const success = group.success;
  const score =
    group.score === null || success === null
      ? "no counted run, so no score"
      : `score ${group.score.toFixed(3)} ${formatInterval(group.interval)} over ${group.scenarios} scenarios (95% bootstrap) · success ${success.successes}/${success.trials} = ${success.rate.toFixed(3)} ${formatInterval(success.interval)} (Wilson 95%)`;
  return el(
    "section",
    // Not "runs-group": that is the Group by select's class (a section under it drew as a 26 px box).
    { class: "runs-group-section", attrs: { "data-testid": "runs-group-summary" } },
    el("h2", { text: group.key }),
    el("p", {
      class: "runs-group-counts",
      text: `${group.runs} run${group.runs === 1 ? "" : "s"} · ${group.scored} scored · ${group.errored} errored · ${group.damaged} damaged${group.unscored > 0 ? ` · ${group.unscored} unscored` : ""}`,
    }),
    el("p", { class: "runs-score", text: score, attrs: { "data-testid": "runs-score" } }),
    passK === null
      ? null
      : el("p", {
          class: "runs-pass-k",
          text: `pass^k (score ≥ ${passK.threshold.toFixed(2)}, ${passK.tasks.length} scenarios): ${passK.pass_hat_k.map((p) => `k=${p.k} ${p.value.toFixed(3)}`).join(" · ")}`,
          attrs: { "data-testid": "runs-pass-k", title: `estimator: ${passK.estimator}` },
        }),
    meansTable(
      "Per category",
      "runs-categories",
      ["Category", "Scenarios", "Score", "95% CI", "Turns"],
      group.categories.map((row) => ({ label: row.category, rowClass: row.category === ALL_CATEGORIES ? "all" : row.group, ...row })),
      only,
    ),
    meansTable(
      "Per app",
      "runs-apps",
      ["App", "Scenarios", "Score", "95% CI", "Turns"],
      group.apps.map((row) => ({ label: row.app, rowClass: "", ...row })),
      false,
    ),
  );
}

/** A folding table of rows with a count of scenarios, a mean score and mean turns (per category, per app). */
function meansTable(
  title: string,
  testId: string,
  headers: readonly string[],
  rows: readonly { label: string; rowClass: string; scenarios: number; score: number; interval: Interval | null; turn_count: number }[],
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
            el("td", { class: "num", text: formatInterval(row.interval) }),
            el("td", { class: "num", text: row.turn_count.toFixed(2) }),
          ),
        ),
      ),
    ),
  );
}
