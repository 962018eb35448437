// What the editor says about each milestone and minefield after a run, a replay or a re-score:
// one short line per node, shown after the node's line and as its CodeLens. Pure, so the texts
// (which the end-to-end tests read) are checked without VS Code.
import { nodeWhy } from "../../engine/evaluation/highlights.js";
import type { EvaluationResult, NodeResult } from "../../engine/evaluation/result.js";
import { type NodeState, nodeStateWords } from "../../engine/evaluation/node-state.js";
import type { NodeKind } from "../../engine/panel/protocol.js";
import { isErroredEnd } from "../../engine/evaluation/outcome.js";
import { type Rescored, rescoredLabel } from "../../engine/panel/score-source.js";

/** How the result reads at a glance (engine/evaluation/node-state.ts); the decoration's colour follows it. */
export type ResultTone = NodeState;

interface NodeResultView {
  readonly kind: NodeKind;
  readonly id: string;
  readonly tone: ResultTone;
  /** Whether the node's test passes: the Testing view reports this, never a reading of its own. */
  readonly passes: boolean;
  /** "✓ matched at message 7 · similarity 1.00", "◐ partly matched at message 7 · similarity 0.85", "✗ missed · best similarity 0.00", "⚠ hit at message 4", "✓ not hit": the CodeLens. */
  readonly text: string;
  /** "✓ 1.00", "◐ 0.85", "✗ missed", "⚠ hit", "✓ clear": the end of the line, short so it is not cut and does not repeat the lens. */
  readonly badge: string;
  /** "partly matched at message 7 (similarity 0.85)": the hover's first words. */
  readonly phrase: string;
  /** Why it scored what it did (empty for a full match): the hover. */
  readonly why: string;
  /** The message the panel should show for this node: where it matched, else its closest miss. */
  readonly message: number | null;
}

const similarity = (s: number): string => s.toFixed(2);

export function nodeResultView(kind: NodeKind, node: NodeResult): NodeResultView {
  const words = nodeStateWords(kind, node);
  return {
    kind,
    id: node.id,
    tone: words.state,
    passes: words.passes,
    text: words.line,
    badge: words.badge,
    phrase: words.phrase,
    why: nodeWhy(node, kind),
    message: node.matched_at ?? (kind === "milestone" ? node.explained_at : null),
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

/** How a finished run ended, as the editor needs it: its end event, or null when it has none. */
interface RunEnd {
  readonly reason: string;
  readonly detail?: string;
}

/**
 * Why a finished run has no score: "errored (role_error): the command exited …" for a run a model,
 * a role or the engine cut short (engine/evaluation/outcome.ts), "errored: the run did not finish"
 * without an end; null for a run that counts.
 */
export function erroredReason(end: RunEnd | null): string | null {
  if (end === null) return "errored: the run did not finish";
  if (!isErroredEnd(end.reason)) return null;
  return `errored (${end.reason})${end.detail ? `: ${end.detail}` : ""}`;
}

/** What the status bar and the first CodeLens say of the run a scenario shows. */
export function shownRunSummary(evaluation: EvaluationResult, end: RunEnd | null, rescored: Rescored | null): string {
  const errored = erroredReason(end);
  if (errored !== null) return errored;
  if (rescored === null) return scoreSummary(evaluation);
  const turns = `${evaluation.turn_count} turn${evaluation.turn_count === 1 ? "" : "s"}`;
  return `${rescoredLabel(evaluation.score, rescored)} · ${turns}`;
}
