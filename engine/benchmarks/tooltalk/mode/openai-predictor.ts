// A ToolTalk-style predictor backed by a model behind an OpenAI-compatible endpoint (ToolTalk's
// OpenAIPredictor, peers A.6), for `run --mode tooltalk --agent openai:MODEL`:
//
// - the system prompt is the scenario's (an imported scenario's holds what ToolTalk's predictor is
//   told: location, timestamp and, once logged in, the username);
// - every tool of the pack is offered (ToolTalk's default `--api_mode all`);
// - the history maps as ToolTalk maps it: user and assistant texts become chat messages, each call
//   an assistant message asking for it and a tool message whose content is the JSON text
//   `{"response": ..., "exception": ...}`, written as Python's json.dumps writes it. ToolTalk used
//   the legacy `function_call`/`function` messages; these are their tool-call equivalents, which
//   current endpoints accept. The session token the executor injects is not shown (the model
//   never gives one);
// - one call per prediction: when the model asks for several at once, the first is returned and
//   the others follow, one per prediction, before the model is asked again;
// - arguments that are not a JSON object give `parameters: null`, which the simulation records as
//   ToolTalk's "Failed to parse API call".
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { isJsonObject, type JsonObject } from "../../../base/json.js";
import type { ChatModel } from "../../../roles/openai/chat-model.js";
import { pythonJsonDumps } from "../../../roles/openai/python-json.js";
import type { AssistantToolCall } from "../../../roles/openai/response.js";
import { openAiToolSchema } from "../../../tools/openai-schema.js";
import type { ToolDefinition } from "../../../tools/types.js";
import type { ToolTalkPredictor } from "../evaluation/simulation.js";
import type { ToolTalkHistoryEntry, ToolTalkPrediction } from "../evaluation/types.js";

function shownParameters(parameters: JsonObject | null): JsonObject {
  if (parameters === null) return {};
  const { session_token: _injected, ...rest } = parameters;
  return rest;
}

/** The chat messages for a history, after the system prompt. */
export function toolTalkChatMessages(systemPrompt: string, history: readonly ToolTalkHistoryEntry[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: "system", content: systemPrompt }];
  history.forEach((entry, i) => {
    if (entry.role !== "api") {
      messages.push({ role: entry.role, content: entry.text });
      return;
    }
    const id = `call_${i}`;
    const { api_name } = entry.request;
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: [
        { id, type: "function", function: { name: api_name, arguments: pythonJsonDumps(shownParameters(entry.request.parameters)) } },
      ],
    });
    messages.push({ role: "tool", tool_call_id: id, content: pythonJsonDumps({ response: entry.response, exception: entry.exception }) });
  });
  return messages;
}

function parsedArguments(text: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(text === "" ? "{}" : text);
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

export class OpenAiToolTalkPredictor implements ToolTalkPredictor {
  private readonly tools: ChatCompletionTool[];
  /** Calls the model asked for together, still to be returned; valid for the history length noted. */
  private pending: { calls: AssistantToolCall[]; historyLength: number } | null = null;

  constructor(
    private readonly model: ChatModel,
    private readonly systemPrompt: string,
    tools: readonly ToolDefinition[],
    private readonly signal?: AbortSignal,
  ) {
    this.tools = tools.filter((t) => t.visibleTo.includes("agent")).map((t) => openAiToolSchema(t));
  }

  async predict(_metadata: unknown, history: readonly ToolTalkHistoryEntry[]): Promise<ToolTalkPrediction> {
    const queued = this.pending !== null && this.pending.historyLength === history.length ? this.pending.calls : [];
    this.pending = null;
    let calls = queued;
    let content: string | null = null;
    if (calls.length === 0) {
      const label = `agent openai:${this.model.settings.model}`;
      const answer = await this.model.complete(label, toolTalkChatMessages(this.systemPrompt, history), this.tools, this.signal);
      calls = [...answer.toolCalls];
      content = answer.content;
    }
    const [first, ...rest] = calls;
    if (first === undefined) return { role: "assistant", text: content ?? "" };
    // The next prediction sees this call appended to the history.
    if (rest.length > 0) this.pending = { calls: rest, historyLength: history.length + 1 };
    return { role: "api", request: { api_name: first.name, parameters: parsedArguments(first.arguments) } };
  }
}
