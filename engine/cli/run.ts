// `toolsandbox run`: plays and scores every scenario with the chosen roles, one trajectory file
// each, then writes summary.json and prints the per-category table. Nothing runs unless every
// scenario file is free of errors.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatDiagnostic } from "../diagnostics.js";
import type { Scenario } from "../scenario/model.js";
import { EXIT, fsError, type ExitCode } from "./errors.js";
import { errorMessage, plural } from "./format.js";
import { problemLine, type CliIO } from "./io.js";
import { playScenario, trajectoryFileName } from "./play.js";
import { startProgress } from "./progress.js";
import { collectScenarioFiles, hasErrors, loadScenario } from "./scenario-files.js";
import { categoryTableLines } from "./score-lines.js";
import { buildRunSummary, resultColumns, serializeSummary, type ScenarioResult } from "./summary.js";
import { columnWidths, headerLine, rowLine } from "./table.js";

export interface RunOptions {
  readonly agent: string;
  readonly user: string;
  readonly seed: number;
  readonly out: string;
}

export const SUMMARY_FILE = "summary.json";

interface Runnable {
  readonly file: string;
  readonly scenario: Scenario;
}

export async function runCommand(paths: readonly string[], options: RunOptions, io: CliIO): Promise<ExitCode> {
  const runnable = loadAll(paths, io);
  if (!runnable) return EXIT.failed;
  try {
    mkdirSync(options.out, { recursive: true });
  } catch (e) {
    throw fsError(e, options.out);
  }

  // Ctrl-C ends the episode in progress as "cancelled" and skips the rest; the summary is still written.
  const interrupt = new AbortController();
  const onSigint = (): void => interrupt.abort();
  process.once("SIGINT", onSigint);
  const results: ScenarioResult[] = [];
  const columns = resultColumns(Math.max(...runnable.map((r) => r.scenario.name.length)));
  const widths = columnWidths(columns, []);
  const progress = startProgress(io, runnable.length);
  try {
    progress.line(headerLine(columns, widths));
    for (const { file, scenario } of runnable) {
      // Let signals and the progress bar's timers in between scenarios (scripted roles never wait).
      await new Promise((resolve) => setImmediate(resolve));
      if (interrupt.signal.aborted) break;
      const { result, engineError } = await playScenario(scenario, { ...options, outDir: options.out, signal: interrupt.signal });
      results.push(result);
      progress.line(rowLine(columns, widths, result));
      if (engineError !== null) {
        io.err(problemLine(`${file}: engine error: ${errorMessage(engineError)}`));
        if (io.debug && engineError instanceof Error && engineError.stack) io.err(engineError.stack);
      } else if (result.failed) {
        io.err(problemLine(`${file}: ${result.name} ended with ${result.end_reason ?? "error"}${result.detail ? `: ${result.detail}` : ""}`));
      }
      progress.advance(scenario.name);
    }
  } finally {
    progress.stop();
    process.removeListener("SIGINT", onSigint);
  }

  const summary = buildRunSummary({ agent: options.agent, user: options.user, seed: options.seed }, results);
  const summaryPath = join(options.out, SUMMARY_FILE);
  try {
    writeFileSync(summaryPath, serializeSummary(summary));
  } catch (e) {
    throw fsError(e, summaryPath);
  }
  const t = summary.totals;
  if (summary.categories.length > 0) {
    io.out("");
    for (const line of categoryTableLines(summary.categories)) io.out(line);
    io.out("");
  }
  io.out(
    `${plural(t.scenarios, "scenario")}, ${t.failed} failed, ${plural(t.messages, "message")}, ${plural(t.turns, "turn")}; summary in ${summaryPath}`,
  );
  if (interrupt.signal.aborted) {
    io.err(problemLine(`interrupted after ${plural(results.length, "scenario")} of ${runnable.length}`));
    return EXIT.interrupted;
  }
  return t.failed > 0 ? EXIT.failed : EXIT.ok;
}

/** Loads every file; prints all diagnostics to stderr. Null when any file has errors or names clash. */
function loadAll(paths: readonly string[], io: CliIO): Runnable[] | null {
  const loaded = collectScenarioFiles(paths).map(loadScenario);
  for (const l of loaded) for (const d of l.diagnostics) io.err(formatDiagnostic(d));
  const broken = loaded.filter((l) => hasErrors(l.diagnostics) || !l.scenario);
  if (broken.length > 0) {
    const verb = broken.length === 1 ? "has" : "have";
    io.err(problemLine(`${broken.length} of ${plural(loaded.length, "scenario file")} ${verb} errors; nothing was run`));
    return null;
  }
  const runnable = loaded.map((l) => ({ file: l.file, scenario: l.scenario as Scenario }));
  // Trajectories are named after the scenario, so two scenarios with one name would overwrite each other.
  const seen = new Map<string, string>();
  let clash = false;
  for (const { file, scenario } of runnable) {
    const trajectory = trajectoryFileName(scenario.name);
    const other = seen.get(trajectory);
    if (other !== undefined) {
      io.err(problemLine(`${file}: scenario name "${scenario.name}" is already used by ${other}`));
      clash = true;
    } else seen.set(trajectory, file);
  }
  return clash ? null : runnable;
}
