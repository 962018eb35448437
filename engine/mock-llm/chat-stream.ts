// A chat completion sent as OpenAI streams one (`stream: true`): `chat.completion.chunk` objects
// as server-sent events, then `data: [DONE]`. The first chunk gives the role; the text comes in
// pieces; each tool call opens with its index, id and name and then gets its arguments in pieces,
// as clients must reassemble them; the last choice chunk has the finish reason, and with
// `stream_options.include_usage` one more chunk with no choices carries the usage. The pieces are
// cut at fixed places, so the same request gets the same bytes.
import { isJsonObject, type JsonObject, type JsonValue } from "../base/json.js";

/** Longest piece of text or arguments per chunk: small enough that every answer spans several chunks. */
const PIECE = 24;

/** A text cut into pieces of at most PIECE characters (at least one piece, even for ""). */
export function pieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += PIECE) out.push(text.slice(i, i + PIECE));
  return out.length > 0 ? out : [""];
}

/** The chunks of `completion` (a `chat.completion` object as completion.ts builds it). */
export function chatCompletionChunks(completion: JsonObject, includeUsage: boolean): JsonObject[] {
  const choice = Array.isArray(completion.choices) && isJsonObject(completion.choices[0]) ? completion.choices[0] : {};
  const message = isJsonObject(choice.message) ? choice.message : {};
  const chunk = (delta: JsonObject, finishReason: JsonValue = null): JsonObject => ({
    id: completion.id ?? null,
    object: "chat.completion.chunk",
    created: completion.created ?? 0,
    model: completion.model ?? null,
    system_fingerprint: completion.system_fingerprint ?? null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    // With include_usage every chunk has "usage": null until the last one.
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: JsonObject[] = [chunk({ role: "assistant", content: "", refusal: null })];
  if (typeof message.content === "string" && message.content !== "") {
    for (const piece of pieces(message.content)) chunks.push(chunk({ content: piece }));
  }
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isJsonObject) : [];
  for (const [index, call] of calls.entries()) {
    const fn = isJsonObject(call.function) ? call.function : {};
    chunks.push(
      chunk({ tool_calls: [{ index, id: call.id ?? null, type: "function", function: { name: fn.name ?? null, arguments: "" } }] }),
    );
    const args = typeof fn.arguments === "string" ? fn.arguments : "";
    for (const piece of pieces(args)) if (piece !== "") chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  chunks.push(chunk({}, choice.finish_reason ?? "stop"));
  if (includeUsage) chunks.push({ ...chunk({}), choices: [], usage: completion.usage ?? null });
  return chunks;
}

/** The chunks as the body of a server-sent-events answer, ending with `data: [DONE]`. */
export function chatStreamBody(chunks: readonly JsonObject[]): string {
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("")}data: [DONE]\n\n`;
}
