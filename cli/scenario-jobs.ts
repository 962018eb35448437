// What the per-turn peer modes (`run --mode tooltalk`, `run --mode dialogtool`) share: load every
// scenario file and refuse them all if one has errors, then work on each scenario a few at a time.
// Ctrl-C (or SIGTERM) stops the work in flight; what finished is kept. A scenario whose work fails
// is one line naming its file, and the others go on.
import { formatDiagnostic } from "../engine/base/diagnostics.js";
import type { LoadOptions } from "../engine/scenario/load.js";
import type { Scenario } from "../engine/scenario/model.js";
import { runPool } from "../engine/runner/pool.js";
import { ExitError } from "../engine/runner/errors.js";
import { errorMessage, plural } from "../engine/base/text.js";
import { problemLine, type CliIO } from "./io.js";
import { collectScenarioFiles, hasErrors, loadScenario } from "../engine/runner/scenario-files.js";

export interface ScenarioJob {
  readonly file: string;
  readonly scenario: Scenario;
}

const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** Every scenario under `paths`, each problem printed; null (nothing to run) when a file has errors. */
export function loadScenarioJobs(paths: readonly string[], io: CliIO, options: LoadOptions = {}): ScenarioJob[] | null {
  const loaded = collectScenarioFiles(paths).map((file) => loadScenario(file, options));
  for (const l of loaded) for (const d of l.diagnostics) io.err(formatDiagnostic(d));
  const broken = loaded.filter((l) => hasErrors(l.diagnostics) || !l.scenario);
  if (broken.length > 0) {
    io.err(
      problemLine(
        `${broken.length} of ${plural(loaded.length, "scenario file")} ${broken.length === 1 ? "has" : "have"} errors; nothing was run`,
      ),
    );
    return null;
  }
  return loaded.flatMap((l) => (l.scenario ? [{ file: l.file, scenario: l.scenario }] : []));
}

/**
 * `work` on each job, `concurrency` at a time, until done or `interrupt` aborts (a stop signal
 * aborts it). Returns what finished, in the jobs' order, and how many failed.
 */
export async function eachScenario<R>(
  jobs: readonly ScenarioJob[],
  options: { readonly concurrency: number; readonly interrupt: AbortController },
  io: CliIO,
  work: (job: ScenarioJob) => Promise<R>,
): Promise<{ readonly done: R[]; readonly failed: number }> {
  const { interrupt } = options;
  const onStop = (): void => {
    // Back to the default: a second Ctrl-C ends the process at once.
    for (const s of STOP_SIGNALS) process.removeListener(s, onStop);
    interrupt.abort();
  };
  for (const s of STOP_SIGNALS) process.on(s, onStop);
  const results = new Map<number, R>();
  let failed = 0;
  try {
    await runPool(
      jobs.map((job, index) => ({ job, index })),
      { concurrency: options.concurrency, signal: interrupt.signal },
      async ({ job, index }) => {
        try {
          results.set(index, await work(job));
        } catch (e) {
          if (interrupt.signal.aborted) return;
          if (e instanceof ExitError) throw e;
          failed++;
          io.err(problemLine(`${job.file}: ${job.scenario.name}: ${errorMessage(e)}`));
        }
      },
    );
  } finally {
    for (const s of STOP_SIGNALS) process.removeListener(s, onStop);
  }
  return { done: jobs.flatMap((_, i) => (results.has(i) ? [results.get(i) as R] : [])), failed };
}
