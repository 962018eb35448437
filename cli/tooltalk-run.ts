// `toolsandbox run --mode tooltalk`: ToolTalk's own evaluation of ToolTalk-pack scenarios. Each
// scenario is simulated turn by turn with teacher forcing (engine/benchmarks/tooltalk/evaluation/simulation.ts: the
// world reset and the ground truth replayed before every assistant turn, the user never
// simulated), by the ground truth itself (`--agent scripted`, ToolTalk's oracle) or by a model
// (`--agent openai:MODEL`). One `<name>.tooltalk.json` per scenario, `tooltalk-summary.json` with
// the aggregate, and the metrics table on stdout.
import { join } from "node:path";
import { makeDirectories, writeFileAtomically } from "../engine/base/output-files.js";
import { packById } from "../engine/packs/registry.js";
import { ChatModel } from "../engine/roles/openai/chat-model.js";
import { agentSystemMessage } from "../engine/scenario/prompts/persona-prompt.js";
import type { Scenario } from "../engine/scenario/model.js";
import { groundTruthPredictor } from "../engine/benchmarks/tooltalk/evaluation/ground-truth-predictor.js";
import { aggregateConversations, type ToolTalkMetrics } from "../engine/benchmarks/tooltalk/evaluation/metrics.js";
import { ROUGE_L_SIMILARITY } from "../engine/benchmarks/tooltalk/evaluation/similarity.js";
import {
  DEFAULT_MAX_CALLS_PER_TURN,
  runConversation,
  type ToolTalkPredictor,
} from "../engine/benchmarks/tooltalk/evaluation/simulation.js";
import { OpenAiToolTalkPredictor } from "../engine/benchmarks/tooltalk/mode/openai-predictor.js";
import { serializeRunFile, TOOLTALK_RUN_FORMAT, TOOLTALK_RUN_SUFFIX } from "../engine/benchmarks/tooltalk/mode/result-file.js";
import { ScenarioBackend, scenarioConversation } from "../engine/benchmarks/tooltalk/mode/scenario-conversation.js";
import type { ToolTalkConversation } from "../engine/benchmarks/tooltalk/evaluation/types.js";
import { ExitError, EXIT, fsError, type ExitCode } from "../engine/runner/errors.js";
import { plural } from "../engine/base/text.js";
import { problemLine, type CliIO } from "./io.js";
import { eachScenario, loadScenarioJobs, type ScenarioJob } from "./scenario-jobs.js";
import type { RoleSpec } from "../engine/runner/role-specs.js";
import { toolTalkAggregateLines, toolTalkTableLines, type ToolTalkRow } from "./tooltalk-lines.js";

export const TOOLTALK_SUMMARY_FILE = "tooltalk-summary.json";

export interface ToolTalkRunOptions {
  readonly out: string;
  readonly agent: string;
  /** The agent resolved from the model options (absent: `agent` alone). */
  readonly agentSpec?: RoleSpec;
  readonly concurrency?: number;
  /** Calls one assistant turn may make before it is cut off (ToolTalk has no limit). */
  readonly maxCallsPerTurn?: number;
}

/** Sent when no key is needed (a local server), as `run` does for its model roles. */
const PLACEHOLDER_KEY = "no-key";

/**
 * The scripted agent replays the ground truth (ToolTalk's oracle); a model agent predicts, its
 * requests cancelled by `signal` so Ctrl-C does not wait for a slow model.
 */
function predictorFactory(
  options: ToolTalkRunOptions,
  signal: AbortSignal,
): (scenario: Scenario, conversation: ToolTalkConversation) => ToolTalkPredictor {
  const spec: RoleSpec | undefined = options.agentSpec ?? (options.agent === "scripted" ? { kind: "scripted" } : undefined);
  if (spec === undefined) throw new ExitError(`--mode tooltalk: the agent "${options.agent}" has no model settings`, EXIT.usage);
  if (spec.kind === "scripted") return (_scenario, conversation) => groundTruthPredictor(conversation);
  if (spec.kind === "mcp") throw new ExitError("--mode tooltalk needs a scripted or model agent, not an outside one", EXIT.usage);
  // `run` has checked that a required key is there.
  const key = process.env[spec.settings.api_key_env];
  const model = new ChatModel({ settings: spec.settings, apiKey: key !== undefined && key !== "" ? key : PLACEHOLDER_KEY });
  const tools = packById("tooltalk").tools;
  return (scenario) => new OpenAiToolTalkPredictor(model, agentSystemMessage(scenario.agent), tools, signal);
}

