// What the per-turn peer modes (`run --mode tooltalk`, `run --mode dialogtool`) share, for any
// front end: load every scenario file and refuse them all if one has errors, then work on each
// scenario a few at a time until done or stopped. A scenario whose work fails is reported by the
// caller's hook, and the others go on; an error that concerns the whole run (a result file that
// cannot be written, a role that cannot be made) stops it.
import type { Diagnostic } from "../base/diagnostics.js";
import { OutputFileError } from "../base/output-files.js";
import { errorMessage } from "../base/text.js";
import type { LoadOptions } from "../scenario/load.js";
import type { Scenario } from "../scenario/model.js";
import { ExitError, RoleSpecError } from "./errors.js";
import { runPool } from "./pool.js";
import { collectScenarioFiles, hasErrors, loadScenario } from "./scenario-files.js";

export interface ScenarioJob {
  readonly file: string;
  readonly scenario: Scenario;
}

interface LoadedScenarioJobs {
  /** Every scenario, or null (nothing to run) when some file has errors. */
  readonly jobs: ScenarioJob[] | null;
  /** Every file's diagnostics, in file order. */
  readonly diagnostics: readonly Diagnostic[];
  /** Files with errors, of `files`. */
  readonly broken: number;
  readonly files: number;
}

/** Every scenario under `paths`; none when a file has errors. */
export function loadScenarioJobs(paths: readonly string[], options: LoadOptions = {}): LoadedScenarioJobs {
  const loaded = collectScenarioFiles(paths).map((file) => loadScenario(file, options));
  const broken = loaded.filter((l) => hasErrors(l.diagnostics) || !l.scenario).length;
  return {
    jobs: broken > 0 ? null : loaded.flatMap((l) => (l.scenario ? [{ file: l.file, scenario: l.scenario }] : [])),
    diagnostics: loaded.flatMap((l) => l.diagnostics),
    broken,
    files: loaded.length,
  };
}

interface EachScenarioOptions {
  readonly concurrency: number;
  /** Stops the work: nothing new starts, and work in flight is cancelled through the same signal. */
  readonly signal: AbortSignal;
  /** A scenario's work failed (not stopped): "name: why", the others go on. */
  readonly onFailed: (job: ScenarioJob, message: string) => void;
}

/** Errors that concern the whole run rather than one scenario. */
const isRunError = (e: unknown): boolean => e instanceof ExitError || e instanceof RoleSpecError || e instanceof OutputFileError;

/**
 * `work` on each job, `concurrency` at a time, until done or `signal` aborts. Returns what
 * finished, in the jobs' order, and how many failed.
 */
export async function eachScenario<R>(
  jobs: readonly ScenarioJob[],
  options: EachScenarioOptions,
  work: (job: ScenarioJob) => Promise<R>,
): Promise<{ readonly done: R[]; readonly failed: number }> {
  const results = new Map<number, R>();
  let failed = 0;
  await runPool(
    jobs.map((job, index) => ({ job, index })),
    { concurrency: options.concurrency, signal: options.signal },
    async ({ job, index }) => {
      try {
        results.set(index, await work(job));
      } catch (e) {
        if (options.signal.aborted) return;
        if (isRunError(e)) throw e;
        failed++;
        options.onFailed(job, errorMessage(e));
      }
    },
  );
  return { done: jobs.flatMap((_, i) => (results.has(i) ? [results.get(i) as R] : [])), failed };
}
