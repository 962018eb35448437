// The chat-completions request as it arrives over HTTP, checked field by field before anything
// reads it. The checks follow what OpenAI's API rejects (unknown arguments, roles, tool-call
// structure, tool messages that answer no call, calls left unanswered), so a role that builds
// its messages wrongly fails against the mock the way it would fail against the service. The
// first problem found is reported, with the path of the field at fault in `param`.
import Ajv from "ajv";
import { isJsonObject, type JsonObject, type JsonValue } from "../base/json.js";
import { invalidRequest, type MockLlmError } from "./http-error.js";

export interface WireToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments exactly as sent: a JSON text, not necessarily a valid one. */
  readonly arguments: string;
}

/** A message with its text parts joined into one string. */
export type WireMessage =
  | { readonly role: "system"; readonly content: string }
  | { readonly role: "user"; readonly content: string }
  | { readonly role: "assistant"; readonly content: string | null; readonly toolCalls: readonly WireToolCall[] }
  | { readonly role: "tool"; readonly content: string; readonly toolCallId: string };

export interface WireTool {
  readonly name: string;
  readonly description: string | null;
  readonly parameters: JsonObject | null;
}

export type ToolChoice = "none" | "auto" | "required" | { readonly function: string };

export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly WireMessage[];
  /** The tools offered, in the request's order; empty when none are. */
  readonly tools: readonly WireTool[];
  readonly toolChoice: ToolChoice | null;
  /** false: the model may make at most one call per answer. */
  readonly parallelToolCalls: boolean;
  /** `stream: true`: the answer is sent as server-sent events. */
  readonly stream: boolean;
  /** `stream_options.include_usage`: a last chunk carries the usage. */
  readonly includeUsage: boolean;
}

/**
 * Request arguments OpenAI's chat completions accept. Anything else is refused as OpenAI refuses
 * it, which catches misspelt or provider-specific options sent to an OpenAI endpoint.
 */
const KNOWN_ARGUMENTS = new Set([
  "model",
  "messages",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "temperature",
  "top_p",
  "n",
  "stream",
  "stream_options",
  "stop",
  "max_tokens",
  "max_completion_tokens",
  "presence_penalty",
  "frequency_penalty",
  "logit_bias",
  "logprobs",
  "top_logprobs",
  "user",
  "seed",
  "response_format",
  "service_tier",
  "store",
  "metadata",
  "reasoning_effort",
  "modalities",
  "prediction",
  "audio",
  "prompt_cache_key",
  "safety_identifier",
  "verbosity",
  "web_search_options",
]);

/** OpenAI's rule for function names. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const MESSAGE_KEYS: Readonly<Record<WireMessage["role"], readonly string[]>> = {
  system: ["role", "content", "name"],
  user: ["role", "content", "name"],
  assistant: ["role", "content", "name", "tool_calls", "refusal"],
  // `name` is not in OpenAI's schema for tool messages, but upstream ToolSandbox sends it and the
  // service has always accepted it.
  tool: ["role", "content", "tool_call_id", "name"],
};

export function parseChatRequest(body: unknown): ChatRequest {
  if (!isJsonObject(body)) throw invalidRequest("The request body must be a JSON object.");
  for (const key of Object.keys(body)) {
    if (key === "functions" || key === "function_call") {
      throw invalidRequest(`"${key}" is the legacy function-calling interface; the mock server supports "tools" only.`, key);
    }
    if (!KNOWN_ARGUMENTS.has(key)) throw invalidRequest(`Unrecognized request argument supplied: ${key}`, key);
  }
  const model = body.model;
  if (typeof model !== "string" || model === "") throw invalidRequest('"model" is required and must be a non-empty string.', "model");
  checkOptionalTypes(body);
  const messages = parseMessages(body.messages);
  const tools = parseTools(body.tools);
  const toolChoice = parseToolChoice(body.tool_choice, tools);
  const stream = body.stream === true;
  return {
    model,
    messages,
    tools,
    toolChoice,
    parallelToolCalls: body.parallel_tool_calls !== false,
    stream,
    includeUsage: parseStreamOptions(body.stream_options, stream),
  };
}

/** `stream_options` as OpenAI takes it: only with `stream: true`, and only `include_usage` (and `include_obfuscation`). */
function parseStreamOptions(raw: JsonValue | undefined, stream: boolean): boolean {
  if (raw === undefined || raw === null) return false;
  if (!stream) throw invalidRequest('"stream_options" is only allowed when "stream" is true.', "stream_options");
  if (!isJsonObject(raw)) throw invalidRequest('"stream_options" must be an object.', "stream_options");
  for (const [key, value] of Object.entries(raw)) {
    if (key !== "include_usage" && key !== "include_obfuscation")
      throw invalidRequest(`Unrecognized stream option: ${key}`, `stream_options.${key}`);
    if (typeof value !== "boolean") throw invalidRequest(`"stream_options.${key}" must be a boolean.`, `stream_options.${key}`);
  }
  return raw.include_usage === true;
}

