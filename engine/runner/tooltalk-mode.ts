// `run --mode tooltalk` for any front end: ToolTalk's own evaluation of ToolTalk-pack scenarios.
// Each scenario is simulated turn by turn with teacher forcing (benchmarks/tooltalk/evaluation/
// simulation.ts: the world reset and the ground truth replayed before every assistant turn, the
// user never simulated), by the ground truth itself (the scripted agent, ToolTalk's oracle) or by
// a model. One `<name>.tooltalk.json` per scenario and `tooltalk-summary.json` with the aggregate.
import { join } from "node:path";
import { makeDirectories, writeFileAtomically } from "../base/output-files.js";
import { groundTruthPredictor } from "../benchmarks/tooltalk/evaluation/ground-truth-predictor.js";
import { aggregateConversations, type ToolTalkAggregate, type ToolTalkMetrics } from "../benchmarks/tooltalk/evaluation/metrics.js";
import { ROUGE_L_SIMILARITY } from "../benchmarks/tooltalk/evaluation/similarity.js";
import { DEFAULT_MAX_CALLS_PER_TURN, runConversation, type ToolTalkPredictor } from "../benchmarks/tooltalk/evaluation/simulation.js";
import type { ToolTalkConversation } from "../benchmarks/tooltalk/evaluation/types.js";
import { OpenAiToolTalkPredictor } from "../benchmarks/tooltalk/mode/openai-predictor.js";
import { serializeRunFile, TOOLTALK_RUN_FORMAT, TOOLTALK_RUN_SUFFIX } from "../benchmarks/tooltalk/mode/result-file.js";
import { ScenarioBackend, scenarioConversation } from "../benchmarks/tooltalk/mode/scenario-conversation.js";
import { packById } from "../packs/registry.js";
import { ChatModel } from "../roles/openai/chat-model.js";
import type { Scenario } from "../scenario/model.js";
import { agentSystemMessage } from "../scenario/prompts/persona-prompt.js";
import { fsError, RoleSpecError } from "./errors.js";
import type { RoleSpec } from "./role-specs.js";
import { eachScenario, type ScenarioJob } from "./scenario-batch.js";

export const TOOLTALK_SUMMARY_FILE = "tooltalk-summary.json";

interface ToolTalkModeOptions {
  readonly out: string;
  /** The agent's id, as the result files name it. */
  readonly agent: string;
  /** The agent resolved from the model options (absent: `agent` alone, which must be "scripted"). */
  readonly agentSpec?: RoleSpec;
  readonly concurrency?: number;
  /** Calls one assistant turn may make before it is cut off (ToolTalk has no limit). */
  readonly maxCallsPerTurn?: number;
  /** Stops the conversations in flight; what finished is written and summed up. */
  readonly signal: AbortSignal;
  /** A conversation that failed, the others going on. */
  readonly onFailed: (job: ScenarioJob, message: string) => void;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface ToolTalkRow {
  readonly name: string;
  readonly metrics: ToolTalkMetrics;
}

interface ToolTalkModeResult {
  /** The finished conversations, in the scenarios' order. */
  readonly rows: readonly ToolTalkRow[];
  readonly aggregate: ToolTalkAggregate;
  readonly failed: number;
}

/** Sent when no key is needed (a local server), as the model roles do. */
const PLACEHOLDER_KEY = "no-key";

/** The scenarios not of ToolTalk's pack: the mode runs none of them. */
export function foreignToToolTalk(jobs: readonly ScenarioJob[]): ScenarioJob[] {
  return jobs.filter((j) => j.scenario.world.pack !== "tooltalk");
}

/**
 * The scripted agent replays the ground truth (ToolTalk's oracle); a model agent predicts, its
 * requests cancelled by `signal` so a stop does not wait for a slow model.
 */
function predictorFactory(options: ToolTalkModeOptions): (scenario: Scenario, conversation: ToolTalkConversation) => ToolTalkPredictor {
  const spec: RoleSpec | undefined = options.agentSpec ?? (options.agent === "scripted" ? { kind: "scripted" } : undefined);
  if (spec === undefined) throw new RoleSpecError(`--mode tooltalk: the agent "${options.agent}" has no model settings`);
  if (spec.kind === "scripted") return (_scenario, conversation) => groundTruthPredictor(conversation);
  if (spec.kind === "mcp") throw new RoleSpecError("--mode tooltalk needs a scripted or model agent, not an outside one");
  // The spec was checked when it was made: a required key is there.
  const key = (options.env ?? process.env)[spec.settings.api_key_env];
  const model = new ChatModel({ settings: spec.settings, apiKey: key !== undefined && key !== "" ? key : PLACEHOLDER_KEY });
  const tools = packById("tooltalk").tools;
  return (scenario) => new OpenAiToolTalkPredictor(model, agentSystemMessage(scenario.agent), tools, options.signal);
}

/** Simulates every job (ToolTalk scenarios: see foreignToToolTalk), writing its result file, then the summary. */
export async function runToolTalkMode(jobs: readonly ScenarioJob[], options: ToolTalkModeOptions): Promise<ToolTalkModeResult> {
  const predictorFor = predictorFactory(options);
  try {
    makeDirectories(options.out);
  } catch (e) {
    throw fsError(e, options.out);
  }
  const maxCalls = options.maxCallsPerTurn ?? DEFAULT_MAX_CALLS_PER_TURN;
  const { done: rows, failed } = await eachScenario(
    jobs,
    { concurrency: options.concurrency ?? 1, signal: options.signal, onFailed: options.onFailed },
    async ({ file, scenario }): Promise<ToolTalkRow> => {
      const conversation = scenarioConversation(scenario, file);
      const result = await runConversation(conversation, new ScenarioBackend(scenario), predictorFor(scenario, conversation), {
        maxCallsPerTurn: maxCalls,
        signal: options.signal,
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
  const aggregate = aggregateConversations(rows.map((r) => r.metrics));
  writeFileAtomically(
    join(options.out, TOOLTALK_SUMMARY_FILE),
    `${JSON.stringify({ agent: options.agent, conversations: rows.map((r) => ({ scenario: r.name, metrics: r.metrics })), aggregate }, null, 2)}\n`,
  );
  return { rows, aggregate, failed };
}
