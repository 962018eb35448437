// `toolsandbox run --mode dialogtool`: DialogTool's per-turn tasks, teacher-forced, on scenarios of
// any pack (engine/evaluation/dialogtool/teacher-forced.ts). The agent under test is asked at
// every agent turn of the reference's conversation; `--agent scripted` is the reference itself
// (the oracle, 1.0 everywhere). One `<name>.dialogtool.json` per scenario,
// `dialogtool-summary.json` with the aggregate, and the table on stdout.
import { join } from "node:path";
import { formatDiagnostic } from "../diagnostics.js";
import { metricsByApp, metricsByDepth, metricsOfTurns } from "../evaluation/dialogtool/metrics.js";
import { DIALOGTOOL_RUN_FORMAT, DIALOGTOOL_RUN_SUFFIX, serializeDialogToolRun } from "../evaluation/dialogtool/result-file.js";
import { teacherForcedTurns } from "../evaluation/dialogtool/teacher-forced.js";
import { scoreTurn } from "../evaluation/dialogtool/turn-scores.js";
import type { ScoredDialogToolTurn } from "../evaluation/dialogtool/types.js";
import { makeDirectories } from "../output-files.js";
import { createScriptedAgent } from "../roles/scripted.js";
import type { AgentRole } from "../roles/role.js";
import type { Scenario } from "../scenario/model.js";
import { writeFileAtomically } from "./batch-summary.js";
import { runPool } from "./batch-pool.js";
import { dialogToolAggregateLines, dialogToolTableLines, type DialogToolRow } from "./dialogtool-lines.js";
import { CliError, EXIT, fsError, type ExitCode } from "./errors.js";
import { errorMessage, plural } from "./format.js";
import { problemLine, type CliIO } from "./io.js";
import { createRoles, type RoleSpec } from "./roles.js";
import type { RunModeOptions } from "./tooltalk-run.js";
import { collectScenarioFiles, hasErrors, loadScenario } from "./scenario-files.js";

export const DIALOGTOOL_SUMMARY_FILE = "dialogtool-summary.json";

const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

export interface DialogToolRunOptions {
  readonly out: string;
  readonly agent: string;
  readonly agentSpec?: RoleSpec;
  readonly seed: number;
  readonly concurrency?: number;
  readonly prompts?: string;
}

/** A fresh predictor per scenario: the scripted agent replays the reference; a model-backed one shares its client. */
function predictorFor(options: DialogToolRunOptions, scenario: Scenario): AgentRole {
  const spec = options.agentSpec ?? options.agent;
  if (spec === "scripted" || (typeof spec !== "string" && spec.kind === "scripted")) return createScriptedAgent(scenario);
  return createRoles(spec, "scripted", scenario).agent;
}

function loadScenarios(paths: readonly string[], prompts: string | undefined, io: CliIO): { file: string; scenario: Scenario }[] | null {
  const loaded = collectScenarioFiles(paths).map((file) => loadScenario(file, prompts === undefined ? {} : { prompts }));
  for (const l of loaded) for (const d of l.diagnostics) io.err(formatDiagnostic(d));
  const broken = loaded.filter((l) => hasErrors(l.diagnostics) || !l.scenario);
  if (broken.length > 0) {
    io.err(problemLine(`${broken.length} of ${plural(loaded.length, "scenario file")} ${broken.length === 1 ? "has" : "have"} errors; nothing was run`));
    return null;
  }
  return loaded.flatMap((l) => (l.scenario ? [{ file: l.file, scenario: l.scenario }] : []));
}