function loadToolTalkScenarios(paths: readonly string[], io: CliIO): ScenarioJob[] | null {
  const runnable = loadScenarioJobs(paths, io);
  if (runnable === null) return null;
  const foreign = runnable.filter((r) => r.scenario.world.pack !== "tooltalk");
  for (const r of foreign)
    io.err(problemLine(`${r.file}: --mode tooltalk runs ToolTalk scenarios only; this one uses the ${r.scenario.world.pack} pack`));
  return foreign.length > 0 ? null : runnable;
}

export async function runToolTalkMode(paths: readonly string[], options: ToolTalkRunOptions, io: CliIO): Promise<ExitCode> {
  const runnable = loadToolTalkScenarios(paths, io);
  if (runnable === null) return EXIT.failed;
  // Ctrl-C (or SIGTERM) stops the conversations in flight; what finished is written and summed up.
  const interrupt = new AbortController();
  const predictorFor = predictorFactory(options, interrupt.signal);
  try {
    makeDirectories(options.out);
  } catch (e) {
    throw fsError(e, options.out);
  }
  const maxCalls = options.maxCallsPerTurn ?? DEFAULT_MAX_CALLS_PER_TURN;
  const { done: ordered, failed } = await eachScenario(
    runnable,
    { concurrency: options.concurrency ?? 1, interrupt },
    io,
    async ({ file, scenario }): Promise<ToolTalkRow> => {
      const conversation = scenarioConversation(scenario, file);
      const result = await runConversation(conversation, new ScenarioBackend(scenario), predictorFor(scenario, conversation), {
        maxCallsPerTurn: maxCalls,
        signal: interrupt.signal,
      });
      writeFileAtomically(
        join(options.out, `${scenario.name}${TOOLTALK_RUN_SUFFIX}`),
        serializeRunFile({
          format: TOOLTALK_RUN_FORMAT,
          version: 1,
          scenario: scenario.name,
          scenario_file: file,
          agent: options.agent,
          similarity: ROUGE_L_SIMILARITY.name,
          max_calls_per_turn: maxCalls,
          metrics: result.metrics,
          error_types: result.error_types,
          turns: result.turns,
        }),
      );
      return { name: scenario.name, metrics: result.metrics };
    },
  );
  const aggregate = aggregateConversations(ordered.map((r) => r.metrics));
  const summaryPath = join(options.out, TOOLTALK_SUMMARY_FILE);
  writeFileAtomically(
    summaryPath,
    `${JSON.stringify({ agent: options.agent, conversations: ordered.map(summaryEntry), aggregate }, null, 2)}\n`,
  );
  for (const line of toolTalkTableLines(ordered)) io.out(line);
  io.out("");
  for (const line of toolTalkAggregateLines(aggregate)) io.out(line);
  io.out(`${plural(ordered.length, "conversation")} run, ${failed} failed; results in ${options.out}`);
  if (interrupt.signal.aborted) {
    io.err(problemLine(`interrupted: ${ordered.length} of ${plural(runnable.length, "conversation")} finished`));
    return EXIT.interrupted;
  }
  return failed > 0 ? EXIT.failed : EXIT.ok;
}

function summaryEntry(row: ToolTalkRow): { scenario: string; metrics: ToolTalkMetrics } {
  return { scenario: row.name, metrics: row.metrics };
}

/** The `run` options ToolTalk's mode takes; the rest belong to milestone runs and are refused. */
export interface RunModeOptions {
  readonly out: string;
  readonly agent: string;
  readonly user: string;
  readonly concurrency?: number;
  readonly trials?: number;
  readonly resume?: boolean;
  readonly augment?: boolean;
  readonly feedback?: string;
  readonly maxCallsPerTurn?: number;
  readonly roles?: { readonly agent: RoleSpec };
}

export function toolTalkRunOptions(options: RunModeOptions): ToolTalkRunOptions {
  const refuse = (flag: string, why: string): never => {
    throw new ExitError(`${flag} does not apply to --mode tooltalk: ${why}`, EXIT.usage);
  };
  if (options.user !== "scripted") refuse("--user", "ToolTalk replays the user's turns and never simulates the user");
  if ((options.trials ?? 1) > 1) refuse("--trials", "each conversation is simulated once");
  if (options.resume) refuse("--resume", "conversations are short; run them again");
  if (options.augment) refuse("--augment", "the tool augmentations are ToolSandbox's");
  if (options.feedback !== undefined) refuse("--feedback", "ToolTalk's executor answers with its own texts");
  return {
    out: options.out,
    agent: options.agent,
    ...(options.roles ? { agentSpec: options.roles.agent } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.maxCallsPerTurn !== undefined ? { maxCallsPerTurn: options.maxCallsPerTurn } : {}),
  };
}