function checkOptionalTypes(body: JsonObject): void {
  const number = (key: string, min: number, max: number): void => {
    const v = body[key];
    if (v === undefined || v === null) return;
    if (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max)
      throw invalidRequest(`"${key}" must be a number from ${min} to ${max}.`, key);
  };
  const integer = (key: string, min: number): void => {
    const v = body[key];
    if (v === undefined || v === null) return;
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min)
      throw invalidRequest(`"${key}" must be an integer of at least ${min}.`, key);
  };
  const boolean = (key: string): void => {
    const v = body[key];
    if (v !== undefined && v !== null && typeof v !== "boolean") throw invalidRequest(`"${key}" must be a boolean.`, key);
  };
  number("temperature", 0, 2);
  number("top_p", 0, 1);
  number("presence_penalty", -2, 2);
  number("frequency_penalty", -2, 2);
  integer("max_tokens", 1);
  integer("max_completion_tokens", 1);
  integer("n", 1);
  const seed = body.seed;
  if (seed !== undefined && seed !== null && (typeof seed !== "number" || !Number.isSafeInteger(seed)))
    throw invalidRequest('"seed" must be an integer.', "seed");
  boolean("stream");
  boolean("parallel_tool_calls");
  boolean("logprobs");
  if (typeof body.n === "number" && body.n > 1)
    throw invalidRequest('The mock server answers with one choice: "n" must be 1.', "n", "unsupported_value");
  const stop = body.stop;
  if (
    stop !== undefined &&
    stop !== null &&
    typeof stop !== "string" &&
    !(Array.isArray(stop) && stop.every((s) => typeof s === "string"))
  ) {
    throw invalidRequest('"stop" must be a string or an array of strings.', "stop");
  }
}

function parseMessages(raw: JsonValue | undefined): WireMessage[] {
  if (raw === undefined) throw invalidRequest('"messages" is required.', "messages");
  if (!Array.isArray(raw)) throw invalidRequest('"messages" must be an array.', "messages");
  if (raw.length === 0) throw invalidRequest('"messages" must contain at least one message.', "messages");
  const messages = raw.map((m, i) => parseMessage(m, `messages[${i}]`));
  checkToolCallPairing(messages);
  return messages;
}

