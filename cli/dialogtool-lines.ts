// DialogTool's per-turn task scores as text, for `run --mode dialogtool` and `eval --mode
// dialogtool`: one row per scenario, then the whole set (sums of counts over every turn) and the
// same by dialogue turn depth.
import type { DialogToolMetrics, Rate, SelectionSetting, Tally } from "../engine/benchmarks/dialogtool/tasks/types.js";
import { plural } from "../engine/base/text.js";
import type { DialogToolRow } from "../engine/runner/dialogtool-mode.js";
import { renderTable, type Column } from "./table.js";

const accuracy = (t: Tally): string => (t.accuracy === null ? "-" : t.accuracy.toFixed(3));
const counted = (t: Tally): string => (t.total === 0 ? "-" : `${accuracy(t)} (${t.correct}/${t.total})`);
const fixed = (value: number | null, digits: number): string => (value === null ? "-" : value.toFixed(digits));

const COLUMNS: readonly Column<DialogToolRow>[] = [
  { header: "SCENARIO", cell: (r) => r.name },
  { header: "TURNS", align: "right", cell: (r) => String(r.metrics.turns) },
  { header: "AWARENESS", align: "right", cell: (r) => accuracy(r.metrics.awareness) },
  { header: "SELECTION", align: "right", cell: (r) => accuracy(r.metrics.selection) },
  { header: "EXECUTION", align: "right", cell: (r) => accuracy(r.metrics.execution) },
  { header: "ARGUMENTS", align: "right", cell: (r) => accuracy(r.metrics.arguments) },
  { header: "BLEU", align: "right", cell: (r) => fixed(r.metrics.response.bleu, 1) },
  { header: "ROUGE-L", align: "right", cell: (r) => fixed(r.metrics.response.rouge_l, 3) },
];

export function dialogToolTableLines(rows: readonly DialogToolRow[]): string[] {
  return renderTable(COLUMNS, rows);
}

export function dialogToolAggregateLines(
  metrics: DialogToolMetrics,
  scenarios: number,
  byDepth: readonly { dialogue_turn: number; metrics: DialogToolMetrics }[],
  byApp: readonly { app: string; metrics: DialogToolMetrics }[],
): string[] {
  const lines = [
    `DialogTool over ${plural(scenarios, "scenario")}, ${plural(metrics.turns, "agent turn")}: ` +
      `awareness ${counted(metrics.awareness)}  selection ${counted(metrics.selection)}  execution ${counted(metrics.execution)}`,
    `calls ${counted(metrics.calls)}  arguments ${counted(metrics.arguments)}  ` +
      `response over ${`${metrics.response.turns} ${metrics.response.turns === 1 ? "reply" : "replies"}`}: BLEU ${fixed(metrics.response.bleu, 1)}  ROUGE-L ${fixed(metrics.response.rouge_l, 3)}`,
  ];
  lines.push(...analysisLines(metrics));
  if (byDepth.length > 1) {
    lines.push(
      `by dialogue turn: ${byDepth.map((d) => `${d.dialogue_turn}: awareness ${accuracy(d.metrics.awareness)} execution ${accuracy(d.metrics.execution)}`).join(" | ")}`,
    );
  }
  if (byApp.length > 0) lines.push("", ...renderTable(APP_COLUMNS, byApp));
  return lines;
}

/** The tool turns of each app: those whose reference called a tool of it. */
const APP_COLUMNS: readonly Column<{ app: string; metrics: DialogToolMetrics }>[] = [
  { header: "APP", cell: (r) => r.app },
  { header: "TOOL TURNS", align: "right", cell: (r) => String(r.metrics.selection.total) },
  { header: "AWARENESS", align: "right", cell: (r) => accuracy(r.metrics.awareness) },
  { header: "SELECTION", align: "right", cell: (r) => accuracy(r.metrics.selection) },
  { header: "EXECUTION", align: "right", cell: (r) => accuracy(r.metrics.execution) },
  { header: "ARGUMENTS", align: "right", cell: (r) => accuracy(r.metrics.arguments) },
];

const percent = (r: Rate): string => (r.rate === null ? "-" : `${(r.rate * 100).toFixed(1)}% (${r.count}/${r.total})`);

/** The action choice, confirmation, both selection settings and the error analyses (DialogTool's Tables 4 and 8, Figures 3 and 4). */
function analysisLines(metrics: DialogToolMetrics): string[] {
  const lines: string[] = [];
  if (metrics.actions) {
    const cells = Object.entries(metrics.actions.confusion).flatMap(([truth, row]) =>
      Object.entries(row)
        .filter(([chosen]) => chosen !== truth)
        .map(([chosen, n]) => `${truth}->${chosen} ${n}`),
    );
    lines.push(`actions ${counted(metrics.actions.tally)}${cells.length > 0 ? `  confused: ${cells.join(", ")}` : ""}`);
  }
  lines.push(`confirmation before transactional calls ${counted(metrics.confirmation)}`);
  const { flat, hierarchical } = metrics.selection_settings;
  const setting = (name: string, s: SelectionSetting): string =>
    `${name}: app ${accuracy(s.app)} api ${accuracy(s.api)} argument ${accuracy(s.argument)}`;
  lines.push(`selection settings  ${setting("flat", flat)}${hierarchical ? `  |  ${setting("hierarchical", hierarchical)}` : ""}`);
  const e = metrics.errors;
  const m = e.execution.mismatched;
  lines.push(
    `errors  awareness: false negatives ${percent(e.awareness.false_negatives)}, false positives ${percent(e.awareness.false_positives)}`,
    `        selection: recall ${counted(e.selection.recall)}, parse errors ${e.selection.parse_errors}, unnecessary calls ${e.selection.unnecessary_calls}`,
    `        execution over ${e.execution.arguments} arguments: missing ${e.execution.missing}, extra ${e.execution.extra}, ` +
      `mismatched date/time ${m.date_time}, location ${m.location}, number ${m.number}, other ${m.other}`,
  );
  return lines;
}
