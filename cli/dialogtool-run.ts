// `toolsandbox run --mode dialogtool`: DialogTool's per-turn tasks, teacher-forced, played by the
// runner (engine/runner/dialogtool-mode.ts); here the options, the table on stdout and the exit
// code. `run` has refused the options that do not apply to the mode (run-options.ts).
import { plural } from "../engine/base/text.js";
import { runDialogToolMode } from "../engine/runner/dialogtool-mode.js";
import { EXIT, type ExitCode } from "../engine/runner/errors.js";
import { dialogToolAggregateLines, dialogToolTableLines } from "./dialogtool-lines.js";
import { problemLine, type CliIO } from "./io.js";
import type { RunOptions } from "./run-options.js";
import { failedLine, loadPrintingProblems } from "./scenario-jobs.js";
import { abortOnStopSignal } from "./stop-signals.js";

export async function runDialogTool(paths: readonly string[], options: RunOptions, io: CliIO): Promise<ExitCode> {
  const jobs = loadPrintingProblems(paths, io, options.prompts === undefined ? {} : { prompts: options.prompts });
  if (jobs === null) return EXIT.failed;
  const interrupt = new AbortController();
  const release = abortOnStopSignal(interrupt);
  let outcome: Awaited<ReturnType<typeof runDialogToolMode>>;
  try {
    outcome = await runDialogToolMode(jobs, {
      out: options.out,
      agent: options.agent,
      seed: options.seed,
      ...(options.roles ? { agentSpec: options.roles.agent } : {}),
      ...(typeof options.concurrency === "number" ? { concurrency: options.concurrency } : {}),
      ...(options.awareness !== undefined ? { awareness: options.awareness } : {}),
      ...(options.selection !== undefined ? { selection: options.selection } : {}),
      signal: interrupt.signal,
      onFailed: failedLine(io),
    });
  } finally {
    release();
  }
  const { rows, aggregate, byDepth, byApp, failed } = outcome;
  for (const line of dialogToolTableLines(rows)) io.out(line);
  io.out("");
  for (const line of dialogToolAggregateLines(aggregate, rows.length, byDepth, byApp)) io.out(line);
  io.out(`${plural(rows.length, "scenario")} run, ${failed} failed; results in ${options.out}`);
  if (interrupt.signal.aborted) {
    io.err(problemLine(`interrupted: ${rows.length} of ${plural(jobs.length, "scenario")} finished`));
    return EXIT.interrupted;
  }
  return failed > 0 ? EXIT.failed : EXIT.ok;
}