export async function runDialogToolMode(paths: readonly string[], options: DialogToolRunOptions, io: CliIO): Promise<ExitCode> {
  const runnable = loadScenarios(paths, options.prompts, io);
  if (runnable === null) return EXIT.failed;
  try {
    makeDirectories(options.out);
  } catch (e) {
    throw fsError(e, options.out);
  }
  const interrupt = new AbortController();
  const onStop = (): void => {
    for (const s of STOP_SIGNALS) process.removeListener(s, onStop);
    interrupt.abort();
  };
  for (const s of STOP_SIGNALS) process.on(s, onStop);
  const results = new Map<number, { row: DialogToolRow; turns: ScoredDialogToolTurn[] }>();
  let failed = 0;
  try {
    await runPool(runnable.map((r, index) => ({ ...r, index })), { concurrency: options.concurrency ?? 1, signal: interrupt.signal }, async ({ file, scenario, index }) => {
      try {
        const turns = (await teacherForcedTurns(scenario, predictorFor(options, scenario), { seed: options.seed, signal: interrupt.signal })).map((t) => ({ ...t, scores: scoreTurn(t) }));
        const metrics = metricsOfTurns(turns);
        writeFileAtomically(
          join(options.out, `${scenario.name}${DIALOGTOOL_RUN_SUFFIX}`),
          serializeDialogToolRun({
            format: DIALOGTOOL_RUN_FORMAT,
            version: 1,
            scenario: scenario.name,
            scenario_file: file,
            agent: options.agent,
            seed: options.seed,
            metrics,
            by_depth: metricsByDepth(turns),
            by_app: metricsByApp(turns),
            turns,
          }),
        );
        results.set(index, { row: { name: scenario.name, metrics }, turns });
      } catch (e) {
        if (interrupt.signal.aborted) return;
        if (e instanceof CliError) throw e;
        failed++;
        io.err(problemLine(`${file}: ${scenario.name}: ${errorMessage(e)}`));
      }
    });
  } finally {
    for (const s of STOP_SIGNALS) process.removeListener(s, onStop);
  }
  const done = runnable.flatMap((_, i) => results.get(i) ?? []);
  const all = done.flatMap((d) => d.turns);
  const aggregate = metricsOfTurns(all);
  const byDepth = metricsByDepth(all);
  const byApp = metricsByApp(all);
  const summary = { agent: options.agent, seed: options.seed, scenarios: done.map((d) => ({ scenario: d.row.name, metrics: d.row.metrics })), aggregate, by_depth: byDepth, by_app: byApp };
  writeFileAtomically(join(options.out, DIALOGTOOL_SUMMARY_FILE), `${JSON.stringify(summary, null, 2)}\n`);
  for (const line of dialogToolTableLines(done.map((d) => d.row))) io.out(line);
  io.out("");
  for (const line of dialogToolAggregateLines(aggregate, done.length, byDepth, byApp)) io.out(line);
  io.out(`${plural(done.length, "scenario")} run, ${failed} failed; results in ${options.out}`);
  if (interrupt.signal.aborted) {
    io.err(problemLine(`interrupted: ${done.length} of ${plural(runnable.length, "scenario")} finished`));
    return EXIT.interrupted;
  }
  return failed > 0 ? EXIT.failed : EXIT.ok;
}

/** The `run` options DialogTool's mode takes (ToolTalk's, and the seed and prompt set); the rest are refused. */
export interface DialogToolModeInput extends RunModeOptions {
  readonly seed: number;
  readonly prompts?: string;
}

export function dialogToolRunOptions(options: DialogToolModeInput): DialogToolRunOptions {
  const refuse = (flag: string, why: string): never => {
    throw new CliError(`${flag} does not apply to --mode dialogtool: ${why}`, EXIT.usage);
  };
  if (options.user !== "scripted") refuse("--user", "the conversation follows the reference; the user's lines are the reference's");
  if ((options.trials ?? 1) > 1) refuse("--trials", "each scenario is asked once per agent turn");
  if (options.resume) refuse("--resume", "run the scenarios again");
  if (options.augment) refuse("--augment", "run the augmented variants in milestone mode");
  if (options.feedback !== undefined) refuse("--feedback", "the agent's calls are never run, so no call is answered");
  if (options.maxCallsPerTurn !== undefined) refuse("--max-calls-per-turn", "it applies to --mode tooltalk");
  return {
    out: options.out,
    agent: options.agent,
    seed: options.seed,
    ...(options.roles ? { agentSpec: options.roles.agent } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.prompts !== undefined ? { prompts: options.prompts } : {}),
  };
}
