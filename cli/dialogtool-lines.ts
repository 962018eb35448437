// DialogTool's per-turn task scores as text, for `run --mode dialogtool` and `eval --mode
// dialogtool`: one row per scenario, then the whole set (sums of counts over every turn) and the
// same by dialogue turn depth.
import type { DialogToolMetrics, Tally } from "../engine/benchmarks/dialogtool/tasks/types.js";
import { plural } from "../engine/base/text.js";
import { renderTable, type Column } from "./table.js";

export interface DialogToolRow {
  readonly name: string;
  readonly metrics: DialogToolMetrics;
}

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
