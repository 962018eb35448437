// `toolsandbox replay`: prints a saved trajectory as a transcript with the world diffs.
import { formatWarning, TrajectoryError } from "../trajectory/errors.js";
import { readTrajectoryFile } from "../trajectory/reader.js";
import type { Trajectory } from "../trajectory/trajectory.js";
import { CliError, EXIT, fsError, type ExitCode } from "./errors.js";
import { problemLine, type CliIO } from "./io.js";
import { transcriptLines } from "./transcript.js";

export function replayCommand(file: string, io: CliIO): ExitCode {
  const trajectory = loadTrajectory(file);
  for (const w of trajectory.warnings) io.err(problemLine(formatWarning(file, w)));
  for (const line of transcriptLines(trajectory)) io.out(line);
  return EXIT.ok;
}

/** Reads a trajectory for a command: unreadable is exit 3, malformed is exit 4, both one line. */
export function loadTrajectory(file: string): Trajectory {
  try {
    return readTrajectoryFile(file);
  } catch (e) {
    if (e instanceof TrajectoryError) throw new CliError(e.message, EXIT.malformedTrajectory);
    throw fsError(e, file);
  }
}
