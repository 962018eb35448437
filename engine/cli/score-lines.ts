// How scores read on the console: the per-node table of `eval` and `replay` (where each
// milestone and minefield matched and, when it did not score 1, the reason in one line), and the
// per-category table of `run` and `eval`.
import type { CategoryRow } from "../evaluation/categories.js";
import { formatScore, nodeWhy } from "../evaluation/highlights.js";
import type { EvaluationResult, NodeResult } from "../evaluation/result.js";
import { plural } from "./format.js";
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
  { header: "TURNS", align: "right", cell: (r) => r.turn_count.toFixed(1) },
];

/** The per-category table; scenario categories, then augmentations, then ALL_CATEGORIES. */
export function categoryTableLines(rows: readonly CategoryRow[]): string[] {
  return renderTable(CATEGORY_COLUMNS, rows);
}
