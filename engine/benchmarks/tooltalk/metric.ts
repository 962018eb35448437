// ToolTalk's call-level metrics (Microsoft, arXiv 2311.10775; reference peers.md A.6-A.7) over a
// ToolSandbox trajectory: precision, recall, action precision, incorrect ("bad") action rate,
// success and soft success. Field names are ToolTalk's own output keys, so people who know its
// result files read ours the same way; `bad_action_rate` is the paper's "incorrect action rate".
//
// Adaptations to ToolSandbox, each because the data is shaped differently:
// - Ground truth is every call of the scenario's reference solution (`agent_calls` steps, in
//   order); predictions are the agent's requests to the execution environment, in bus order.
//   ToolTalk replays ground truth before every assistant turn (teacher forcing); a ToolSandbox
//   episode is one free, on-policy run. Matching was already global across turns in ToolTalk, so
//   the algorithm is unchanged; the numbers are still not comparable with ToolTalk's papers.
// - ToolTalk's default match rule also requires the prediction's response and exception to equal
//   the ground truth's. A reference call records neither, so the response is not compared and the
//   ground truth is taken to have succeeded: only a prediction that succeeded can match. (A
//   reference call meant to fail can therefore never be matched.)
// - Every argument the reference call gives must be equal in the prediction; arguments the
//   reference leaves out are not looked at (ToolTalk: extra predicted keys are allowed). An
//   argument the prediction omits counts as its Python default when the tool has one, because
//   omitting it and passing the default are the same call; without a default it is a mismatch.
// - Values are compared with Python `==` (1 == 1.0 == True), free text included: exact string
//   equality. ToolTalk grades a few free-text fields of its own tools (names, descriptions,
//   message bodies) by DistilBERT cosine >= 0.8/0.9; ToolSandbox's free-text arguments (message
//   content, contact names, reminder content) are matched exactly for now.
// - With no reference calls, ToolTalk divides by zero; here recall is 1 (nothing to find), so
//   success then means "no successful call to an action tool", which is what a scenario where the
//   agent should not act asks for.
import type { JsonValue } from "../../base/json.js";
import type { Message } from "../../episode/types.js";
import { packById } from "../../packs/registry.js";
import type { ReferenceCall, Scenario } from "../../scenario/model.js";
import type { ToolDefinition } from "../../tools/types.js";
import { pyEquals } from "../../python/values.js";
import { agentCalls, catalogNameOf, referenceCalls, type AgentCall, type CallOutcome } from "../../evaluation/agent-calls.js";

export interface ToolTalkPrediction {
  readonly message_index: number;
  readonly call_id: string | null;
  readonly tool: string;
  /** The pack marks the tool as changing the world (false for a name the pack lacks). */
  readonly is_action: boolean;
  readonly outcome: CallOutcome;
  /** Id of the reference call this prediction consumed, or null. */
  readonly match: string | null;
  /** An action that succeeded without matching any reference call. A failed action is not bad. */
  readonly bad_action: boolean;
}

export interface ToolTalkGroundTruth {
  readonly reference_call_id: string;
  readonly tool: string;
  /** message_index of the prediction that matched it, or null. */
  readonly matched_by: number | null;
}

interface ToolTalkCounts {
  readonly predictions: number;
  readonly ground_truths: number;
  readonly matches: number;
  readonly actions: number;
  readonly valid_actions: number;
  readonly bad_actions: number;
}

export interface ToolTalkRatios extends ToolTalkCounts {
  /** matches / predictions; 0 without predictions (ToolTalk's convention). */
  readonly precision: number;
  /** matches / ground truths; 1 without ground truths (adaptation, see above). */
  readonly recall: number;
  /** valid actions / actions; 1 without actions. */
  readonly action_precision: number;
  /** bad actions / actions; 0 without actions. */
  readonly bad_action_rate: number;
}

export interface ToolTalkMetrics extends ToolTalkRatios {
  /** recall == 1 and no bad action. */
  readonly success: boolean;
  /** recall * (1 - bad_action_rate). */
  readonly soft_success: number;
}

export interface ToolTalkResult {
  readonly metrics: ToolTalkMetrics;
  readonly predictions: readonly ToolTalkPrediction[];
  readonly ground_truths: readonly ToolTalkGroundTruth[];
}

import type { ToolLookup } from "../../evaluation/agent-calls.js";

/** The prediction's value for `key`, or the tool's Python default when it was omitted. */
function givenOrDefault(args: Readonly<Record<string, JsonValue>>, key: string, tool: ToolDefinition | undefined): JsonValue | undefined {
  if (Object.hasOwn(args, key)) return args[key];
  return tool?.parameters.find((p) => p.name === key)?.default;
}

