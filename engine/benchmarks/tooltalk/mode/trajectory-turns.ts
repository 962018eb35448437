// An ordinary trajectory of a ToolTalk scenario scored by ToolTalk's rules (`eval --mode
// tooltalk`): the agent's calls are the predictions, the reference's calls the ground truth. The
// run was free, not teacher-forced, so the numbers say how the agent did on its own path; matching
// is global across turns either way (ToolTalk's own rule), so a call made a turn early or late
// still counts.
//
// Each prediction is rebuilt as ToolTalk records one: the request with the session token the
// executor injected (from the call's tool trace, or for a failed call the session at that moment),
// and the outcome read from the JSON the agent was shown. The agent's replies end its turns; its
// k-th turn is put next to the reference's k-th assistant turn (extra turns go with the last one),
// which only matters for the per-turn error types, not for the metrics.
import { isJsonObject, type JsonObject, type JsonValue } from "../../../base/json.js";
import type { Message } from "../../../episode/types.js";
import { requiresAuth } from "../../../packs/tooltalk/tools/apis.js";
import type { Trajectory } from "../../../trajectory/trajectory.js";
import type { ToolTalkCallRecord, ToolTalkConversation, ToolTalkTurnPrediction, ToolTalkTurnRun } from "../evaluation/types.js";

function outcomeOf(response: Message | undefined): { response: JsonValue; exception: string | null } {
  if (response === undefined) return { response: null, exception: "the episode ended before the call was answered" };
  const trace = response.tool_trace?.[0];
  if (response.tool_call_exception === null && trace !== undefined) return { response: trace.result, exception: null };
  try {
    const shown: unknown = JSON.parse(response.content);
    if (isJsonObject(shown) && "exception" in shown && (typeof shown["exception"] === "string" || shown["exception"] === null)) {
      return { response: shown["response"] ?? null, exception: shown["exception"] };
    }
  } catch {
    // Not the pack's JSON: an error the engine raised before the tool ran.
  }
  return { response: null, exception: response.tool_call_exception ?? response.content };
}

function requestOf(
  request: Message,
  response: Message | undefined,
  trajectory: Trajectory,
): { api_name: string; parameters: JsonObject | null } {
  const call = request.tool_call;
  const api_name = call?.name ?? "";
  const trace = response?.tool_trace?.[0];
  if (trace !== undefined && response?.tool_call_exception === null) return { api_name, parameters: { ...trace.arguments } };
  let parameters: JsonObject | null = call?.arguments !== undefined && isJsonObject(call.arguments) ? { ...call.arguments } : null;
  if (call?.arguments === undefined && call?.raw_arguments === undefined) parameters = {};
  if (parameters !== null && requiresAuth(api_name) === true) {
    const token = trajectory.worldAt(request.sandbox_message_index)["SESSION"]?.[0]?.["session_token"];
    if (typeof token === "string") parameters["session_token"] = token;
  }
  return { api_name, parameters };
}

/** The agent's turns: its calls (as ToolTalk records them) and the reply that ended each. */
function agentTurns(trajectory: Trajectory): ToolTalkTurnPrediction[][] {
  const turns: ToolTalkTurnPrediction[][] = [[]];
  const used = new Set<number>();
  const messages = trajectory.messages;
  messages.forEach((message, i) => {
    const current = turns[turns.length - 1]!;
    if (message.sender === "agent" && message.recipient === "execution_environment" && message.scripted !== true) {
      const response = messages.find(
        (m, j) =>
          j > i &&
          !used.has(j) &&
          m.sender === "execution_environment" &&
          m.recipient === "agent" &&
          m.openai_tool_call_id === message.openai_tool_call_id,
      );
      if (response !== undefined) used.add(response.sandbox_message_index);
      const record: ToolTalkCallRecord = {
        role: "api",
        request: requestOf(message, response, trajectory),
        ...outcomeOf(response),
        metadata: null,
      };
      current.push(record);
    } else if (message.sender === "agent" && message.recipient === "user") {
      current.push({ role: "assistant", text: message.content });
      turns.push([]);
    }
  });
  if (turns.length > 1 && turns[turns.length - 1]!.length === 0) turns.pop();
  return turns;
}

/** The trajectory's predictions next to the ground-truth turns of `conversation` (the scenario's). */
export function trajectoryTurnRuns(trajectory: Trajectory, conversation: ToolTalkConversation): ToolTalkTurnRun[] {
  const truthTurns = conversation.turns.flatMap((t) => (t.role === "assistant" ? [t] : []));
  const predicted = agentTurns(trajectory);
  return truthTurns.map((turn, k): ToolTalkTurnRun => {
    const last = k === truthTurns.length - 1;
    const predictions = last ? predicted.slice(k).flat() : (predicted[k] ?? []);
    return { position: turn.position, text: turn.text, apis: turn.apis, predictions, step_cap_reached: false };
  });
}
