// The peer modes' scenarios as the CLI loads them: every file's problems printed, and nothing run
// when one has errors (engine/runner/scenario-batch.ts); a scenario whose work fails is one line
// naming its file.
import { formatDiagnostic } from "../engine/base/diagnostics.js";
import { plural } from "../engine/base/text.js";
import { loadScenarioJobs, type ScenarioJob } from "../engine/runner/scenario-batch.js";
import type { LoadOptions } from "../engine/scenario/load.js";
import { problemLine, type CliIO } from "./io.js";

/** Every scenario under `paths`, each problem printed; null (nothing to run) when a file has errors. */
export function loadPrintingProblems(paths: readonly string[], io: CliIO, options: LoadOptions = {}): ScenarioJob[] | null {
  const loaded = loadScenarioJobs(paths, options);
  for (const d of loaded.diagnostics) io.err(formatDiagnostic(d));
  if (loaded.jobs === null) {
    io.err(
      problemLine(
        `${loaded.broken} of ${plural(loaded.files, "scenario file")} ${loaded.broken === 1 ? "has" : "have"} errors; nothing was run`,
      ),
    );
  }
  return loaded.jobs;
}

/** The line of a scenario whose work failed, the others going on. */
export const failedLine =
  (io: CliIO) =>
  (job: ScenarioJob, message: string): void =>
    io.err(problemLine(`${job.file}: ${job.scenario.name}: ${message}`));