function parseMessage(raw: JsonValue, path: string): WireMessage {
  if (!isJsonObject(raw)) throw invalidRequest(`${path} must be an object.`, path);
  const role = raw.role;
  if (role !== "system" && role !== "user" && role !== "assistant" && role !== "tool") {
    const shown = typeof role === "string" ? `"${role}"` : JSON.stringify(role ?? null);
    throw invalidRequest(`${path}.role must be one of "system", "user", "assistant" or "tool", got ${shown}.`, `${path}.role`);
  }
  const allowed = MESSAGE_KEYS[role];
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key)) throw invalidRequest(`${path}: a "${role}" message cannot have "${key}".`, `${path}.${key}`);
  }
  if (raw.name !== undefined && typeof raw.name !== "string") throw invalidRequest(`${path}.name must be a string.`, `${path}.name`);
  switch (role) {
    case "system":
    case "user":
      return { role, content: textContent(raw.content, `${path}.content`) };
    case "tool": {
      if (typeof raw.tool_call_id !== "string" || raw.tool_call_id === "") {
        throw invalidRequest(
          `${path}.tool_call_id is required on a "tool" message and must be a non-empty string.`,
          `${path}.tool_call_id`,
        );
      }
      return { role, content: textContent(raw.content, `${path}.content`), toolCallId: raw.tool_call_id };
    }
    case "assistant": {
      const content = raw.content === undefined || raw.content === null ? null : textContent(raw.content, `${path}.content`);
      const toolCalls = raw.tool_calls === undefined || raw.tool_calls === null ? [] : parseToolCalls(raw.tool_calls, `${path}.tool_calls`);
      if (content === null && toolCalls.length === 0) {
        throw invalidRequest(`${path}: an "assistant" message needs "content" unless it has "tool_calls".`, `${path}.content`);
      }
      return { role, content, toolCalls };
    }
  }
}

/** A string, or an array of `{ type: "text", text }` parts joined together. */
function textContent(raw: JsonValue | undefined, path: string): string {
  if (typeof raw === "string") return raw;
  if (raw === undefined || raw === null) throw invalidRequest(`${path} is required.`, path);
  if (!Array.isArray(raw)) throw invalidRequest(`${path} must be a string or an array of text parts.`, path);
  return raw
    .map((part, i) => {
      if (!isJsonObject(part) || part.type !== "text" || typeof part.text !== "string") {
        throw invalidRequest(
          `${path}[${i}] must be a text part ({ "type": "text", "text": "..." }); the mock server reads text only.`,
          `${path}[${i}]`,
        );
      }
      return part.text;
    })
    .join("");
}

function parseToolCalls(raw: JsonValue, path: string): WireToolCall[] {
  if (!Array.isArray(raw)) throw invalidRequest(`${path} must be an array.`, path);
  if (raw.length === 0) throw invalidRequest(`${path} must not be empty; leave it out when there are no calls.`, path);
  return raw.map((call, i) => {
    const at = `${path}[${i}]`;
    if (!isJsonObject(call)) throw invalidRequest(`${at} must be an object.`, at);
    if (typeof call.id !== "string" || call.id === "") throw invalidRequest(`${at}.id must be a non-empty string.`, `${at}.id`);
    if (call.type !== "function") throw invalidRequest(`${at}.type must be "function".`, `${at}.type`);
    const fn = call.function;
    if (!isJsonObject(fn)) throw invalidRequest(`${at}.function must be an object with "name" and "arguments".`, `${at}.function`);
    if (typeof fn.name !== "string" || fn.name === "")
      throw invalidRequest(`${at}.function.name must be a non-empty string.`, `${at}.function.name`);
    // Models do send invalid JSON here; it is the caller's to handle, so only the type is checked.
    if (typeof fn.arguments !== "string") {
      throw invalidRequest(`${at}.function.arguments must be a string holding the JSON arguments.`, `${at}.function.arguments`);
    }
    return { id: call.id, name: fn.name, arguments: fn.arguments };
  });
}

/**
 * Every "tool" message answers a call of the assistant message before it, and every such call is
 * answered before the conversation goes on: the structure OpenAI requires of a history with calls.
 */
export function checkToolCallPairing(messages: readonly WireMessage[]): void {
  /** The ids of the last assistant message's calls that no tool message has answered yet. */
  let open = new Set<string>();
  const unanswered = (at: number): MockLlmError =>
    invalidRequest(
      `An assistant message with "tool_calls" must be followed by one "tool" message per call; tool_call_id ${[...open].map((id) => `"${id}"`).join(", ")} has no answer before messages[${at}].`,
      `messages[${at}]`,
    );
  for (const [i, m] of messages.entries()) {
    if (m.role === "tool") {
      if (!open.delete(m.toolCallId)) {
        throw invalidRequest(
          `messages[${i}] is a "tool" message for tool_call_id "${m.toolCallId}", which no unanswered call of the preceding assistant message has.`,
          `messages[${i}].tool_call_id`,
        );
      }
      continue;
    }
    if (open.size > 0) throw unanswered(i);
    if (m.role === "assistant") {
      open = new Set();
      for (const call of m.toolCalls) {
        if (open.has(call.id))
          throw invalidRequest(`messages[${i}] has two tool calls with the id "${call.id}".`, `messages[${i}].tool_calls`);
        open.add(call.id);
      }
    }
  }
  if (open.size > 0) throw unanswered(messages.length);
}

