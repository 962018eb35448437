// `toolsandbox run --mode tooltalk`: ToolTalk's own evaluation of ToolTalk-pack scenarios, played by
// the runner (engine/runner/tooltalk-mode.ts); here the options, the table on stdout and the exit
// code. `run` has refused the options that do not apply to the mode (run-options.ts).
import { plural } from "../engine/base/text.js";
import { EXIT, type ExitCode } from "../engine/runner/errors.js";
import { foreignToToolTalk, runToolTalkMode } from "../engine/runner/tooltalk-mode.js";
import { problemLine, type CliIO } from "./io.js";
import type { RunOptions } from "./run-options.js";
import { failedLine, loadPrintingProblems } from "./scenario-jobs.js";
import { abortOnStopSignal } from "./stop-signals.js";
import { toolTalkAggregateLines, toolTalkTableLines } from "./tooltalk-lines.js";

export async function runToolTalk(paths: readonly string[], options: RunOptions, io: CliIO): Promise<ExitCode> {
  const jobs = loadPrintingProblems(paths, io);
  if (jobs === null) return EXIT.failed;
  const foreign = foreignToToolTalk(jobs);
  for (const j of foreign)
    io.err(problemLine(`${j.file}: --mode tooltalk runs ToolTalk scenarios only; this one uses the ${j.scenario.world.pack} pack`));
  if (foreign.length > 0) return EXIT.failed;
  // Ctrl-C (or SIGTERM) stops the conversations in flight; what finished is written and summed up.
  const interrupt = new AbortController();
  const release = abortOnStopSignal(interrupt);
  let outcome: Awaited<ReturnType<typeof runToolTalkMode>>;
  try {
    outcome = await runToolTalkMode(jobs, {
      out: options.out,
      agent: options.agent,
      ...(options.roles ? { agentSpec: options.roles.agent } : {}),
      ...(typeof options.concurrency === "number" ? { concurrency: options.concurrency } : {}),
      ...(options.maxCallsPerTurn !== undefined ? { maxCallsPerTurn: options.maxCallsPerTurn } : {}),
      signal: interrupt.signal,
      onFailed: failedLine(io),
    });
  } finally {
    release();
  }
  const { rows, aggregate, failed } = outcome;
  for (const line of toolTalkTableLines(rows)) io.out(line);
  io.out("");
  for (const line of toolTalkAggregateLines(aggregate)) io.out(line);
  io.out(`${plural(rows.length, "conversation")} run, ${failed} failed; results in ${options.out}`);
  if (interrupt.signal.aborted) {
    io.err(problemLine(`interrupted: ${rows.length} of ${plural(jobs.length, "conversation")} finished`));
    return EXIT.interrupted;
  }
  return failed > 0 ? EXIT.failed : EXIT.ok;
}
