// ToolTalk's error analysis (calculate_error_types.py; peers.md A.7), over the assistant turns of
// conversations that failed:
// - over-trigger: a bad action in a turn whose ground truth makes no call;
// - otherwise a turn with unmatched predictions or unmatched ground truth counts once, as bad
//   planning when the unmatched tool names differ or a tool was called more often than the
//   ground truth calls it, else as a bad call (the right tools, called wrongly).
// "Matched" is the global verdict of `scoreConversation`, so a ground-truth call matched by a
// prediction of another turn counts as matched here too. ToolTalk tells a turn without an `apis`
// key from one with an empty list; the data has no empty list, and here both are "no call".
import type { ConversationScore, ScoredCallRecord } from "./metrics.js";

export interface ToolTalkErrorTypes {
  readonly "over-trigger": number;
  readonly "bad planning": number;
  readonly "bad call": number;
}

const NO_ERRORS: ToolTalkErrorTypes = { "over-trigger": 0, "bad planning": 0, "bad call": 0 };

function countNames(names: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

/** The error counts of one scored conversation; all zero when it succeeded. */
export function conversationErrorTypes(score: ConversationScore): ToolTalkErrorTypes {
  if (score.metrics.success) return NO_ERRORS;
  let overTrigger = 0;
  let badPlanning = 0;
  let badCall = 0;
  for (const turn of score.turns) {
    const calls = turn.predictions.filter((p): p is ScoredCallRecord => p.role === "api");
    if (turn.apis.length === 0) {
      overTrigger += calls.filter((call) => call.bad_action).length;
      continue;
    }
    const unmatchedCalls = calls.filter((call) => !call.match);
    const unmatchedTruths = turn.apis.filter((truth) => !truth.match);
    if (unmatchedCalls.length === 0 && unmatchedTruths.length === 0) continue;
    const called = countNames(unmatchedCalls.map((call) => call.request.api_name));
    const expected = countNames(unmatchedTruths.map((truth) => truth.request.api_name));
    const sameNames = called.size === expected.size && [...expected.keys()].every((name) => called.has(name));
    const calledTooOften = [...expected].some(([name, count]) => count < (called.get(name) ?? 0));
    if (!sameNames || calledTooOften) badPlanning++;
    else badCall++;
  }
  return { "over-trigger": overTrigger, "bad planning": badPlanning, "bad call": badCall };
}

export function sumErrorTypes(all: readonly ToolTalkErrorTypes[]): ToolTalkErrorTypes {
  return all.reduce(
    (total, e) => ({
      "over-trigger": total["over-trigger"] + e["over-trigger"],
      "bad planning": total["bad planning"] + e["bad planning"],
      "bad call": total["bad call"] + e["bad call"],
    }),
    NO_ERRORS,
  );
}