let schemaChecker: Ajv | null = null;

function parseTools(raw: JsonValue | undefined): WireTool[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidRequest('"tools" must be an array.', "tools");
  const seen = new Set<string>();
  return raw.map((tool, i) => {
    const at = `tools[${i}]`;
    if (!isJsonObject(tool)) throw invalidRequest(`${at} must be an object.`, at);
    if (tool.type !== "function") throw invalidRequest(`${at}.type must be "function".`, `${at}.type`);
    const fn = tool.function;
    if (!isJsonObject(fn)) throw invalidRequest(`${at}.function must be an object.`, `${at}.function`);
    for (const key of Object.keys(fn)) {
      if (!["name", "description", "parameters", "strict"].includes(key))
        throw invalidRequest(`${at}.function cannot have "${key}".`, `${at}.function.${key}`);
    }
    if (typeof fn.name !== "string" || !TOOL_NAME.test(fn.name)) {
      throw invalidRequest(
        `${at}.function.name must be 1 to 64 letters, digits, underscores or dashes, got ${JSON.stringify(fn.name ?? null)}.`,
        `${at}.function.name`,
      );
    }
    if (seen.has(fn.name)) throw invalidRequest(`${at}: the tool name "${fn.name}" is offered twice.`, `${at}.function.name`);
    seen.add(fn.name);
    if (fn.description !== undefined && typeof fn.description !== "string")
      throw invalidRequest(`${at}.function.description must be a string.`, `${at}.function.description`);
    return { name: fn.name, description: fn.description ?? null, parameters: parseParameters(fn.parameters, `${at}.function.parameters`) };
  });
}

/** A JSON Schema for an object, checked against the JSON Schema meta-schema. */
export function parseParameters(raw: JsonValue | undefined, path: string): JsonObject | null {
  if (raw === undefined) return null;
  if (!isJsonObject(raw)) throw invalidRequest(`${path} must be a JSON Schema object.`, path);
  if (raw.type !== undefined && raw.type !== "object") throw invalidRequest(`${path}.type must be "object".`, `${path}.type`);
  if (raw.properties !== undefined && !isJsonObject(raw.properties))
    throw invalidRequest(`${path}.properties must be an object.`, `${path}.properties`);
  schemaChecker ??= new Ajv({ strict: false, validateSchema: false });
  if (!schemaChecker.validateSchema(raw)) {
    const first = schemaChecker.errors?.[0];
    const where = first ? `${path}${first.instancePath.replaceAll("/", ".")}` : path;
    throw invalidRequest(`${where} is not a valid JSON Schema: ${first?.message ?? "rejected by the meta-schema"}.`, where);
  }
  return raw;
}

function parseToolChoice(raw: JsonValue | undefined, tools: readonly WireTool[]): ToolChoice | null {
  if (raw === undefined || raw === null) return null;
  if (raw === "none" || raw === "auto" || raw === "required") {
    if (raw === "required" && tools.length === 0)
      throw invalidRequest('"tool_choice" is "required" but no tools are offered.', "tool_choice");
    return raw;
  }
  if (isJsonObject(raw) && raw.type === "function" && isJsonObject(raw.function) && typeof raw.function.name === "string") {
    const name = raw.function.name;
    if (!tools.some((t) => t.name === name))
      throw invalidRequest(`"tool_choice" names the tool "${name}", which is not offered.`, "tool_choice");
    return { function: name };
  }
  throw invalidRequest(
    '"tool_choice" must be "none", "auto", "required" or { "type": "function", "function": { "name": ... } }.',
    "tool_choice",
  );
}
