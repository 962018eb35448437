// The jobs of a run, planned while its scenario files are checked. Each file is read and checked
// on a turn of the event loop of its own, and its jobs are handed over as soon as it passes, so
// the first episodes are already waiting on their models while later files are being checked.
// A file with errors, or a scenario name used twice, spoils the plan: no more jobs are handed
// over, the remaining files are still checked so that every problem is printed, and the caller
// undoes what it started.
import { formatDiagnostic } from "../engine/base/diagnostics.js";
import { withFeedback, type FeedbackStyle } from "../engine/episode/call-feedback.js";
import type { Scenario } from "../engine/scenario/model.js";
import { inShard, type Shard } from "../engine/runner/shards.js";
import { expandAugmentations } from "../engine/scenario/augmentations/augmentations.js";
import { planJobs, trajectoryFileName, type BatchJob, type Runnable } from "../engine/runner/jobs.js";
import { nextTurn } from "../engine/runner/pool.js";
import { plural } from "../engine/base/text.js";
import { problemLine, type CliIO } from "./io.js";
import { hasErrors, loadScenario } from "../engine/runner/scenario-files.js";

interface PlanSettings {
  readonly trials: number;
  /** Trial k plays with seed + k - 1. */
  readonly seed: number;
  /** `--shard I/N`: only this part's jobs are planned (numbered as in the whole run's plan). */
  readonly shard?: Shard | undefined;
  /** Play each scenario as upstream's tool-augmentation variants. */
  readonly augment: boolean;
  /** Overrides every scenario's `options.feedback` (undefined: each scenario's own). */
  readonly feedback: FeedbackStyle | undefined;
  /** `run --prompts`: a prompt set file applied to every scenario. */
  readonly prompts?: string | undefined;
}

export type PlanOutcome =
  /** Every file passed: all the run's jobs, in plan order. */
  | { readonly ok: true; readonly jobs: readonly BatchJob[] }
  /** A file has errors or a name is used twice (already printed); `problem` is the closing line, if there is one. */
  | { readonly ok: false; readonly problem: string | null };

/**
 * Checks the files in order, printing their diagnostics, and hands each passing file's jobs to
 * `accept` while the plan is unspoiled. Stops early, unfinished, once `stop` aborts. A file that
 * cannot be read, or an `accept` that throws, rejects.
 */
export async function planAsChecked(
  files: readonly string[],
  settings: PlanSettings,
  io: CliIO,
  accept: (jobs: readonly BatchJob[]) => void,
  stop: AbortSignal,
): Promise<PlanOutcome> {
  const jobs: BatchJob[] = [];
  /** Jobs of the whole run so far, this shard's or not: a job's index is its place in the whole plan. */
  let planned = 0;
  // Trajectories are named after the scenario, so two scenarios with one name would overwrite each other.
  const fileByTrajectory = new Map<string, string>();
  const clashes: string[] = [];
  let broken = 0;
  for (const file of files) {
    await nextTurn();
    if (stop.aborted) return { ok: false, problem: null };
    const loaded = loadScenario(file, settings.prompts === undefined ? {} : { prompts: settings.prompts });
    for (const d of loaded.diagnostics) io.err(formatDiagnostic(d));
    if (hasErrors(loaded.diagnostics) || !loaded.scenario) {
      broken++;
      continue;
    }
    const { scenario } = loaded;
    const trajectory = trajectoryFileName(scenario.name);
    const other = fileByTrajectory.get(trajectory);
    if (other !== undefined) {
      clashes.push(problemLine(`${file}: scenario name "${scenario.name}" is already used by ${other}`));
      continue;
    }
    fileByTrajectory.set(trajectory, file);
    if (broken > 0 || clashes.length > 0) continue;
    const all = planJobs(variantsOf({ file, scenario }, settings), settings.trials, settings.seed, planned);
    planned += all.length;
    const mine = all.filter((job) => inShard(job.trajectory, settings.shard));
    jobs.push(...mine);
    accept(mine);
  }
  if (broken > 0) {
    const verb = broken === 1 ? "has" : "have";
    return { ok: false, problem: `${broken} of ${plural(files.length, "scenario file")} ${verb} errors; nothing was run` };
  }
  for (const line of clashes) io.err(line);
  return clashes.length > 0 ? { ok: false, problem: null } : { ok: true, jobs };
}

/** The scenarios a file's scenario is played as: its augmentation variants with --augment, under the run's --feedback. */
function variantsOf(runnable: Runnable, settings: PlanSettings): Runnable[] {
  const { feedback } = settings;
  const scenarios: Scenario[] = settings.augment ? expandAugmentations(runnable.scenario) : [runnable.scenario];
  return scenarios.map((scenario) => ({ file: runnable.file, scenario: feedback ? withFeedback(scenario, feedback) : scenario }));
}
