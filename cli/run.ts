// `toolsandbox run`: plays and scores every scenario with the chosen roles, once or in several
// trials, several episodes at a time; one trajectory file per episode, then summary.json and the
// per-category table. Nothing is kept unless every scenario file is free of errors: the files are
// checked one by one while the first episodes already wait on their models (batch-plan.ts), and a
// file with errors cancels those episodes and removes what they wrote.
//
// Every episode depends only on its scenario, trial and seed (batch-jobs.ts), so the files are
// the same at any --concurrency; the summary lists the episodes in plan order, and only the
// stdout lines follow the order episodes finish in. Ctrl-C (or SIGTERM) cancels the running
// episodes, which still end, are scored and close their trajectories; no new one starts; the
// summary is written and the exit code is 130. A second Ctrl-C kills the process at once.
import { existsSync, rmdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { makeDirectories, writeFileAtomically } from "../engine/base/output-files.js";
import type { BatchJob } from "../engine/runner/jobs.js";
import { planAsChecked, type PlanOutcome } from "./batch-plan.js";
import { JobQueue, runPool } from "../engine/runner/pool.js";
import { BatchReport } from "./batch-report.js";
import { discardSavedJob, inspectSavedJob } from "../engine/runner/resume.js";
import { passHatKLine, trialsSummary, type BatchSummary } from "../engine/runner/batch-summary.js";
import { ExitError, EXIT, fsError, type ExitCode } from "../engine/runner/errors.js";
import { plural } from "../engine/base/text.js";
import { problemLine, type CliIO } from "./io.js";
import { abortOnStopSignal } from "./stop-signals.js";
import { jobHeader, playJob, type PlayOptions } from "../engine/runner/play.js";
import type { Command } from "commander";
import { createModelService, JUDGE, MODEL_SERVICE_OPTIONS, modelServiceSpec, REVIEWER } from "./model-service-options.js";
import { addOptions, refuseOutsideMode, type OptionTable } from "./option-table.js";
import { MODEL_ROLE_OPTIONS, withRoleSpecs } from "./role-options.js";
import { RUN_OPTIONS, RUN_OUTCOME_OPTIONS, type RunFlags, type RunOptions } from "./run-options.js";
import type { ModelRoleFlags } from "../engine/runner/role-specs.js";
import { collectScenarioFiles } from "../engine/runner/scenario-files.js";
import { roleSpec } from "../engine/runner/role-specs.js";
import { RunServices } from "../engine/runner/run-services.js";
import type { Shard } from "../engine/runner/shards.js";
import { appTableLines, categoryTableLines } from "./score-lines.js";
import { buildRunSummary, serializeSummary, type ScenarioResult } from "../engine/runner/summary.js";
import { formatScore } from "../engine/evaluation/highlights.js";
import { formatInterval } from "../engine/evaluation/statistics/intervals.js";

const SUMMARY_FILE = "summary.json";

/** Every option `run` has that applies to some modes only. */
const MODE_BOUND_OPTIONS: OptionTable = { ...RUN_OPTIONS, ...MODEL_SERVICE_OPTIONS, ...RUN_OUTCOME_OPTIONS };

/** Adds `run` to the program. */
export function registerRun(program: Command, io: CliIO, setExit: (code: ExitCode) => void): void {
  const run = program
    .command("run")
    .description("play and score scenarios: one trajectory per scenario, summary.json, and a per-category table")
    .argument("<paths...>", "scenario files, or directories to search for *.scenario.yaml")
    .addHelpText("after", RUN_HELP);
  addOptions(addOptions(addOptions(addOptions(run, RUN_OPTIONS), MODEL_ROLE_OPTIONS), MODEL_SERVICE_OPTIONS), RUN_OUTCOME_OPTIONS);
  run.action(async (paths: string[], flags: RunFlags & ModelRoleFlags) => {
    const options: RunOptions = {
      ...withRoleSpecs(flags),
      judge: modelServiceSpec(JUDGE, flags, process.env),
      reviewer: modelServiceSpec(REVIEWER, flags, process.env),
    };
    setExit(await runCommand(paths, options, io));
  });
}

const RUN_HELP =
  '\nNothing is kept when a scenario file has errors: the files are checked while the first episodes start,\nand a file with errors cancels them and removes what they wrote. Exits 1 when a scenario could not be\nplayed to its end (role error, reference out of step, engine error). The files are the same at any\n--concurrency. Ctrl-C cancels the running episodes (their trajectories end with "cancelled"), writes\nsummary.json and exits 130; --resume then plays what is left.';

export async function runCommand(paths: readonly string[], options: RunOptions, io: CliIO): Promise<ExitCode> {
  const mode = options.mode ?? "milestone";
  // The services are resolved to specs by now; the table refuses them by the flags they came from.
  refuseOutsideMode(MODE_BOUND_OPTIONS, { ...options, judge: options.judge ?? undefined, review: options.reviewer ?? undefined }, mode);
  if (mode === "tooltalk") {
    // Loaded on demand, so milestone runs do not pay for ToolTalk's modules at start-up.
    const { runToolTalk } = await import("./tooltalk-run.js");
    return runToolTalk(paths, options, io);
  }
  if (mode === "dialogtool") {
    const { runDialogTool } = await import("./dialogtool-run.js");
    return runDialogTool(paths, options, io);
  }
  const trials = options.trials ?? 1;
  const auto = typeof options.concurrency === "object" ? options.concurrency.auto : undefined;
  const concurrency = typeof options.concurrency === "number" ? options.concurrency : (auto ?? 1);
  if (!Number.isSafeInteger(options.seed + trials - 1)) {
    throw new ExitError(`--seed ${options.seed} with ${trials} trials goes past the largest seed`, EXIT.usage);
  }
  const files = collectScenarioFiles(paths);
  let createdDir: string | undefined;
  try {
    createdDir = makeDirectories(options.out);
  } catch (e) {
    throw fsError(e, options.out);
  }

  const interrupt = new AbortController();
  // A job that cannot write its trajectory stops the run; the episodes still running are cancelled.
  const fatal = new AbortController();
  // A scenario file with errors found once the first episodes are under way: they are cancelled, and what they wrote removed.
  const spoiled = new AbortController();
  if (options.cache !== undefined) {
    try {
      makeDirectories(options.cache);
    } catch (e) {
      throw fsError(e, options.cache);
    }
  }
  const services = new RunServices({
    ...(auto !== undefined ? { autoConcurrency: auto } : {}),
    ...(options.cache !== undefined ? { cacheFolder: options.cache } : {}),
  });
  const playOptions: PlayOptions = {
    agent: services.attach(options.roles?.agent ?? roleSpec("agent", options.agent, {}, process.env)),
    user: services.attach(options.roles?.user ?? roleSpec("user", options.user, {}, process.env)),
    ...(options.judge ? { judge: createModelService(JUDGE, services.attach(options.judge)) } : {}),
    ...(options.reviewer ? { reviewer: createModelService(REVIEWER, services.attach(options.reviewer)) } : {}),
    outDir: options.out,
    signal: AbortSignal.any([interrupt.signal, fatal.signal, spoiled.signal]),
  };
  const results = new Map<number, ScenarioResult>();
  const report = new BatchReport(io, options.progress === true, services.adaptive ? () => services.status() : undefined);
  const queue = new JobQueue<BatchJob>();
  const resumed = { complete: 0, discarded: 0 };
  // A job that would replace a file already in --out waits until every scenario file has passed:
  // a run spoiled by a later file must not have destroyed what an earlier run left.
  const waiting: BatchJob[] = [];
  let queued = 0;
  const accept = (jobs: readonly BatchJob[]): void => {
    for (const job of options.resume ? resumeJobs(jobs, playOptions, results, resumed) : jobs) {
      if (!options.resume && existsSync(join(options.out, job.trajectory))) waiting.push(job);
      else queue.add(job);
      queued++;
    }
  };
  const settings = {
    trials,
    seed: options.seed,
    augment: options.augment === true,
    feedback: options.feedback,
    prompts: options.prompts,
    shard: options.shard,
  };
  const planning: Promise<PlanOutcome | { readonly ok: false; readonly error: unknown }> = planAsChecked(
    files,
    settings,
    io,
    accept,
    fatal.signal,
  ).then(
    (outcome) => {
      if (outcome.ok) for (const job of waiting) queue.add(job);
      queue.close();
      if (!outcome.ok) {
        spoiled.abort();
        return outcome;
      }
      if (options.resume) io.err(problemLine(resumeLine(outcome.jobs.length, resumed, queued)));
      report.open(outcome.jobs, results.size, queued);
      return outcome;
    },
    (error: unknown) => {
      queue.close();
      spoiled.abort();
      return { ok: false, error };
    },
  );

  const releaseStop = abortOnStopSignal(interrupt);
  /** The trajectories this run started writing. */
  const written: string[] = [];
  let started = 0;
  try {
    started = await runPool(
      queue,
      {
        concurrency,
        signal: playOptions.signal,
        ...(services.adaptive
          ? {
              admit: (running: number) => services.admits(running),
              onAdmissionChange: (listener: () => void) => services.onAdmissionChange(listener),
            }
          : {}),
      },
      async (job) => {
        report.started();
        written.push(job.trajectory);
        const outcome = await playJob(job, playOptions);
        results.set(job.index, outcome.result);
        report.finished(job, outcome);
      },
      () => fatal.abort(),
    );
  } finally {
    await planning;
    report.stop();
    releaseStop();
  }

  const plan = await planning;
  if (!plan.ok) {
    removeWritten(options.out, written, createdDir);
    if ("error" in plan) throw plan.error;
    if (plan.problem !== null) io.err(problemLine(plan.problem));
    return EXIT.failed;
  }
  const ordered = plan.jobs.flatMap((j) => results.get(j.index) ?? []);
  const notStarted = queued - started;
  const summary = withShard(
    batchSummary(options, trials, ordered, interrupt.signal.aborted ? notStarted : null),
    options.shard,
    plan.jobs.flatMap((j) => (results.has(j.index) ? [j.index] : [])),
  );
  const summaryPath = join(options.out, SUMMARY_FILE);
  writeFileAtomically(summaryPath, serializeSummary(summary));
  printTotals(summary, trials, summaryPath, io);
  const cached = summary.totals.telemetry?.cached_calls ?? 0;
  if (options.cache !== undefined) {
    io.out(
      `cache ${options.cache}: ${plural(cached, "model call")} answered from it (${summary.totals.telemetry?.saved_tokens ?? 0} tokens not paid again), ${plural(services.cache?.stores ?? 0, "new answer")} kept`,
    );
  }
  if (interrupt.signal.aborted) {
    const cancelled = ordered.filter((r) => r.end_reason === "cancelled").length;
    io.err(
      problemLine(
        `interrupted: ${ordered.length - cancelled} of ${plural(plan.jobs.length, "episode")} finished, ${cancelled} cancelled, ${notStarted} not started`,
      ),
    );
    return EXIT.interrupted;
  }
  return summary.totals.failed > 0 ? EXIT.failed : EXIT.ok;
}

/**
 * Undoes a run that a scenario file spoiled after its first episodes started: their trajectories
 * go, and so do the output directories the run made, when nothing else is in them.
 */
function removeWritten(outDir: string, written: readonly string[], createdDir: string | undefined): void {
  try {
    for (const name of written) rmSync(join(outDir, name), { force: true });
    if (createdDir === undefined) return;
    const top = resolve(createdDir);
    for (let dir = resolve(outDir); ; dir = dirname(dir)) {
      rmdirSync(dir);
      if (dir === top || dirname(dir) === dir) return;
    }
  } catch {
    // Best effort: the run has already failed for a reason of its own, which is what gets reported.
  }
}

/**
 * --resume: the jobs whose trajectory is complete go straight into `results`; what unfinished
 * jobs left behind is deleted. Returns the jobs still to play. Refuses (exit 2) when a trajectory
 * under a job's name was made by another run, rather than overwrite it.
 */
function resumeJobs(
  jobs: readonly BatchJob[],
  playOptions: PlayOptions,
  results: Map<number, ScenarioResult>,
  tally: { complete: number; discarded: number },
): BatchJob[] {
  const pending: BatchJob[] = [];
  const discard: BatchJob[] = [];
  for (const job of jobs) {
    const saved = inspectSavedJob(
      job,
      playOptions.outDir,
      jobHeader(job, playOptions),
      playOptions.judge !== undefined,
      playOptions.reviewer !== undefined,
    );
    switch (saved.kind) {
      case "complete":
        results.set(job.index, saved.result);
        tally.complete++;
        break;
      case "foreign":
        throw new ExitError(
          `${join(playOptions.outDir, job.trajectory)}: cannot resume: ${saved.reason} (resume with the options of the first run, or use another --out)`,
          EXIT.usage,
        );
      case "incomplete":
        discard.push(job);
        pending.push(job);
        break;
      case "missing":
      case "link":
        pending.push(job);
        break;
    }
  }
  for (const job of discard) discardSavedJob(job, playOptions.outDir);
  tally.discarded += discard.length;
  return pending;
}

function resumeLine(total: number, tally: { readonly complete: number; readonly discarded: number }, toPlay: number): string {
  const again = tally.discarded === 0 ? "" : ` (${tally.discarded} of them unfinished: deleted and played again from the start)`;
  return `resuming: ${tally.complete} of ${plural(total, "episode")} already complete, ${toPlay} to play${again}`;
}

function batchSummary(options: RunOptions, trials: number, results: readonly ScenarioResult[], notStarted: number | null): BatchSummary {
  const policy = { errorsAsFailures: options.errorsAsFailures === true };
  const base = buildRunSummary({ agent: options.agent, user: options.user, seed: options.seed }, results, policy);
  const perTrial = trials > 1 ? trialsSummary(results, trials, policy) : null;
  return {
    ...base,
    ...(perTrial ? { trials: perTrial } : {}),
    ...(notStarted === null ? {} : { interrupted: { episodes_not_started: notStarted } }),
  };
}

/**
 * A shard's summary says which part it is and where each of its episodes stands in the whole run's
 * plan, so `report --merge` can put the parts back in the order one unsharded run lists them.
 */
function withShard(summary: BatchSummary, shard: Shard | undefined, planIndexes: readonly number[]): BatchSummary {
  if (!shard) return summary;
  return {
    ...summary,
    shard: { index: shard.index, count: shard.count },
    scenarios: summary.scenarios.map((s, i) => ({ ...s, plan_index: planIndexes[i] ?? i })),
  };
}

function printTotals(summary: BatchSummary, trials: number, summaryPath: string, io: CliIO): void {
  const t = summary.totals;
  if (summary.categories.length > 0) {
    io.out("");
    for (const line of categoryTableLines(summary.categories)) io.out(line);
    io.out("");
  }
  if (summary.apps.length > 0) {
    for (const line of appTableLines(summary.apps)) io.out(line);
    io.out("");
  }
  if (summary.score !== null && summary.success !== null) {
    const left = summary.errors_as_failures ? "errored scored 0" : `${t.errored} errored left out`;
    io.out(
      `score ${formatScore(summary.score.mean)} ${formatInterval(summary.score.interval)} over ${plural(summary.score.scenarios, "scenario")} (95% bootstrap); success ${summary.success.successes}/${summary.success.trials} ${formatInterval(summary.success.interval)} (Wilson 95%); ${left}`,
    );
  } else if (t.errored > 0) io.out(`no score: ${t.errored} errored, none counted`);
  if (summary.trials) io.out(passHatKLine(summary.trials));
  const count =
    trials > 1
      ? `${plural(new Set(summary.scenarios.map((s) => s.name)).size, "scenario")} × ${plural(trials, "trial")}: ${plural(t.scenarios, "episode")}`
      : plural(t.scenarios, "scenario");
  io.out(`${count}, ${t.failed} failed, ${plural(t.messages, "message")}, ${plural(t.turns, "turn")}; summary in ${summaryPath}`);
}
