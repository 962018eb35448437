// `toolsandbox run`: plays and scores every scenario with the chosen roles, once or in several
// trials, several episodes at a time; one trajectory file per episode, then summary.json and the
// per-category table. Nothing runs unless every scenario file is free of errors.
//
// Every episode depends only on its scenario, trial and seed (batch-jobs.ts), so the files are
// the same at any --concurrency; the summary lists the episodes in plan order, and only the
// stdout lines follow the order episodes finish in. Ctrl-C (or SIGTERM) cancels the running
// episodes, which still end, are scored and close their trajectories; no new one starts; the
// summary is written and the exit code is 130. A second Ctrl-C kills the process at once.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { formatDiagnostic } from "../diagnostics.js";
import { withFeedback, type FeedbackStyle } from "../episode/call-feedback.js";
import type { Scenario } from "../scenario/model.js";
import { jobLabel, planJobs, trajectoryFileName, type BatchJob, type Runnable } from "./batch-jobs.js";
import { runPool } from "./batch-pool.js";
import { discardSavedJob, inspectSavedJob } from "./batch-resume.js";
import { passHatKLine, trialsSummary, writeFileAtomically, type BatchSummary } from "./batch-summary.js";
import { CliError, EXIT, fsError, type ExitCode } from "./errors.js";
import { errorMessage, plural } from "./format.js";
import { problemLine, type CliIO } from "./io.js";
import { jobHeader, playJob, type PlayOptions } from "./play.js";
import type { RoleSpecs } from "./roles.js";
import { startProgress, type Progress } from "./progress.js";
import { collectScenarioFiles, hasErrors, loadScenario } from "./scenario-files.js";
import { categoryTableLines } from "./score-lines.js";
import { buildRunSummary, resultColumns, serializeSummary, type ScenarioResult } from "./summary.js";
import { columnWidths, headerLine, rowLine } from "./table.js";
import { expandAugmentations } from "../tools/augmentations.js";

export interface RunOptions {
  readonly agent: string;
  readonly user: string;
  /** Trial k plays with seed + k - 1. */
  readonly seed: number;
  readonly out: string;
  /** Episodes in flight at once (default 1). */
  readonly concurrency?: number;
  /** Episodes per scenario (default 1). */
  readonly trials?: number;
  /** Keep the complete trajectories already in `out`; play the rest. */
  readonly resume?: boolean;
  /** Show the progress bar even when stderr is not a terminal. */
  readonly progress?: boolean;
  /** The roles resolved from the model options (absent: `agent` and `user` alone, with default settings). */
  readonly roles?: RoleSpecs;
  /** Overrides every scenario's `options.feedback` (undefined: each scenario's own). */
  readonly feedback?: FeedbackStyle;
  /** Play each scenario as upstream's 8 tool-augmentation variants (reference 1.10). */
  readonly augment?: boolean;
  /** "tooltalk": ToolTalk's teacher-forced simulation and metrics instead of episodes (tooltalk-run.ts). */
  readonly mode?: "milestone" | "tooltalk";
  /** --mode tooltalk: calls one assistant turn may make before it is cut off. */
  readonly maxCallsPerTurn?: number;
}

export const SUMMARY_FILE = "summary.json";