/** ToolTalk's default match rule as adapted above. */
function toolTalkMatches(prediction: AgentCall, truth: ReferenceCall, tools: ToolLookup): boolean {
  if (prediction.name !== truth.tool || prediction.outcome !== "succeeded" || !prediction.arguments.ok) return false;
  const args = prediction.arguments.args;
  const tool = tools(truth.tool);
  return Object.entries(truth.arguments).every(([key, expected]) => {
    const given = givenOrDefault(args, key, tool);
    return given !== undefined && pyEquals(given, expected);
  });
}

function isActionTool(name: string, tools: ToolLookup): boolean {
  return tools(name)?.action ?? false;
}

/** Ratios from counts, with ToolTalk's conventions for empty denominators. */
export function toolTalkRatios(counts: ToolTalkCounts): ToolTalkRatios {
  const { predictions, ground_truths, matches, actions, valid_actions, bad_actions } = counts;
  return {
    ...counts,
    precision: predictions > 0 ? matches / predictions : 0,
    recall: ground_truths > 0 ? matches / ground_truths : 1,
    action_precision: actions > 0 ? valid_actions / actions : 1,
    bad_action_rate: actions > 0 ? bad_actions / actions : 0,
  };
}

function episodeMetrics(counts: ToolTalkCounts): ToolTalkMetrics {
  const ratios = toolTalkRatios(counts);
  return {
    ...ratios,
    success: ratios.recall === 1 && ratios.bad_action_rate === 0,
    soft_success: ratios.recall * (1 - ratios.bad_action_rate),
  };
}

/**
 * Greedy matching as ToolTalk does it: each prediction, in order, consumes the first still
 * unmatched ground truth it matches, so every ground truth is matched at most once.
 */
function toolTalkFromCalls(calls: readonly AgentCall[], truths: readonly ReferenceCall[], tools: ToolLookup): ToolTalkResult {
  const matchedBy: (number | null)[] = truths.map(() => null);
  const predictions = calls.map((call): ToolTalkPrediction => {
    const slot = truths.findIndex((truth, i) => matchedBy[i] === null && toolTalkMatches(call, truth, tools));
    if (slot >= 0) matchedBy[slot] = call.message_index;
    const is_action = isActionTool(call.name, tools);
    const match = slot >= 0 ? (truths[slot]?.id ?? null) : null;
    return {
      message_index: call.message_index,
      call_id: call.call?.id ?? null,
      tool: call.name,
      is_action,
      outcome: call.outcome,
      match,
      bad_action: match === null && is_action && call.outcome === "succeeded",
    };
  });
  const actions = predictions.filter((p) => p.is_action);
  const metrics = episodeMetrics({
    predictions: predictions.length,
    ground_truths: truths.length,
    matches: predictions.filter((p) => p.match !== null).length,
    actions: actions.length,
    valid_actions: actions.filter((p) => p.match !== null).length,
    bad_actions: actions.filter((p) => p.bad_action).length,
  });
  const ground_truths = truths.map((truth, i) => ({ reference_call_id: truth.id, tool: truth.tool, matched_by: matchedBy[i] ?? null }));
  return { metrics, predictions, ground_truths };
}

export function toolTalkMetrics(scenario: Scenario, messages: readonly Message[]): ToolTalkResult {
  const pack = packById(scenario.world.pack);
  return toolTalkFromCalls(agentCalls(messages, catalogNameOf(scenario)), referenceCalls(scenario), (name) => pack.toolByName(name));
}

export interface ToolTalkAggregate {
  readonly episodes: number;
  /** Summed counts and their micro ratios, as ToolTalk aggregates them. */
  readonly micro: ToolTalkRatios;
  /** Macro mean of per-episode success (ToolTalk's success rate). */
  readonly success_rate: number;
  /** Macro mean of soft success (ToolTalk stores it per conversation only; averaged here). */
  readonly soft_success_rate: number;
}

/** A suite's numbers: micro precision/recall/action precision/bad action rate, macro success. */
export function aggregateToolTalk(episodes: readonly ToolTalkMetrics[]): ToolTalkAggregate {
  const sum = (key: keyof ToolTalkCounts): number => episodes.reduce((total, e) => total + e[key], 0);
  const mean = (values: readonly number[]): number => (values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : 0);
  return {
    episodes: episodes.length,
    micro: toolTalkRatios({
      predictions: sum("predictions"),
      ground_truths: sum("ground_truths"),
      matches: sum("matches"),
      actions: sum("actions"),
      valid_actions: sum("valid_actions"),
      bad_actions: sum("bad_actions"),
    }),
    success_rate: mean(episodes.map((e) => (e.success ? 1 : 0))),
    soft_success_rate: mean(episodes.map((e) => e.soft_success)),
  };
}
