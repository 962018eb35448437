// `toolsandbox eval --mode dialogtool`: DialogTool's per-turn scores for the files `run --mode
// dialogtool` writes (their turns scored again) and for ordinary trajectories (a free run: the
// agent's turns put next to the reference's within each dialogue turn, see
// engine/benchmarks/dialogtool/tasks/trajectory-turns.ts). Everything is read and scored before anything
// is printed, so a bad file never leaves half a JSON document.
import { metricsByApp, metricsByDepth, metricsOfTurns } from "../engine/benchmarks/dialogtool/tasks/metrics.js";
import { DIALOGTOOL_RUN_SUFFIX, readDialogToolRun } from "../engine/benchmarks/dialogtool/tasks/result-file.js";
import { scoredFreeRun } from "../engine/benchmarks/dialogtool/tasks/trajectory-turns.js";
import { scoreTurn } from "../engine/benchmarks/dialogtool/tasks/turn-scores.js";
import type { DialogToolMetrics, DialogToolTurn, ScoredDialogToolTurn } from "../engine/benchmarks/dialogtool/tasks/types.js";
import type { Scenario } from "../engine/scenario/model.js";
import { formatWarning } from "../engine/trajectory/errors.js";
import { dialogToolAggregateLines, dialogToolTableLines } from "./dialogtool-lines.js";
import { DIALOGTOOL_SUMMARY_FILE } from "../engine/runner/dialogtool-mode.js";
import { EXIT, type ExitCode } from "../engine/runner/errors.js";
import { problemLine, type CliIO } from "./io.js";
import { loadTrajectory } from "./replay.js";
import { byAgent, loadOverrideScenario, modeResultFiles, readModeRunFile } from "./result-files.js";

interface DialogToolEvalOptions {
  /** Scores trajectories against this scenario file instead of the one each embeds. */
  readonly scenario?: string;
  readonly json?: boolean;
}

/** One element of `eval --mode dialogtool --json`'s `scenarios`. */
interface DialogToolEvalEntry {
  readonly file: string;
  readonly scenario: string;
  /** Who played the agent (the run file's `agent`, the trajectory header's `run.agent`). */
  readonly agent: string;
  /** "dialogtool-run": teacher-forced (`run --mode dialogtool`); "trajectory": a free run. */
  readonly source: "dialogtool-run" | "trajectory";
  readonly metrics: DialogToolMetrics;
  /** A free run's agent turns beyond the reference's (not scored). */
  readonly extra_turns: number;
  readonly turns: readonly ScoredDialogToolTurn[];
}

function entry(
  file: string,
  scenario: string,
  agent: string,
  source: DialogToolEvalEntry["source"],
  turns: readonly DialogToolTurn[],
  extra: number,
): DialogToolEvalEntry {
  const scored = turns.map((t) => ({ ...t, scores: scoreTurn(t) }));
  return { file, scenario, agent, source, metrics: metricsOfTurns(scored), extra_turns: extra, turns: scored };
}

function scoreRunFile(file: string): DialogToolEvalEntry {
  const run = readModeRunFile(file, readDialogToolRun);
  return entry(file, run.scenario, run.agent, "dialogtool-run", run.turns, 0);
}

function scoreTrajectory(file: string, override: Scenario | null, io: CliIO): DialogToolEvalEntry | null {
  const trajectory = loadTrajectory(file);
  for (const w of trajectory.warnings) io.err(problemLine(formatWarning(file, w)));
  const scenario = override ?? trajectory.header.scenario;
  if (scenario.reference.length === 0) {
    io.err(problemLine(`${file}: ${scenario.name} has no reference solution, so there is nothing to compare the agent's turns with`));
    return null;
  }
  const free = scoredFreeRun(trajectory.messages, scenario);
  return {
    file,
    scenario: scenario.name,
    agent: trajectory.header.run.agent,
    source: "trajectory",
    metrics: free.metrics,
    extra_turns: free.extra_turns,
    turns: free.turns,
  };
}

export function evalDialogToolMode(paths: readonly string[], options: DialogToolEvalOptions, io: CliIO): ExitCode {
  const override = options.scenario === undefined ? null : loadOverrideScenario(options.scenario, io);
  const files = modeResultFiles(
    paths,
    { mode: "dialogtool", runSuffix: DIALOGTOOL_RUN_SUFFIX, summaryFile: DIALOGTOOL_SUMMARY_FILE, items: "scenarios" },
    io,
  );
  const entries: DialogToolEvalEntry[] = [];
  let skipped = 0;
  for (const file of files) {
    const scored = file.endsWith(DIALOGTOOL_RUN_SUFFIX) ? scoreRunFile(file) : scoreTrajectory(file, override, io);
    if (scored === null) skipped++;
    else entries.push(scored);
  }
  // Added up per agent: turns of different agents are never pooled (docs/statistics.md).
  const groups = byAgent(entries).map(([agent, group]) => {
    const turns = group.flatMap((e) => e.turns);
    return {
      agent,
      scenarios: group.length,
      aggregate: metricsOfTurns(turns),
      by_depth: metricsByDepth(turns),
      by_app: metricsByApp(turns),
    };
  });
  const single =
    groups.length <= 1 ? (groups[0] ?? { aggregate: metricsOfTurns([]), by_depth: metricsByDepth([]), by_app: metricsByApp([]) }) : null;
  if (options.json) {
    io.out(
      JSON.stringify(
        {
          mode: "dialogtool",
          scenarios: entries,
          // Over every scenario when one agent played them all; null when several did (see by_agent).
          aggregate: single?.aggregate ?? null,
          by_depth: single?.by_depth ?? null,
          by_app: single?.by_app ?? null,
          by_agent: groups,
        },
        null,
        2,
      ),
    );
  } else {
    for (const line of dialogToolTableLines(entries.map((e) => ({ name: e.scenario, metrics: e.metrics })))) io.out(line);
    io.out("");
    if (single !== null)
      for (const line of dialogToolAggregateLines(single.aggregate, entries.length, single.by_depth, single.by_app)) io.out(line);
    else {
      io.out(`${groups.length} agents: each is added up on its own, never together`);
      for (const g of groups) {
        io.out(`agent ${g.agent}:`);
        for (const line of dialogToolAggregateLines(g.aggregate, g.scenarios, g.by_depth, g.by_app)) io.out(`  ${line}`);
      }
    }
    const extra = entries.reduce((n, e) => n + e.extra_turns, 0);
    if (extra > 0) io.out(`${extra} agent turn${extra === 1 ? "" : "s"} beyond the reference's were not scored`);
  }
  return skipped > 0 ? EXIT.failed : EXIT.ok;
}
