// The answer to a Responses API request: a `response` object whose output items are the scripted
// reply (a message with its text, or one `function_call` item per call), or, with `stream: true`,
// the events the service streams for it (created, in progress, each item added with its text or
// arguments in pieces and done, completed). Nothing depends on the clock, so the same request
// gets the same bytes.
import type { JsonObject } from "../base/json.js";
import { pieces } from "./chat-stream.js";
import type { ScriptedReply } from "./reply.js";
import type { ResponsesRequest } from "./responses-wire.js";

/** A rough token count (4 characters a token), only so that `usage` has plausible numbers. */
const tokens = (text: string): number => Math.ceil(text.length / 4);

/** The output items of a reply: its text as a message, then its calls. */
function outputItems(reply: ScriptedReply, requestNumber: number): JsonObject[] {
  const items: JsonObject[] = [];
  if (reply.content !== null && reply.content !== "") {
    items.push({
      id: `msg_mock_${requestNumber}`,
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: reply.content, annotations: [], logprobs: [] }],
    });
  }
  for (const [i, call] of reply.toolCalls.entries()) {
    items.push({
      id: `fc_mock_${requestNumber}_${i}`,
      type: "function_call",
      status: "completed",
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
    });
  }
  return items;
}

/** The `response` object for a reply. */
export function responseObject(reply: ScriptedReply, request: ResponsesRequest, requestNumber: number, promptText: string): JsonObject {
  const output = outputItems(reply, requestNumber);
  const completionText = (reply.content ?? "") + reply.toolCalls.map((c) => c.name + c.arguments).join("");
  const inputTokens = tokens(promptText);
  const outputTokens = tokens(completionText);
  return {
    id: `resp_mock_${requestNumber}`,
    object: "response",
    // Fixed: the mock never reads the clock, so its answers are reproducible byte for byte.
    created_at: 0,
    status: "completed",
    error: null,
    incomplete_details: null,
    instructions: request.instructions,
    max_output_tokens: null,
    model: request.chat.model,
    output,
    parallel_tool_calls: request.chat.parallelToolCalls,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: request.store,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: request.rawToolChoice,
    tools: [...request.rawTools],
    top_p: 1,
    truncation: "disabled",
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens + outputTokens,
    },
    user: null,
    metadata: {},
  };
}

/** The streamed events for a finished `response` object, each with its `type` and `sequence_number`. */
export function responseEvents(response: JsonObject): JsonObject[] {
  const events: JsonObject[] = [];
  const emit = (type: string, fields: JsonObject): void => {
    events.push({ type, sequence_number: events.length, ...fields });
  };
  const inProgress: JsonObject = { ...response, status: "in_progress", output: [], usage: null };
  emit("response.created", { response: inProgress });
  emit("response.in_progress", { response: inProgress });
  const output = Array.isArray(response.output) ? response.output : [];
  for (const [outputIndex, item] of output.entries()) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) continue;
    const itemId = item.id ?? null;
    if (item.type === "message") {
      const part = Array.isArray(item.content) ? item.content[0] : undefined;
      const text = part !== null && typeof part === "object" && !Array.isArray(part) && typeof part.text === "string" ? part.text : "";
      emit("response.output_item.added", { output_index: outputIndex, item: { ...item, status: "in_progress", content: [] } });
      const emptyPart = { type: "output_text", text: "", annotations: [] };
      emit("response.content_part.added", { item_id: itemId, output_index: outputIndex, content_index: 0, part: emptyPart });
      for (const delta of pieces(text)) {
        emit("response.output_text.delta", { item_id: itemId, output_index: outputIndex, content_index: 0, delta, logprobs: [] });
      }
      emit("response.output_text.done", { item_id: itemId, output_index: outputIndex, content_index: 0, text, logprobs: [] });
      emit("response.content_part.done", {
        item_id: itemId,
        output_index: outputIndex,
        content_index: 0,
        part: { ...emptyPart, text },
      });
    } else if (item.type === "function_call") {
      const args = typeof item.arguments === "string" ? item.arguments : "";
      emit("response.output_item.added", { output_index: outputIndex, item: { ...item, status: "in_progress", arguments: "" } });
      for (const delta of pieces(args)) {
        if (delta !== "") emit("response.function_call_arguments.delta", { item_id: itemId, output_index: outputIndex, delta });
      }
      emit("response.function_call_arguments.done", {
        item_id: itemId,
        output_index: outputIndex,
        name: item.name ?? null,
        arguments: args,
      });
    }
    emit("response.output_item.done", { output_index: outputIndex, item });
  }
  emit("response.completed", { response });
  return events;
}

/** The events as the body of a server-sent-events answer (`event:` and `data:` lines). */
export function responseStreamBody(events: readonly JsonObject[]): string {
  return events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join("");
}
