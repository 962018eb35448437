// `toolsandbox eval --mode tooltalk`: ToolTalk's metrics per conversation and over all of them,
// for the files `run --mode tooltalk` writes (their turns are scored again) and for ordinary
// trajectories of ToolTalk scenarios (the agent's calls against the reference's; see
// engine/benchmarks/tooltalk/mode/trajectory-turns.ts). Everything is read and scored before anything is
// printed, so a bad file never leaves half a JSON document.
import { toolTalkApi } from "../engine/packs/tooltalk/tools/apis.js";
import type { Scenario } from "../engine/scenario/model.js";
import { conversationErrorTypes, type ToolTalkErrorTypes } from "../engine/benchmarks/tooltalk/evaluation/error-types.js";
import {
  aggregateConversations,
  scoreConversation,
  type ToolTalkAggregate,
  type ToolTalkMetrics,
} from "../engine/benchmarks/tooltalk/evaluation/metrics.js";
import { ROUGE_L_SIMILARITY } from "../engine/benchmarks/tooltalk/evaluation/similarity.js";
import type { ToolTalkTurnRun } from "../engine/benchmarks/tooltalk/evaluation/types.js";
import { readRunFile, TOOLTALK_RUN_SUFFIX } from "../engine/benchmarks/tooltalk/mode/result-file.js";
import { scenarioConversation } from "../engine/benchmarks/tooltalk/mode/scenario-conversation.js";
import { trajectoryTurnRuns } from "../engine/benchmarks/tooltalk/mode/trajectory-turns.js";
import { formatWarning } from "../engine/trajectory/errors.js";
import { EXIT, type ExitCode } from "../engine/runner/errors.js";
import { problemLine, type CliIO } from "./io.js";
import { loadTrajectory } from "./replay.js";
import { byAgent, loadOverrideScenario, modeResultFiles, readModeRunFile } from "./result-files.js";
import { toolTalkAggregateLines, toolTalkTableLines } from "./tooltalk-lines.js";
import { TOOLTALK_SUMMARY_FILE } from "../engine/runner/tooltalk-mode.js";

interface ToolTalkEvalOptions {
  /** Scores trajectories against this scenario file instead of the one each embeds. */
  readonly scenario?: string;
  readonly json?: boolean;
}

/** One element of `eval --mode tooltalk --json`'s `conversations`. */
interface ToolTalkEvalEntry {
  readonly file: string;
  readonly scenario: string;
  /** Who played the agent (the run file's `agent`, the trajectory header's `run.agent`). */
  readonly agent: string;
  /** "tooltalk-run": a `run --mode tooltalk` file (teacher-forced); "trajectory": a free run. */
  readonly source: "tooltalk-run" | "trajectory";
  readonly metrics: ToolTalkMetrics;
  readonly error_types: ToolTalkErrorTypes;
}

/** What `eval --mode tooltalk --json` prints. */
interface ToolTalkEvalOutput {
  readonly mode: "tooltalk";
  /** The free-text scorer standing in for ToolTalk's DistilBERT, with its two thresholds. */
  readonly similarity: { readonly name: string; readonly strict_threshold: number; readonly loose_threshold: number };
  readonly conversations: readonly ToolTalkEvalEntry[];
  /** Over every conversation when one agent played them all; null when several did (see `by_agent`). */
  readonly aggregate: ToolTalkAggregate | null;
  /** The aggregate per agent: conversations of different agents are never added up together. */
  readonly by_agent: readonly { readonly agent: string; readonly aggregate: ToolTalkAggregate }[];
}

const isAction = (name: string): boolean => toolTalkApi(name)?.definition.action ?? false;

function entry(
  file: string,
  scenario: string,
  agent: string,
  source: ToolTalkEvalEntry["source"],
  turns: readonly ToolTalkTurnRun[],
): ToolTalkEvalEntry {
  const score = scoreConversation(turns, isAction);
  return { file, scenario, agent, source, metrics: score.metrics, error_types: conversationErrorTypes(score) };
}

function scoreRunFile(file: string): ToolTalkEvalEntry {
  const run = readModeRunFile(file, readRunFile);
  return entry(file, run.scenario, run.agent, "tooltalk-run", run.turns);
}

function scoreTrajectory(file: string, override: Scenario | null, io: CliIO): ToolTalkEvalEntry | null {
  const trajectory = loadTrajectory(file);
  for (const w of trajectory.warnings) io.err(problemLine(formatWarning(file, w)));
  const scenario = override ?? trajectory.header.scenario;
  if (scenario.world.pack !== "tooltalk") {
    io.err(problemLine(`${file}: --mode tooltalk scores ToolTalk scenarios only; ${scenario.name} uses the ${scenario.world.pack} pack`));
    return null;
  }
  return entry(
    file,
    scenario.name,
    trajectory.header.run.agent,
    "trajectory",
    trajectoryTurnRuns(trajectory, scenarioConversation(scenario, file)),
  );
}

export function evalToolTalkMode(paths: readonly string[], options: ToolTalkEvalOptions, io: CliIO): ExitCode {
  const override = options.scenario === undefined ? null : loadOverrideScenario(options.scenario, io);
  const files = modeResultFiles(
    paths,
    { mode: "tooltalk", runSuffix: TOOLTALK_RUN_SUFFIX, summaryFile: TOOLTALK_SUMMARY_FILE, items: "conversations" },
    io,
  );
  const entries: ToolTalkEvalEntry[] = [];
  let skipped = 0;
  for (const file of files) {
    const scored = file.endsWith(TOOLTALK_RUN_SUFFIX) ? scoreRunFile(file) : scoreTrajectory(file, override, io);
    if (scored === null) skipped++;
    else entries.push(scored);
  }
  const groups = byAgent(entries).map(([agent, group]) => ({ agent, aggregate: aggregateConversations(group.map((e) => e.metrics)) }));
  const aggregate = groups.length === 1 ? groups[0]!.aggregate : groups.length === 0 ? aggregateConversations([]) : null;
  if (options.json) {
    const output: ToolTalkEvalOutput = {
      mode: "tooltalk",
      similarity: {
        name: ROUGE_L_SIMILARITY.name,
        strict_threshold: ROUGE_L_SIMILARITY.strictThreshold,
        loose_threshold: ROUGE_L_SIMILARITY.looseThreshold,
      },
      conversations: entries,
      aggregate,
      by_agent: groups,
    };
    io.out(JSON.stringify(output, null, 2));
  } else {
    for (const line of toolTalkTableLines(entries.map((e) => ({ name: e.scenario, metrics: e.metrics })))) io.out(line);
    io.out("");
    if (aggregate !== null) for (const line of toolTalkAggregateLines(aggregate)) io.out(line);
    else {
      io.out(`${groups.length} agents: each is added up on its own, never together`);
      for (const group of groups) {
        io.out(`agent ${group.agent}:`);
        for (const line of toolTalkAggregateLines(group.aggregate)) io.out(`  ${line}`);
      }
    }
  }
  return skipped > 0 ? EXIT.failed : EXIT.ok;
}
