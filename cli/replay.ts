// `toolsandbox replay`: prints a saved trajectory as a transcript with the world diffs and where
// each milestone and minefield matched. The score is recomputed from the embedded scenario (it
// takes milliseconds), so it reflects this build's evaluation, not the one the run was made with.
import { evaluateTrajectory, EvaluationError } from "../engine/evaluation/evaluate.js";
import type { EvaluationResult } from "../engine/evaluation/result.js";
import { formatWarning, TrajectoryError } from "../engine/trajectory/errors.js";
import { readTrajectoryFile } from "../engine/trajectory/reader.js";
import type { Trajectory } from "../engine/trajectory/trajectory.js";
import { ExitError, EXIT, fsError, type ExitCode } from "../engine/runner/errors.js";
import { replayHtml, writeReplayHtml } from "./html-export.js";
import type { Command } from "commander";
import { problemLine, type CliIO } from "./io.js";
import { transcriptLines } from "./transcript.js";

/** With `html`, writes the replay panel as one HTML file instead of printing the transcript. */
function replayCommand(file: string, io: CliIO, opts: { html?: string } = {}): ExitCode {
  const trajectory = loadTrajectory(file);
  for (const w of trajectory.warnings) io.err(problemLine(formatWarning(file, w)));
  let evaluation: EvaluationResult | null = null;
  try {
    evaluation = evaluateTrajectory(trajectory);
  } catch (e) {
    if (!(e instanceof EvaluationError)) throw e;
    // The transcript is still worth reading when the embedded milestones cannot be scored.
    io.err(problemLine(`${file}: warning: cannot score the embedded scenario: ${e.message}`));
  }
  if (opts.html !== undefined) {
    writeReplayHtml(opts.html, replayHtml(trajectory, evaluation, file));
    io.out(`wrote ${opts.html}`);
    return EXIT.ok;
  }
  for (const line of transcriptLines(trajectory, evaluation)) io.out(line);
  return EXIT.ok;
}

/** Reads a trajectory for a command: unreadable is exit 3, malformed is exit 4, both one line. */
export function loadTrajectory(file: string): Trajectory {
  try {
    return readTrajectoryFile(file);
  } catch (e) {
    if (e instanceof TrajectoryError) throw new ExitError(e.message, EXIT.malformedTrajectory);
    throw fsError(e, file);
  }
}

export function registerReplay(program: Command, io: CliIO, setExit: (code: ExitCode) => void): void {
  program
    .command("replay")
    .description(
      "print a saved trajectory: every message, tool call and exception, the world diff after each step, and where each milestone and minefield matched",
    )
    .argument("<trajectory>", "a *.trajectory.jsonl file")
    .option("--html <file>", "write the replay panel as one self-contained HTML file instead of printing the transcript")
    .action((file: string, opts: { html?: string }) => setExit(replayCommand(file, io, opts)));
}
