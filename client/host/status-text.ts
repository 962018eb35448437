// What the results entry of the status bar says for the run a scenario shows, in one place so it
// is tested without VS Code: "running…" only while turns are being played, "paused" while the run
// waits for Continue or Step, "errored" and never a score for a run that errored, and a re-score
// against another version of the scenario labelled with the recorded score.
import type { LiveState } from "../../engine/panel/protocol.js";
import type { Rescored } from "../../engine/panel/score-source.js";
import type { EvaluationResult } from "../../engine/evaluation/result.js";
import type { EndEvent } from "../../engine/trajectory/trajectory.js";
import { erroredReason, scoreSummary, shownRunSummary } from "./node-results.js";
import { rescoredLabel } from "../../engine/panel/score-source.js";

interface ShownResults {
  readonly trajectoryPath: string;
  readonly evaluation: EvaluationResult | null;
  readonly note: { readonly stale: boolean; readonly text: string } | null;
  readonly end: EndEvent | null;
  readonly finished: boolean;
  readonly rescored: Rescored | null;
}

interface StatusText {
  readonly text: string;
  readonly tooltip: string;
  readonly errored: boolean;
}

export function statusText(results: ShownResults, live: LiveState | null): StatusText {
  const where = `results of ${results.trajectoryPath}; click to open the run.`;
  if (live === "paused")
    return {
      text: "$(debug-pause) paused before the next message",
      tooltip: `ToolSandbox: the run is paused; Continue or Step in the panel. ${where}`,
      errored: false,
    };
  if (live === "running" || results.evaluation === null)
    return { text: "$(sync~spin) running…", tooltip: `ToolSandbox: the run is playing. ${where}`, errored: false };
  const { note, evaluation } = results;
  const errored = erroredReason(results.end);
  if (errored !== null) {
    // The bar shows "errored (role_error)"; the tooltip has the whole reason.
    return { text: `$(error) ${errored.replace(/:.*$/, "")}`, tooltip: `ToolSandbox: ${errored}\n${where}`, errored: true };
  }
  const icon = note === null && results.rescored === null ? "$(beaker)" : "$(warning)";
  const rescored = results.rescored === null ? "" : `${rescoredLabel(evaluation.score, results.rescored)}\n`;
  const tooltip = `ToolSandbox: ${rescored}${note === null ? "" : `${note.text}\n`}${where}`;
  // Text with errors keeps the score it had: said as such (the re-score's label is in the tooltip).
  if (note?.stale === true)
    return { text: `${icon} scenario has errors, showing the previous ${scoreSummary(evaluation)}`, tooltip, errored: false };
  return { text: `${icon} ${shownRunSummary(evaluation, results.end, results.rescored)}`, tooltip, errored: false };
}
