// What the editor says about each milestone and minefield after a run, a replay or a re-score:
// one short line per node, shown after the node's line and as its CodeLens. Pure, so the texts
// (which the end-to-end tests read) are checked without VS Code.
import { nodeWhy } from "../../engine/evaluation/highlights.js";
import type { EvaluationResult, NodeResult } from "../../engine/evaluation/result.js";
import type { NodeKind } from "../../engine/panel/protocol.js";

/** How the result reads at a glance; the decoration's colour follows it. */
export type ResultTone = "matched" | "partial" | "missed" | "hit" | "clear";

interface NodeResultView {
  readonly kind: NodeKind;
  readonly id: string;
  readonly tone: ResultTone;
  /** "✓ matched at message 7 · similarity 1.00", "✗ not matched", "⚠ hit at message 4", "✓ not hit": the CodeLens. */
  readonly text: string;
  /** "✓ 1.00", "✗ missed", "⚠ hit", "✓ clear": the end of the line, short so it is not cut and does not repeat the lens. */
  readonly badge: string;
  /** Why it scored what it did (empty for a full match): the hover. */
  readonly why: string;
  /** The message the panel should show for this node: where it matched, else its closest miss. */
  readonly message: number | null;
}

const similarity = (s: number): string => s.toFixed(2);

export function nodeResultView(kind: NodeKind, node: NodeResult): NodeResultView {
  const why = nodeWhy(node, kind);
  if (kind === "minefield") {
    return node.matched_at === null
      ? { kind, id: node.id, tone: "clear", text: "✓ not hit", badge: "✓ clear", why, message: null }
      : { kind, id: node.id, tone: "hit", text: `⚠ hit at message ${node.matched_at}`, badge: "⚠ hit", why, message: node.matched_at };
  }
  if (node.matched_at === null)
    return { kind, id: node.id, tone: "missed", text: "✗ not matched", badge: "✗ missed", why, message: node.explained_at };
  return {
    kind,
    id: node.id,
    tone: node.similarity >= 1 ? "matched" : "partial",
    text: `✓ matched at message ${node.matched_at} · similarity ${similarity(node.similarity)}`,
    badge: `✓ ${similarity(node.similarity)}`,
    why,
    message: node.matched_at,
  };
}

/** Every node of the evaluation, milestones first, keyed by kind and id. */
export function nodeResultViews(result: EvaluationResult): Map<string, NodeResultView> {
  const views = new Map<string, NodeResultView>();
  for (const node of result.milestones) views.set(nodeKey("milestone", node.id), nodeResultView("milestone", node));
  for (const node of result.minefields) views.set(nodeKey("minefield", node.id), nodeResultView("minefield", node));
  return views;
}

export const nodeKey = (kind: NodeKind, id: string): string => `${kind}:${id}`;

/** "score 1.00 · 3 turns", for the status bar and the test message. */
export function scoreSummary(result: EvaluationResult): string {
  const turns = `${result.turn_count} turn${result.turn_count === 1 ? "" : "s"}`;
  return `score ${similarity(result.score)} · ${turns}${result.zero_reason === null ? "" : ` (0 because ${result.zero_reason})`}`;
}
