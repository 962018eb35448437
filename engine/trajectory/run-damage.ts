// One definition of a damaged run file, shared by every reader that summarises or shows runs (the
// runs view, `report`, `eval`, `compare --suite`, the panel): every line is parsed and checked as
// `replay` checks it (parseTrajectory). A file is damaged when a line anywhere is not a valid
// trajectory line, when its last line was cut short, or when it has no end. What could be read
// before the break is kept, so a view can still show it beside the damage.
import { readFileSync, statSync } from "node:fs";
import { grouped, limitValue, overLimitMessage } from "../base/limits.js";
import { TrajectoryError } from "./errors.js";
import { parseTrajectory } from "./reader.js";
import type { Trajectory } from "./trajectory.js";

export interface RunDamage {
  /** 1-based line where the file breaks; null when the file as a whole is the problem (no end, too large). */
  readonly line: number | null;
  readonly reason: string;
}

export interface CheckedRun {
  /** Everything that reads as a trajectory: the whole file, or the lines before the break; null when not even the header does. */
  readonly trajectory: Trajectory | null;
  /** Null when the file is a whole, finished run. */
  readonly damage: RunDamage | null;
}

/** "line 12: invalid JSON (…)", or the reason alone when it is about the whole file. */
export const describeDamage = (d: RunDamage): string => (d.line === null ? d.reason : `line ${d.line}: ${d.reason}`);

/** Reads and checks a run file. File system errors (missing, unreadable) are thrown as they are. */
export function readRunFile(path: string): CheckedRun {
  const size = statSync(path).size;
  if (size > limitValue("trajectoryBytes")) {
    return { trajectory: null, damage: { line: null, reason: overLimitMessage("trajectoryBytes", `the file is ${grouped(size)} bytes`) } };
  }
  return checkRunText(readFileSync(path, "utf8"), path);
}

/** Checks the text of a run file every line of it; `file` names it in the trajectory's warnings. */
export function checkRunText(text: string, file: string): CheckedRun {
  try {
    const trajectory = parseTrajectory(text, file);
    return { trajectory, damage: damageOfWhole(trajectory) };
  } catch (e) {
    if (!(e instanceof TrajectoryError)) throw e;
    return {
      trajectory: e.line !== null && e.line > 1 ? readableBefore(text, e.line, file) : null,
      damage: { line: e.line, reason: e.reason },
    };
  }
}

/** A file that parsed can still be unfinished: its last line cut short (a warning with a line), or no end at all. */
export function damageOfWhole(trajectory: Trajectory): RunDamage | null {
  const cut = trajectory.warnings.find((w) => w.line !== null);
  if (cut) return { line: cut.line, reason: "the last line is cut short (the run did not finish writing it)" };
  if (trajectory.end === null) return { line: null, reason: "the run did not finish (no end)" };
  return null;
}

/** The lines before `line` as a trajectory (a run cut there), or null when they do not read either. */
function readableBefore(text: string, line: number, file: string): Trajectory | null {
  const before = text
    .split("\n")
    .slice(0, line - 1)
    .join("\n");
  try {
    return parseTrajectory(`${before}\n`, file);
  } catch {
    return null;
  }
}
