// What the Testing view reports for one scenario run: pass or fail against the threshold, and
// one failure message per milestone not fully matched and per minefield hit, located on the
// node's line so the message appears in the editor beside it.
import type { EpisodeEnd } from "../../engine/episode/episode.js";
import { nodeWhy } from "../../engine/evaluation/highlights.js";
import type { EvaluationResult, NodeResult } from "../../engine/evaluation/result.js";
import { nodeStateWords } from "../../engine/evaluation/node-state.js";
import type { NodeKind } from "../../engine/panel/protocol.js";
import type { NodeLocation } from "./node-lines.js";
import { scoreSummary } from "./node-results.js";

/** Scores are sums of floating-point similarities: 0.999999999 passes a threshold of 1. */
const EPSILON = 1e-6;

export const passes = (score: number, threshold: number): boolean => score >= threshold - EPSILON;

interface TestFailure {
  readonly kind: NodeKind;
  readonly id: string;
  /** 0-based line of the node in the scenario; null when the text no longer has it. */
  readonly line: number | null;
  readonly message: string;
}

interface TestReport {
  readonly passed: boolean;
  /** "score 0.50 · 3 turns, below the pass threshold 1.00" */
  readonly summary: string;
  readonly failures: readonly TestFailure[];
  /** How the episode ended when it ended early (a model error, a cancelled run); null otherwise. */
  readonly endNote: string | null;
}

const EARLY_ENDS: ReadonlySet<string> = new Set(["role_error", "model_error", "script_exhausted", "cancelled"]);

export function testReport(
  result: EvaluationResult,
  threshold: number,
  locations: readonly NodeLocation[],
  end: EpisodeEnd | null,
): TestReport {
  const passed = passes(result.score, threshold);
  const lineOf = (kind: NodeKind, id: string): number | null => locations.find((l) => l.kind === kind && l.id === id)?.line ?? null;
  const failures: TestFailure[] = [];
  // The same state and words as the CodeLens and the line's end (engine/evaluation/node-state.ts).
  const add = (kind: NodeKind, node: NodeResult): void => {
    const words = nodeStateWords(kind, node);
    if (words.passes) return;
    const why = kind === "milestone" ? nodeWhy(node, kind) : "";
    const what = `${kind === "milestone" ? "Milestone" : "Minefield"} "${node.id}": ${words.phrase}`;
    failures.push({ kind, id: node.id, line: lineOf(kind, node.id), message: why === "" ? what : `${what}. ${why}` });
  };
  for (const node of result.milestones) add("milestone", node);
  for (const node of result.minefields) add("minefield", node);
  const verdict = passed ? `passes the threshold ${threshold.toFixed(2)}` : `below the pass threshold ${threshold.toFixed(2)}`;
  return { passed, summary: `${scoreSummary(result)}, ${verdict}`, failures, endNote: earlyEndNote(end) };
}

/** "The run ended early (model_error: …)." for a run a role or a cancel cut short; null otherwise. */
export function earlyEndNote(end: EpisodeEnd | null): string | null {
  return end !== null && EARLY_ENDS.has(end.reason) ? `The run ended early (${end.reason}${end.detail ? `: ${end.detail}` : ""}).` : null;
}

/** Why a run that could not be scored failed: the engine's error or how the episode ended. */
export function unscoredMessage(engineError: string | null, end: EpisodeEnd | null): string {
  if (engineError !== null) return `The run failed: ${engineError}`;
  if (end === null) return "The run did not finish.";
  return `The run ended (${end.reason}${end.detail ? `: ${end.detail}` : ""}) and could not be scored.`;
}
