// The line the Debug Console prints when an episode ends: its score and what made it, or why it
// has none. An errored end (engine/evaluation/outcome.ts) is never given a score.
import type { EvaluationResult } from "../evaluation/result.js";
import { isErroredEnd } from "../evaluation/outcome.js";

/** "Score 0.50: 1 of 2 milestones matched, no minefield hit; 3 turns." or "Not scored: the run errored (model_error)." */
export function endScoreLine(result: EvaluationResult | null, endReason: string | null): string {
  if (isErroredEnd(endReason)) return `Not scored: the run errored (${endReason ?? "no end event"}).`;
  if (result === null) return "Not scored: the milestones cannot be scored (see the warning above).";
  const matched = result.milestones.filter((n) => n.matched_at !== null).length;
  const full = result.milestones.filter((n) => n.matched_at !== null && n.similarity >= 1).length;
  const partly = matched > full ? ` (${matched - full} partly)` : "";
  const hits = result.minefields.filter((n) => n.matched_at !== null).map((n) => n.id);
  const mines = result.minefields.length === 0 ? "" : hits.length === 0 ? ", no minefield hit" : `, minefield ${hits.join(", ")} hit`;
  const turns = `${result.turn_count} turn${result.turn_count === 1 ? "" : "s"}`;
  const zero = result.zero_reason === null ? "" : ` (0 because ${result.zero_reason})`;
  return `Score ${result.score.toFixed(2)}${zero}: ${matched} of ${result.milestones.length} milestones matched${partly}${mines}; ${turns}.`;
}
