// The part of "Save Run as Scenario…" that needs no editor (docs/drafting.md, "In VS Code"): read a
// run file and refuse a damaged or errored run in one line, propose where its draft goes, and
// write the draft (the same engine functions as `toolsandbox draft`), checked as `validate` would.
import { basename, dirname, join } from "node:path";
import { writeFileAtomically } from "../../engine/base/output-files.js";
import { plural } from "../../engine/base/text.js";
import { draftScenario } from "../../engine/drafting/draft.js";
import { draftRefusal } from "../../engine/drafting/refusal.js";
import { checkScenarioText } from "../../engine/scenario/resolve.js";
import { readRunFile } from "../../engine/trajectory/run-damage.js";
import type { Trajectory } from "../../engine/trajectory/trajectory.js";

type DraftableRun = { readonly ok: true; readonly trajectory: Trajectory } | { readonly ok: false; readonly problem: string };

/** The run in `file`, or the one line saying why no draft can be made from it. */
export function readDraftableRun(file: string): DraftableRun {
  let checked: ReturnType<typeof readRunFile>;
  try {
    checked = readRunFile(file);
  } catch (e) {
    const reason = e instanceof Error ? e.message.split("\n")[0] : String(e);
    return { ok: false, problem: `${basename(file)}: cannot read the run (${reason})` };
  }
  const refusal = draftRefusal(checked);
  if (refusal !== null || checked.trajectory === null) {
    return { ok: false, problem: `${basename(file)}: ${refusal?.reason ?? "the run file is damaged"}` };
  }
  return { ok: true, trajectory: checked.trajectory };
}

/**
 * Where the draft is proposed: `<scenario name>_draft.scenario.yaml` beside the scenario the run
 * played (its file in the workspace), else in the workspace root, else beside the run.
 */
export function proposedDraftPath(
  trajectory: Trajectory,
  places: { readonly scenarioFile: string | null; readonly workspaceRoot: string | null; readonly runFile: string },
): string {
  const folder = places.scenarioFile !== null ? dirname(places.scenarioFile) : (places.workspaceRoot ?? dirname(places.runFile));
  return join(folder, `${scenarioNameOf(trajectory.header.scenario.name)}_draft.scenario.yaml`);
}

/** "runs/New Task.scenario.yaml" -> "new_task": the scenario name a file is given, as the CLI does. */
export function scenarioNameOfFile(path: string): string {
  return scenarioNameOf(basename(path).replace(/\.scenario\.ya?ml$|\.ya?ml$/i, ""));
}

const scenarioNameOf = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "") || "draft";

interface WrittenDraft {
  /** One line for the notification: what was written, from what. */
  readonly summary: string;
  readonly notes: readonly string[];
  /** The checker's errors in the draft, as `line:col: message` (none expected: one is a drafter bug). */
  readonly errors: readonly string[];
}

/** Drafts the run into `out` (overwriting it: the save dialog asked), and checks what it wrote. */
export function writeRunDraft(trajectory: Trajectory, runFile: string, out: string): WrittenDraft {
  const draft = draftScenario(trajectory, { name: scenarioNameOfFile(out), source: basename(runFile) });
  writeFileAtomically(out, draft.text);
  const checked = checkScenarioText(draft.text, out);
  const errors = checked.diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message}`);
  const noted = draft.notes.length === 0 ? "" : `; ${plural(draft.notes.length, "note")}`;
  return {
    summary: `wrote ${basename(out)}: ${plural(draft.milestones, "milestone")}, a reference of ${plural(draft.steps, "step")}${noted}`,
    notes: draft.notes,
    errors,
  };
}
