// A predictor that replays a conversation's ground truth, as ToolTalk's oracle test does: from the
// history alone it works out which turn it is in (one user or assistant text per turn) and how many
// calls it has made in it, then returns the next ground-truth call, without the session token the
// executor injects, or the ground-truth reply once the calls are done. Replaying every conversation
// this way must give precision = recall = 1 and success.
import type { JsonObject } from "../../../base/json.js";
import type { ToolTalkPredictor } from "./simulation.js";
import type { ToolTalkConversation, ToolTalkHistoryEntry, ToolTalkPrediction } from "./types.js";

function withoutSessionToken(parameters: JsonObject): JsonObject {
  const copy: JsonObject = structuredClone(parameters);
  delete copy["session_token"];
  return copy;
}

/** Where the history stands: the turn being predicted and the calls already made in it. */
function progress(history: readonly ToolTalkHistoryEntry[]): { turn: number; callsMade: number } {
  let turn = 0;
  let callsMade = 0;
  for (const entry of history) {
    if (entry.role === "api") callsMade++;
    else {
      turn++;
      callsMade = 0;
    }
  }
  return { turn, callsMade };
}

export function groundTruthPredictor(conversation: ToolTalkConversation): ToolTalkPredictor {
  return {
    predict(_metadata, history): ToolTalkPrediction {
      const { turn: position, callsMade } = progress(history);
      const turn = conversation.turns[position];
      if (turn?.role !== "assistant") {
        throw new Error(`${conversation.file}: the history does not end before an assistant turn (turn ${position})`);
      }
      const next = turn.apis[callsMade];
      if (next !== undefined) {
        return { role: "api", request: { api_name: next.request.api_name, parameters: withoutSessionToken(next.request.parameters) } };
      }
      if (callsMade > turn.apis.length) throw new Error(`${conversation.file}: turn ${position} has more calls than its ground truth`);
      return { role: "assistant", text: turn.text };
    },
  };
}
