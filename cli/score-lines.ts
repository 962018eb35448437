// How scores read on the console: the per-node table of `eval` and `replay` (where each
// milestone and minefield matched and, when it did not score 1, the reason in one line), the
// per-category table of `run` and `eval` (each mean with its 95% bootstrap interval over scenarios), and the peer benchmarks' metrics and pass^k of `eval`.
import type { AppRow } from "../engine/evaluation/app-rows.js";
import type { CategoryRow } from "../engine/evaluation/categories.js";
import { formatScore, nodeWhy } from "../engine/evaluation/highlights.js";
import {
  TOOLSCAN_PATTERNS,
  type PassHatKReport,
  type PeerMetrics,
  type TaskReliability,
  type ToolScanPattern,
  type ToolScanResult,
} from "../engine/benchmarks/peers.js";
import type { EvaluationResult, NodeResult } from "../engine/evaluation/result.js";
import { plural } from "../engine/base/text.js";
import { formatInterval } from "../engine/evaluation/statistics/intervals.js";
import { renderTable, type Column } from "./table.js";

interface NodeRow {
  readonly kind: "milestone" | "minefield";
  readonly node: NodeResult;
}

const NODE_COLUMNS: readonly Column<NodeRow>[] = [
  { header: "KIND", cell: (r) => r.kind },
  { header: "ID", cell: (r) => r.node.id },
  { header: "AT", align: "right", cell: (r) => (r.node.matched_at === null ? "-" : String(r.node.matched_at)) },
  { header: "SIMILARITY", align: "right", cell: (r) => formatScore(r.node.similarity) },
  { header: "WHY", cell: (r) => nodeWhy(r.node, r.kind) },
];

/** One line per milestone and minefield, under a header. Empty when the scenario has neither. */
export function nodeTableLines(result: EvaluationResult): string[] {
  const rows: NodeRow[] = [
    ...result.milestones.map((node): NodeRow => ({ kind: "milestone", node })),
    ...result.minefields.map((node): NodeRow => ({ kind: "minefield", node })),
  ];
  return rows.length === 0 ? [] : renderTable(NODE_COLUMNS, rows);
}

/** "score 0.50 (milestones 0.50, minefields 0.00), 7 turns", plus why it is 0 when it is forced. */
export function scoreLine(result: EvaluationResult): string {
  const parts = `score ${formatScore(result.score)} (milestones ${formatScore(result.milestone_score)}, minefields ${formatScore(result.minefield_score)}), ${plural(result.turn_count, "turn")}`;
  return result.zero_reason === null ? parts : `${parts}; 0 because ${result.zero_reason}`;
}

const CATEGORY_COLUMNS: readonly Column<CategoryRow>[] = [
  { header: "CATEGORY", cell: (r) => r.category },
  { header: "SCENARIOS", align: "right", cell: (r) => String(r.scenarios) },
  { header: "SCORE", align: "right", cell: (r) => formatScore(r.score) },
  { header: "95% CI", cell: (r) => formatInterval(r.interval) },
  { header: "TURNS", align: "right", cell: (r) => r.turn_count.toFixed(1) },
];

const APP_COLUMNS: readonly Column<AppRow>[] = [
  { header: "APP", cell: (r) => r.app },
  { header: "SCENARIOS", align: "right", cell: (r) => String(r.scenarios) },
  { header: "SCORE", align: "right", cell: (r) => formatScore(r.score) },
  { header: "95% CI", cell: (r) => formatInterval(r.interval) },
  { header: "TURNS", align: "right", cell: (r) => r.turn_count.toFixed(1) },
];

/** The per-app table: each app its scenarios' references use, with their mean score and turns. */
export function appTableLines(rows: readonly AppRow[]): string[] {
  return renderTable(APP_COLUMNS, rows);
}

/** The per-category table; scenario categories, then augmentations, then ALL_CATEGORIES. */
export function categoryTableLines(rows: readonly CategoryRow[]): string[] {
  return renderTable(CATEGORY_COLUMNS, rows);
}

/**
 * Two lines, labelled like the lines above them (`labelWidth`: the width of their labels):
 * "tooltalk  precision 0.50  recall 1.00  action precision 1.00  incorrect action rate 0.00  success yes  soft success 1.00"
 * "toolscan  IAC 0  IAV 1 (send_1)  IAN 1 (at 7)  IAT 0  RAC 0  IFN 0  IFE 0"
 */
export function peerLines(peers: PeerMetrics, labelWidth = "tooltalk".length): string[] {
  const t = peers.tooltalk.metrics;
  const tooltalk = [
    `precision ${formatScore(t.precision)}`,
    `recall ${formatScore(t.recall)}`,
    `action precision ${formatScore(t.action_precision)}`,
    `incorrect action rate ${formatScore(t.bad_action_rate)}`,
    `success ${t.success ? "yes" : "no"}`,
    `soft success ${formatScore(t.soft_success)}`,
  ];
  const toolscan = TOOLSCAN_PATTERNS.map((p) => {
    const where = toolScanWhere(peers.toolscan, p);
    return `${p} ${peers.toolscan.counts[p]}${where === "" ? "" : ` (${where})`}`;
  });
  return [`${"tooltalk".padEnd(labelWidth)}  ${tooltalk.join("  ")}`, `${"toolscan".padEnd(labelWidth)}  ${toolscan.join("  ")}`];
}

/** What a pattern's count is made of: the tools called too few times, the reference calls never matched, or the tagged calls' message indices. */
function toolScanWhere(result: ToolScanResult, pattern: ToolScanPattern): string {
  switch (pattern) {
    case "IAC":
      return result.insufficient_calls.map((s) => (s.missing === 1 ? s.tool : `${s.tool} x${s.missing}`)).join(", ");
    case "IAV":
      return result.incorrect_values.join(", ");
    default: {
      const at = result.calls.filter((c) => c.tags.includes(pattern)).map((c) => c.message_index);
      return at.length === 0 ? "" : `at ${at.join(", ")}`;
    }
  }
}

const TRIAL_COLUMNS: readonly Column<TaskReliability>[] = [
  { header: "SCENARIO", cell: (r) => r.task },
  { header: "TRIALS", align: "right", cell: (r) => String(r.trials) },
  { header: "SUCCESSES", align: "right", cell: (r) => String(r.successes) },
];

/**
 * Trials and successes per scenario, then "pass^1 0.750  pass^2 0.500" under a line saying what
 * counted as a success and, when scenarios have different numbers of trials, why k stops where it does.
 */
export function passHatKLines(report: PassHatKReport): string[] {
  const trials = report.tasks.map((t) => t.trials);
  const fewest = Math.min(...trials);
  const most = Math.max(...trials);
  const counts = fewest === most ? `${fewest} trials each` : `${fewest} to ${most} trials each, so k stops at ${fewest}`;
  return [
    `pass^k over ${plural(report.tasks.length, "scenario")} (${counts}); a trial succeeds when its score is at least ${report.threshold}`,
    ...renderTable(TRIAL_COLUMNS, report.tasks),
    report.pass_hat_k.map(({ k, value }) => `pass^${k} ${value.toFixed(3)}`).join("  "),
  ];
}
