// Scoring a saved run again against the scenario as it is written now (the editor's text, saved
// or not), without playing anything: how an author sees what a milestone edit does to a run. A
// text with errors scores nothing; the caller keeps the results it had and says why.
import type { Diagnostic } from "../../engine/base/diagnostics.js";
import { evaluateTrajectory, EvaluationError, type EvaluationResult } from "../../engine/evaluation/evaluate.js";
import { checkScenarioFileText } from "../../engine/scenario/load.js";
import type { Rescored } from "../../engine/panel/score-source.js";
import type { ScoringProgressSink } from "../../engine/evaluation/scoring-progress.js";
import { headerScenarioDigest, scenarioDigest } from "../../engine/trajectory/scenario-digest.js";
import type { Trajectory } from "../../engine/trajectory/trajectory.js";

export type RescoreResult =
  | {
      readonly ok: true;
      readonly result: EvaluationResult;
      /** Set when the text names another scenario than the run played. */
      readonly warning: string | null;
      /** Set when the text is another version of the scenario than the run played (the score may differ from the recorded one). */
      readonly rescored: Rescored | null;
    }
  | { readonly ok: false; readonly problem: string };

/** `onProgress` hears how far the matcher has come (the scoring worker passes it on to the host). */
export function rescoreAgainstText(trajectory: Trajectory, text: string, file: string, onProgress?: ScoringProgressSink): RescoreResult {
  const checked = checkScenarioFileText(text, file);
  const errors = checked.diagnostics.filter((d) => d.severity === "error");
  if (checked.scenario === null || errors.length > 0) return { ok: false, problem: errorSummary(errors) };
  let result: EvaluationResult;
  try {
    result = evaluateTrajectory(trajectory, checked.scenario, onProgress);
  } catch (e) {
    if (!(e instanceof EvaluationError)) throw e;
    return { ok: false, problem: `cannot score the run against this scenario: ${e.message}` };
  }
  const played = trajectory.header.scenario.name;
  const warning = checked.scenario.name === played ? null : `scored against "${checked.scenario.name}", but the run played "${played}"`;
  // The header records the digest of the scenario the run played (older files: of the scenario it
  // embeds): it tells whether the text is that version.
  const changed = scenarioDigest(checked.scenario) !== headerScenarioDigest(trajectory.header);
  return { ok: true, result, warning, rescored: changed ? { recorded: trajectory.evaluation?.score ?? null } : null };
}

/** "2 errors in the scenario (first at 12:5: No milestone has the id "x".)" */
export function errorSummary(errors: readonly Diagnostic[]): string {
  const first = errors[0];
  if (!first) return "the scenario has errors";
  const where = `${first.range.start.line + 1}:${first.range.start.character + 1}`;
  const count = `${errors.length} error${errors.length === 1 ? "" : "s"}`;
  return `${count} in the scenario (first at ${where}: ${first.message})`;
}