/** Stop signals: Ctrl-C, and the polite kill of a supervisor or CI runner. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

export async function runCommand(paths: readonly string[], options: RunOptions, io: CliIO): Promise<ExitCode> {
  if (options.mode === "tooltalk") {
    // Loaded on demand, so milestone runs do not pay for ToolTalk's modules at start-up.
    const { runToolTalkMode, toolTalkRunOptions } = await import("./tooltalk-run.js");
    return runToolTalkMode(paths, toolTalkRunOptions(options), io);
  }
  if (options.maxCallsPerTurn !== undefined) throw new CliError("--max-calls-per-turn applies to --mode tooltalk only", EXIT.usage);
  const trials = options.trials ?? 1;
  const concurrency = options.concurrency ?? 1;
  if (!Number.isSafeInteger(options.seed + trials - 1)) {
    throw new CliError(`--seed ${options.seed} with ${trials} trials goes past the largest seed`, EXIT.usage);
  }
  const runnable = loadAll(paths, io);
  if (!runnable) return EXIT.failed;
  try {
    mkdirSync(options.out, { recursive: true });
  } catch (e) {
    throw fsError(e, options.out);
  }

  // --feedback overrides what each scenario asks for; the trajectory header records the choice.
  const { feedback } = options;
  const variants = options.augment ? runnable.flatMap((r) => expandAugmentations(r.scenario).map((scenario) => ({ ...r, scenario }))) : runnable;
  const played = feedback ? variants.map((r) => ({ ...r, scenario: withFeedback(r.scenario, feedback) })) : variants;
  const jobs = planJobs(played, trials, options.seed);
  const interrupt = new AbortController();
  // A job that cannot write its trajectory stops the run; the episodes still running are cancelled.
  const fatal = new AbortController();
  const playOptions: PlayOptions = {
    agent: options.roles?.agent ?? options.agent,
    user: options.roles?.user ?? options.user,
    outDir: options.out,
    signal: AbortSignal.any([interrupt.signal, fatal.signal]),
  };
  const results = new Map<number, ScenarioResult>();
  const pending = options.resume ? resumeJobs(jobs, playOptions, results, io) : jobs;

  const onStop = (): void => {
    // Back to the default for the next one: a second Ctrl-C ends the process at once.
    for (const s of STOP_SIGNALS) process.removeListener(s, onStop);
    interrupt.abort();
  };
  for (const s of STOP_SIGNALS) process.on(s, onStop);
  const columns = resultColumns(Math.max(...jobs.map((j) => jobLabel(j.scenario.name, j.trial).length)));
  const widths = columnWidths(columns, []);
  const progress = startProgress(io, { total: jobs.length, done: results.size, force: options.progress === true });
  let started = 0;
  try {
    if (pending.length > 0) progress.line(headerLine(columns, widths));
    started = await runPool(
      pending,
      { concurrency, signal: playOptions.signal },
      async (job) => {
        progress.started();
        const outcome = await playJob(job, playOptions);
        results.set(job.index, outcome.result);
        report(job, outcome, progress, io, (r) => rowLine(columns, widths, { ...r, name: jobLabel(r.name, r.trial) }));
      },
      () => fatal.abort(),
    );
  } finally {
    progress.stop();
    for (const s of STOP_SIGNALS) process.removeListener(s, onStop);
  }

  const ordered = jobs.flatMap((j) => results.get(j.index) ?? []);
  const notStarted = pending.length - started;
  const summary = batchSummary(options, trials, ordered, interrupt.signal.aborted ? notStarted : null);
  const summaryPath = join(options.out, SUMMARY_FILE);
  writeFileAtomically(summaryPath, serializeSummary(summary));
  printTotals(summary, trials, summaryPath, io);
  if (interrupt.signal.aborted) {
    const cancelled = ordered.filter((r) => r.end_reason === "cancelled").length;
    io.err(problemLine(`interrupted: ${ordered.length - cancelled} of ${plural(jobs.length, "episode")} finished, ${cancelled} cancelled, ${notStarted} not started`));
    return EXIT.interrupted;
  }
  return summary.totals.failed > 0 ? EXIT.failed : EXIT.ok;
}

/** Prints the finished job's line (stdout) and, when it failed, why (stderr). */
function report(
  job: BatchJob,
  outcome: Awaited<ReturnType<typeof playJob>>,
  progress: Progress,
  io: CliIO,
  row: (r: ScenarioResult) => string,
): void {
  const { result, engineError } = outcome;
  const name = jobLabel(result.name, job.trial);
  progress.line(row(result));
  if (engineError !== null) {
    io.err(problemLine(`${job.file}: ${name}: engine error: ${errorMessage(engineError)}`));
    if (io.debug && engineError instanceof Error && engineError.stack) io.err(engineError.stack);
  } else if (result.failed) {
    io.err(problemLine(`${job.file}: ${name} ended with ${result.end_reason ?? "error"}${result.detail ? `: ${result.detail}` : ""}`));
  }
  progress.advance(name);
}

/**
 * --resume: the jobs whose trajectory is complete go straight into `results`; what unfinished
 * jobs left behind is deleted. Returns the jobs still to play. Refuses (exit 2) when a trajectory
 * under a job's name was made by another run, rather than overwrite it.
 */
function resumeJobs(jobs: readonly BatchJob[], playOptions: PlayOptions, results: Map<number, ScenarioResult>, io: CliIO): BatchJob[] {
  const pending: BatchJob[] = [];
  const discard: BatchJob[] = [];
  for (const job of jobs) {
    const saved = inspectSavedJob(job, playOptions.outDir, jobHeader(job, playOptions));
    switch (saved.kind) {
      case "complete":
        results.set(job.index, saved.result);
        break;
      case "foreign":
        throw new CliError(
          `${join(playOptions.outDir, job.trajectory)}: cannot resume: ${saved.reason} (resume with the options of the first run, or use another --out)`,
          EXIT.usage,
        );
      case "incomplete":
        discard.push(job);
        pending.push(job);
        break;
      case "missing":
        pending.push(job);
        break;
    }
  }
  for (const job of discard) discardSavedJob(job, playOptions.outDir);
  const again = discard.length === 0 ? "" : ` (${discard.length} of them unfinished: deleted and played again from the start)`;
  io.err(problemLine(`resuming: ${results.size} of ${plural(jobs.length, "episode")} already complete, ${pending.length} to play${again}`));
  return pending;
}

function batchSummary(options: RunOptions, trials: number, results: readonly ScenarioResult[], notStarted: number | null): BatchSummary {
  const base = buildRunSummary({ agent: options.agent, user: options.user, seed: options.seed }, results);
  const perTrial = trials > 1 ? trialsSummary(results, trials) : null;
  return {
    ...base,
    ...(perTrial ? { trials: perTrial } : {}),
    ...(notStarted === null ? {} : { interrupted: { episodes_not_started: notStarted } }),
  };
}

function printTotals(summary: BatchSummary, trials: number, summaryPath: string, io: CliIO): void {
  const t = summary.totals;
  if (summary.categories.length > 0) {
    io.out("");
    for (const line of categoryTableLines(summary.categories)) io.out(line);
    io.out("");
  }
  if (summary.trials) io.out(passHatKLine(summary.trials));
  const count =
    trials > 1
      ? `${plural(new Set(summary.scenarios.map((s) => s.name)).size, "scenario")} × ${plural(trials, "trial")}: ${plural(t.scenarios, "episode")}`
      : plural(t.scenarios, "scenario");
  io.out(`${count}, ${t.failed} failed, ${plural(t.messages, "message")}, ${plural(t.turns, "turn")}; summary in ${summaryPath}`);
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
