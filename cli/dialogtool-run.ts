// `toolsandbox run --mode dialogtool`: DialogTool's per-turn tasks, teacher-forced, on scenarios of
// any pack (engine/benchmarks/dialogtool/tasks/teacher-forced.ts). The agent under test is asked at
// every agent turn of the reference's conversation; `--agent scripted` is the reference itself
// (the oracle, 1.0 everywhere). One `<name>.dialogtool.json` per scenario,
// `dialogtool-summary.json` with the aggregate, and the table on stdout.
import { join } from "node:path";
import { metricsByApp, metricsByDepth, metricsOfTurns } from "../engine/benchmarks/dialogtool/tasks/metrics.js";
import { DIALOGTOOL_RUN_FORMAT, DIALOGTOOL_RUN_SUFFIX, serializeDialogToolRun } from "../engine/benchmarks/dialogtool/tasks/result-file.js";
import { teacherForcedTurns } from "../engine/benchmarks/dialogtool/tasks/teacher-forced.js";
import { scoreTurn } from "../engine/benchmarks/dialogtool/tasks/turn-scores.js";
import { makeDirectories, writeFileAtomically } from "../engine/base/output-files.js";
import { createScriptedAgent } from "../engine/roles/scripted.js";
import type { AgentRole } from "../engine/episode/role.js";
import type { Scenario } from "../engine/scenario/model.js";
import { dialogToolAggregateLines, dialogToolTableLines } from "./dialogtool-lines.js";
import { ExitError, EXIT, fsError, type ExitCode } from "../engine/runner/errors.js";
import { plural } from "../engine/base/text.js";
import { problemLine, type CliIO } from "./io.js";
import { eachScenario, loadScenarioJobs } from "./scenario-jobs.js";
import { createRoles, modelOfSpec, roleSpec, type RoleSpec } from "../engine/runner/role-specs.js";
import { modelChooser, scriptedChooser, type Chooser } from "../engine/benchmarks/dialogtool/tasks/choices.js";
import type { RunModeOptions } from "./tooltalk-run.js";

export const DIALOGTOOL_SUMMARY_FILE = "dialogtool-summary.json";

export interface DialogToolRunOptions {
  readonly out: string;
  readonly agent: string;
  readonly agentSpec?: RoleSpec;
  readonly seed: number;
  readonly concurrency?: number;
  readonly prompts?: string;
  readonly awareness?: "binary" | "actions";
  readonly selection?: "flat" | "hierarchical";
}

/** Who answers DialogTool's questions (the action, the app): the reference for the scripted agent, else the agent's model. */
function chooserFor(options: DialogToolRunOptions, scenario: Scenario): Chooser {
  const spec = options.agentSpec ?? roleSpec("agent", options.agent, {}, process.env);
  if (spec.kind === "scripted") return scriptedChooser(scenario);
  // run refuses outside agents in this mode before it gets here (cli/run.ts).
  if (spec.kind === "mcp")
    throw new ExitError("--mode dialogtool plays teacher-forced turns, which an outside agent (cmd:, a2a:) cannot", EXIT.usage);
  return modelChooser(modelOfSpec(spec, "agent"), `agent ${options.agent}`);
}

/** A fresh predictor per scenario: the scripted agent replays the reference; a model-backed one shares its client. */
function predictorFor(options: DialogToolRunOptions, scenario: Scenario): AgentRole {
  const spec = options.agentSpec ?? options.agent;
  if (spec === "scripted" || (typeof spec !== "string" && spec.kind === "scripted")) return createScriptedAgent(scenario);
  return createRoles(spec, "scripted", scenario).agent;
}

export async function runDialogToolMode(paths: readonly string[], options: DialogToolRunOptions, io: CliIO): Promise<ExitCode> {
  const runnable = loadScenarioJobs(paths, io, options.prompts === undefined ? {} : { prompts: options.prompts });
  if (runnable === null) return EXIT.failed;
  try {
    makeDirectories(options.out);
  } catch (e) {
    throw fsError(e, options.out);
  }
  const interrupt = new AbortController();
  const { done, failed } = await eachScenario(
    runnable,
    { concurrency: options.concurrency ?? 1, interrupt },
    io,
    async ({ file, scenario }) => {
      const asking = options.awareness === "actions" || options.selection === "hierarchical";
      const turns = (
        await teacherForcedTurns(scenario, predictorFor(options, scenario), {
          seed: options.seed,
          signal: interrupt.signal,
          awareness: options.awareness ?? "binary",
          selection: options.selection ?? "flat",
          ...(asking ? { chooser: chooserFor(options, scenario) } : {}),
          ...(options.selection === "hierarchical" ? { hierarchicalPredictor: predictorFor(options, scenario) } : {}),
        })
      ).map((t) => ({ ...t, scores: scoreTurn(t) }));
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
          awareness: options.awareness ?? "binary",
          selection: options.selection ?? "flat",
          metrics,
          by_depth: metricsByDepth(turns),
          by_app: metricsByApp(turns),
          turns,
        }),
      );
      return { row: { name: scenario.name, metrics }, turns };
    },
  );
  const all = done.flatMap((d) => d.turns);
  const aggregate = metricsOfTurns(all);
  const byDepth = metricsByDepth(all);
  const byApp = metricsByApp(all);
  const summary = {
    agent: options.agent,
    seed: options.seed,
    awareness: options.awareness ?? "binary",
    selection: options.selection ?? "flat",
    scenarios: done.map((d) => ({ scenario: d.row.name, metrics: d.row.metrics })),
    aggregate,
    by_depth: byDepth,
    by_app: byApp,
  };
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
  readonly awareness?: "binary" | "actions";
  readonly selection?: "flat" | "hierarchical";
}

export function dialogToolRunOptions(options: DialogToolModeInput): DialogToolRunOptions {
  const refuse = (flag: string, why: string): never => {
    throw new ExitError(`${flag} does not apply to --mode dialogtool: ${why}`, EXIT.usage);
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
    ...(options.awareness !== undefined ? { awareness: options.awareness } : {}),
    ...(options.selection !== undefined ? { selection: options.selection } : {}),
  };
}
