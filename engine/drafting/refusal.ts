// Which runs a draft may be made from: a whole, finished run whose episode played to its end. A
// damaged file (a line that does not read, cut short, no end) or an errored run (a model or role
// failed, the agent went away, time ran out) shows what went wrong, not what the task is, so each
// is refused with one line saying why (docs/drafting.md).
import { isErroredEnd } from "../evaluation/outcome.js";
import { type CheckedRun, describeDamage } from "../trajectory/run-damage.js";
import type { Trajectory } from "../trajectory/trajectory.js";

type DraftRefusal = { readonly kind: "damaged" | "errored"; readonly reason: string };

/** Why no draft can be made from this run, or null when one can. */
export function draftRefusal(run: CheckedRun): DraftRefusal | null {
  if (run.damage !== null || run.trajectory === null) {
    return {
      kind: "damaged",
      reason: `the run file is damaged (${run.damage ? describeDamage(run.damage) : "unreadable"}); a draft needs a whole run`,
    };
  }
  return erroredRefusal(run.trajectory);
}

function erroredRefusal(trajectory: Trajectory): DraftRefusal | null {
  const reason = trajectory.endReason;
  if (!isErroredEnd(reason) && reason !== "cancelled") return null;
  const detail = trajectory.end?.detail;
  return {
    kind: "errored",
    reason: `the run errored (${reason ?? "no end"}${detail ? `: ${detail}` : ""}); a draft needs a run that played to its end`,
  };
}
