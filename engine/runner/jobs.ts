// The episodes a `run` plays: every scenario times every trial, in a fixed order (scenarios in
// the order they were found, then trials 1..K). Each job's trajectory depends only on its
// scenario, its trial and its seed, never on how many jobs run at once, so the files of a run
// are the same at any --concurrency.
import type { Scenario } from "../scenario/model.js";

export interface Runnable {
  readonly file: string;
  readonly scenario: Scenario;
}

export interface BatchJob {
  /** Position in the plan: the summary lists results in this order. */
  readonly index: number;
  readonly file: string;
  readonly scenario: Scenario;
  /** 1-based; null when the run has a single trial (file names and results then carry no trial). */
  readonly trial: number | null;
  /** The run's seed plus the trial's offset (trial k plays with seed + k - 1). */
  readonly seed: number;
  /** The trajectory's file name inside the output directory. */
  readonly trajectory: string;
}

// Trajectory file names are the trajectory layer's; re-exported for the CLI's callers.
export { trajectoryFileName } from "../trajectory/run-files.js";
import { trajectoryFileName } from "../trajectory/run-files.js";

/** The seed trial `trial` (1-based) plays with. */
const trialSeed = (baseSeed: number, trial: number | null): number => baseSeed + (trial === null ? 0 : trial - 1);

/** The jobs of `runnable` in plan order, numbered from `firstIndex` (the jobs planned before them). */
export function planJobs(runnable: readonly Runnable[], trials: number, baseSeed: number, firstIndex = 0): BatchJob[] {
  const jobs: BatchJob[] = [];
  for (const { file, scenario } of runnable) {
    for (let k = 1; k <= trials; k++) {
      const trial = trials === 1 ? null : k;
      jobs.push({
        index: firstIndex + jobs.length,
        file,
        scenario,
        trial,
        seed: trialSeed(baseSeed, trial),
        trajectory: trajectoryFileName(scenario.name, trial),
      });
    }
  }
  return jobs;
}

/** How a job is named on the console: the scenario, and its trial when there are several. */
export const jobLabel = (name: string, trial: number | null | undefined): string => (trial == null ? name : `${name} #${trial}`);
