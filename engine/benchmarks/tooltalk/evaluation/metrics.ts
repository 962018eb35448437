// ToolTalk's evaluation of one conversation (`evaluate_predictions`, peers.md A.7) and its
// aggregation over a data set.
//
// All predicted calls of all turns, in order, are matched greedily against all ground-truth calls
// of all turns: each prediction takes the first ground-truth call, in conversation order, that is
// still free and that the tool's match rule accepts. Matching is global, so a call made one turn
// early or late still counts. A prediction is an action when its tool is one (unknown tools are
// not); an action is bad when it matched nothing and succeeded, because a failed action changed
// nothing. The ratios follow ToolTalk's conventions for empty denominators (precision 0 without
// predictions, action precision 1 and bad-action rate 0 without actions); a conversation without
// ground-truth calls, where ToolTalk divides by zero, gets recall 1.
import { aggregateToolTalk, toolTalkRatios, type ToolTalkAggregate, type ToolTalkMetrics } from "../metric.js";
import { callsMatch, type MatchOptions } from "./match-rules.js";
import type { ToolTalkCall, ToolTalkCallRecord, ToolTalkTurnPrediction, ToolTalkTurnRun } from "./types.js";

export type { ToolTalkAggregate, ToolTalkMetrics };

/** A predicted call with its verdict (ToolTalk adds `match` and `bad_action`; `is_action` is ours). */
export interface ScoredCallRecord extends ToolTalkCallRecord {
  readonly match: boolean;
  readonly is_action: boolean;
  readonly bad_action: boolean;
}

export type ScoredTurnPrediction = ScoredCallRecord | Extract<ToolTalkTurnPrediction, { role: "assistant" }>;

export interface ScoredGroundTruth extends ToolTalkCall {
  readonly match: boolean;
}

export interface ScoredTurn extends Omit<ToolTalkTurnRun, "apis" | "predictions"> {
  readonly apis: readonly ScoredGroundTruth[];
  readonly predictions: readonly ScoredTurnPrediction[];
}

export interface ConversationScore {
  readonly turns: readonly ScoredTurn[];
  readonly metrics: ToolTalkMetrics;
}

/** Whether a tool changes the world (ToolTalk's `is_action`); false for names that are no tool. */
type IsActionTool = (apiName: string) => boolean;

function isCallRecord(prediction: ToolTalkTurnPrediction): prediction is ToolTalkCallRecord {
  return prediction.role === "api";
}

/** Scores one conversation's turns as ToolTalk does. */
export function scoreConversation(
  turns: readonly ToolTalkTurnRun[],
  isAction: IsActionTool,
  options: MatchOptions = {},
): ConversationScore {
  const truths = turns.flatMap((turn) => turn.apis);
  const taken = truths.map(() => false);
  let predictions = 0;
  let matches = 0;
  let actions = 0;
  let validActions = 0;
  let badActions = 0;

  const scoreCall = (call: ToolTalkCallRecord): ScoredCallRecord => {
    const slot = truths.findIndex((truth, i) => !taken[i] && callsMatch(call, truth, options));
    const match = slot >= 0;
    if (match) taken[slot] = true;
    const is_action = isAction(call.request.api_name);
    const bad_action = !match && is_action && call.exception === null;
    predictions++;
    if (match) matches++;
    if (is_action) actions++;
    if (is_action && match) validActions++;
    if (bad_action) badActions++;
    return { ...call, match, is_action, bad_action };
  };
  // Predictions are scored in conversation order before any ground truth is marked.
  const scoredPredictions = turns.map((turn) => turn.predictions.map((p) => (isCallRecord(p) ? scoreCall(p) : p)));

  let truthIndex = 0;
  const scoredTurns = turns.map(
    (turn, t): ScoredTurn => ({
      ...turn,
      apis: turn.apis.map((call) => ({ ...call, match: taken[truthIndex++] === true })),
      predictions: scoredPredictions[t] ?? [],
    }),
  );

  const ratios = toolTalkRatios({
    predictions,
    ground_truths: truths.length,
    matches,
    actions,
    valid_actions: validActions,
    bad_actions: badActions,
  });
  const metrics: ToolTalkMetrics = {
    ...ratios,
    success: ratios.recall === 1 && ratios.bad_action_rate === 0,
    soft_success: ratios.recall * (1 - ratios.bad_action_rate),
  };
  return { turns: scoredTurns, metrics };
}

/**
 * A data set's figures as ToolTalk reports them: precision, recall, action precision and bad-action
 * rate are micro ratios of the summed counts; the success rate is the macro mean over
 * conversations (and, beyond ToolTalk, the mean soft success).
 */
export function aggregateConversations(scores: readonly ToolTalkMetrics[]): ToolTalkAggregate {
  return aggregateToolTalk(scores);
}
