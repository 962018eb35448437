// The results a client shows for a document, when it says so: VS Code's inline results,
// CodeLenses and Testing view show one run per scenario (the last run, a replay, or a re-score of
// it against the unsaved text). The hover then speaks of that same run, so a milestone's line never
// reads two ways. Clients that say nothing get the newest saved run (last-run.ts). Kept when the
// document closes: the client's results outlive its editor, and it says when they go.
//
// `toolsandbox/shownResults` params: `{ uri, shown }`, where `shown` is
//   - `{ state: "scored", result, rescored }`: an evaluation (validated here as the trajectory
//     schema validates an evaluation line), `rescored` when it was computed against the text as it
//     is now rather than the scenario the run played;
//   - `{ state: "running" }`: a run is going and has no results yet;
//   - `{ state: "errored", reason }`: the run could not be played to its end, so it has no score;
//   - `null`: the client shows nothing for the document any more.
import type { HoverRun } from "../service/milestone-hover.js";
import { isJsonObject } from "../../engine/base/json.js";
import { checkEvent } from "../../engine/trajectory/schema.js";

export const SHOWN_RESULTS_METHOD = "toolsandbox/shownResults";

export class ShownResults {
  private readonly byUri = new Map<string, HoverRun>();

  /** Takes a notification's params; returns why they were refused, or null. */
  accept(params: unknown): string | null {
    if (!isJsonObject(params) || typeof params.uri !== "string") return `${SHOWN_RESULTS_METHOD}: params need a string uri`;
    const { uri, shown } = params;
    if (shown === null || shown === undefined) {
      this.byUri.delete(uri);
      return null;
    }
    if (!isJsonObject(shown)) return `${SHOWN_RESULTS_METHOD}: shown must be an object or null`;
    if (shown.state === "running") {
      this.byUri.set(uri, { label: "Shown run", result: null, noResult: "still going; no results yet" });
      return null;
    }
    if (shown.state === "errored") {
      if (typeof shown.reason !== "string") return `${SHOWN_RESULTS_METHOD}: shown.reason must be a string`;
      this.byUri.set(uri, { label: "Shown run", result: null, noResult: `${oneLine(shown.reason)}; no score` });
      return null;
    }
    if (shown.state !== "scored") return `${SHOWN_RESULTS_METHOD}: shown.state must be "scored", "running" or "errored"`;
    const checked = checkEvent({ type: "evaluation", result: shown.result });
    if (!checked.ok || checked.value.type !== "evaluation")
      return `${SHOWN_RESULTS_METHOD}: shown.result is not an evaluation: ${checked.ok ? "wrong type" : checked.error}`;
    const label = shown.rescored === true ? "Shown run (re-scored against the text as it is now)" : "Shown run";
    this.byUri.set(uri, { label, result: checked.value.result });
    return null;
  }

  /** What the client shows for this document; undefined when it has said nothing (or stopped showing). */
  of(uri: string): HoverRun | undefined {
    return this.byUri.get(uri);
  }
}

/** A reason as one line of bounded length, read as text: it is shown inside a hover's Markdown. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  const short = line.length > 300 ? `${line.slice(0, 299)}…` : line;
  return short.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, "\\$&");
}
