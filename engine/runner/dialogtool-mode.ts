// `run --mode dialogtool` for any front end: DialogTool's per-turn tasks, teacher-forced, on
// scenarios of any pack (benchmarks/dialogtool/tasks/teacher-forced.ts). The agent under test is
// asked at every agent turn of the reference's conversation; the scripted agent is the reference
// itself (the oracle, 1.0 everywhere). One `<name>.dialogtool.json` per scenario and
// `dialogtool-summary.json` with the aggregate.
import { join } from "node:path";
import { makeDirectories, writeFileAtomically } from "../base/output-files.js";
import { modelChooser, scriptedChooser, type Chooser } from "../benchmarks/dialogtool/tasks/choices.js";
import { metricsByApp, metricsByDepth, metricsOfTurns } from "../benchmarks/dialogtool/tasks/metrics.js";
import { DIALOGTOOL_RUN_FORMAT, DIALOGTOOL_RUN_SUFFIX, serializeDialogToolRun } from "../benchmarks/dialogtool/tasks/result-file.js";
import type { DialogToolMetrics, ScoredDialogToolTurn } from "../benchmarks/dialogtool/tasks/types.js";
import { teacherForcedTurns } from "../benchmarks/dialogtool/tasks/teacher-forced.js";
import { scoreTurn } from "../benchmarks/dialogtool/tasks/turn-scores.js";
import type { AgentRole } from "../episode/role.js";
import { createScriptedAgent } from "../roles/scripted.js";
import type { Scenario } from "../scenario/model.js";
import { fsError, RoleSpecError } from "./errors.js";
import { createRoles, modelOfSpec, roleSpec, type RoleSpec } from "./role-specs.js";
import { eachScenario, type ScenarioJob } from "./scenario-batch.js";

export const DIALOGTOOL_SUMMARY_FILE = "dialogtool-summary.json";

interface DialogToolModeOptions {
  readonly out: string;
  /** The agent's id, as the result files name it. */
  readonly agent: string;
  /** The agent resolved from the model options (absent: `agent` alone). */
  readonly agentSpec?: RoleSpec;
  readonly seed: number;
  readonly concurrency?: number;
  /** binary awareness (default), or a choice of DialogTool's actions first. */
  readonly awareness?: "binary" | "actions";
  /** flat selection only (default), or the hierarchical setting (app first) beside it. */
  readonly selection?: "flat" | "hierarchical";
  /** Stops the scenarios in flight; what finished is written and summed up. */
  readonly signal: AbortSignal;
  /** A scenario that failed, the others going on. */
  readonly onFailed: (job: ScenarioJob, message: string) => void;
}

export interface DialogToolRow {
  readonly name: string;
  readonly metrics: DialogToolMetrics;
}

interface DialogToolModeResult {
  /** The finished scenarios, in order. */
  readonly rows: readonly DialogToolRow[];
  readonly aggregate: DialogToolMetrics;
  readonly byDepth: ReturnType<typeof metricsByDepth>;
  readonly byApp: ReturnType<typeof metricsByApp>;
  readonly failed: number;
}

function agentSpecOf(options: DialogToolModeOptions): RoleSpec {
  return options.agentSpec ?? roleSpec("agent", options.agent, {}, process.env);
}

/**
 * Teacher forcing hands the agent a conversation it did not have, turn by turn; an outside agent
 * (cmd:, a2a:) keeps its own conversation and cannot be given one, so it is refused before any
 * scenario starts, in every setting (the CLI refuses it first; the extension calls this directly).
 */
function outsideAgentRefused(): RoleSpecError {
  return new RoleSpecError("--mode dialogtool plays teacher-forced turns, which an outside agent (cmd:, a2a:) cannot");
}

/** Who answers DialogTool's questions (the action, the app): the reference for the scripted agent, else the agent's model. */
function chooserFor(options: DialogToolModeOptions, scenario: Scenario): Chooser {
  const spec = agentSpecOf(options);
  if (spec.kind === "scripted") return scriptedChooser(scenario);
  if (spec.kind === "mcp") throw outsideAgentRefused();
  return modelChooser(modelOfSpec(spec, "agent"), `agent ${options.agent}`);
}

/** A fresh predictor per scenario: the scripted agent replays the reference; a model-backed one shares its client. */
function predictorFor(options: DialogToolModeOptions, scenario: Scenario): AgentRole {
  const spec = options.agentSpec ?? options.agent;
  if (spec === "scripted" || (typeof spec !== "string" && spec.kind === "scripted")) return createScriptedAgent(scenario);
  return createRoles(spec, "scripted", scenario).agent;
}

/** Asks every job's agent turns, writing each scenario's result file, then the summary. */
export async function runDialogToolMode(jobs: readonly ScenarioJob[], options: DialogToolModeOptions): Promise<DialogToolModeResult> {
  try {
    makeDirectories(options.out);
  } catch (e) {
    throw fsError(e, options.out);
  }
  if (agentSpecOf(options).kind === "mcp") throw outsideAgentRefused();
  const awareness = options.awareness ?? "binary";
  const selection = options.selection ?? "flat";
  const { done, failed } = await eachScenario(
    jobs,
    { concurrency: options.concurrency ?? 1, signal: options.signal, onFailed: options.onFailed },
    async ({ file, scenario }) => {
      const asking = awareness === "actions" || selection === "hierarchical";
      const turns: ScoredDialogToolTurn[] = (
        await teacherForcedTurns(scenario, predictorFor(options, scenario), {
          seed: options.seed,
          signal: options.signal,
          awareness,
          selection,
          ...(asking ? { chooser: chooserFor(options, scenario) } : {}),
          ...(selection === "hierarchical" ? { hierarchicalPredictor: predictorFor(options, scenario) } : {}),
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
          awareness,
          selection,
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
    awareness,
    selection,
    scenarios: done.map((d) => ({ scenario: d.row.name, metrics: d.row.metrics })),
    aggregate,
    by_depth: byDepth,
    by_app: byApp,
  };
  writeFileAtomically(join(options.out, DIALOGTOOL_SUMMARY_FILE), `${JSON.stringify(summary, null, 2)}\n`);
  return { rows: done.map((d) => d.row), aggregate, byDepth, byApp, failed };
}
