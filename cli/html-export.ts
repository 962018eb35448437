// `toolsandbox replay --html FILE`: the run/replay panel as one self-contained HTML file. The
// bundled panel script and stylesheet are inlined under the page's CSP nonce and the trajectory is
// embedded as JSON, so the file opens from disk in any browser with nothing else to load.
import { existsSync, readFileSync } from "node:fs";
import { writeFileNoFollow } from "../engine/base/output-files.js";
import { basename, join } from "node:path";
import { dialogToolMessage } from "../engine/panel/dialogtool-message.js";
import { createNonce, panelHtml } from "../engine/panel/html.js";
import type { EvaluationResult } from "../engine/evaluation/result.js";
import type { Trajectory } from "../engine/trajectory/trajectory.js";
import type { TrajectoryLine } from "../engine/panel/protocol.js";
import { ExitError, EXIT, fsError } from "../engine/runner/errors.js";

const SCRIPT = "webview.js";
const STYLE = "webview.css";

/** The trajectory's lines, with `evaluation` (this build's score) in place of any recorded one. */
function exportLines(trajectory: Trajectory, evaluation: EvaluationResult | null): TrajectoryLine[] {
  const result = evaluation ?? trajectory.evaluation;
  return [
    trajectory.header,
    ...trajectory.events,
    ...(result === null ? [] : [{ type: "evaluation" as const, result }]),
    ...(trajectory.judgement ? [trajectory.judgement] : []),
  ];
}

export function replayHtml(trajectory: Trajectory, evaluation: EvaluationResult | null, source: string): string {
  return panelHtml({
    title: `${trajectory.header.scenario.name} · ${basename(source)} · ToolSandbox replay`,
    nonce: createNonce(),
    assets: { kind: "inline", ...bundledAssets(SCRIPT, STYLE) },
    lines: [...exportLines(trajectory, evaluation), ...dialogToolLines(trajectory)],
  });
}

/** DialogTool's scores of the run, carried after the lines (the static host posts them as their own message). */
function dialogToolLines(trajectory: Trajectory): unknown[] {
  try {
    const message = dialogToolMessage(trajectory.header, trajectory.messages);
    return message === null ? [] : [message];
  } catch {
    return [];
  }
}

/** A browser bundle's script and stylesheet from dist/ (the panel's, or the runs view's). */
export function bundledAssets(script: string, style: string): { readonly script: string; readonly style: string } {
  const dir = assetDirectory(script, style);
  return { script: readFileSync(join(dir, script), "utf8"), style: readFileSync(join(dir, style), "utf8") };
}

export function writeReplayHtml(file: string, html: string): void {
  try {
    writeFileNoFollow(file, html);
  } catch (e) {
    throw fsError(e, file);
  }
}

/** dist/, where the panel bundle sits next to the CLI bundle (or two levels up when run from source). */
function assetDirectory(script: string, style: string): string {
  const candidates = [__dirname, join(__dirname, "..", "..", "dist")];
  const found = candidates.find((dir) => existsSync(join(dir, script)) && existsSync(join(dir, style)));
  if (found === undefined)
    throw new ExitError(`the browser bundle (${script}, ${style}) is missing next to the CLI; run npm run build`, EXIT.internal);
  return found;
}
