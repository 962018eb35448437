// A Responses API request (`POST /v1/responses`) as it arrives over HTTP, checked field by field
// and read as the chat request the rest of the mock plays from: `instructions` becomes the system
// message, the input items become messages (function calls in a row are one assistant turn, each
// `function_call_output` a tool message), and function tools become the offered tools. The mock
// keeps no state, so a request that leans on stored state (`previous_response_id`, `conversation`,
// a stored `prompt`) is refused: send the whole input. The first problem found is reported, with
// the path of the field at fault in `param`.
import { isJsonObject, type JsonObject, type JsonValue } from "../base/json.js";
import { invalidRequest } from "./http-error.js";
import {
  type ChatRequest,
  checkToolCallPairing,
  parseParameters,
  TOOL_NAME,
  type ToolChoice,
  type WireMessage,
  type WireTool,
  type WireToolCall,
} from "./wire.js";

export interface ResponsesRequest {
  /** The request read as a chat request: what the mock plays from. */
  readonly chat: ChatRequest;
  /** Echoed in the response object, as the service echoes them. */
  readonly instructions: string | null;
  readonly rawTools: readonly JsonObject[];
  readonly rawToolChoice: JsonValue;
  readonly store: boolean;
}

/** Request arguments the Responses API accepts. */
const KNOWN_ARGUMENTS = new Set([
  "model",
  "input",
  "instructions",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "max_tool_calls",
  "stream",
  "stream_options",
  "temperature",
  "top_p",
  "top_logprobs",
  "max_output_tokens",
  "previous_response_id",
  "conversation",
  "prompt",
  "store",
  "metadata",
  "include",
  "text",
  "reasoning",
  "truncation",
  "user",
  "safety_identifier",
  "prompt_cache_key",
  "prompt_cache_retention",
  "service_tier",
  "background",
]);

const ITEM_KEYS: Readonly<Record<string, readonly string[]>> = {
  message: ["type", "id", "role", "content", "status", "phase"],
  function_call: ["type", "id", "call_id", "name", "arguments", "status", "namespace"],
  function_call_output: ["type", "id", "call_id", "output", "status"],
  reasoning: ["type", "id", "summary", "content", "encrypted_content", "status"],
};

export function parseResponsesRequest(body: unknown): ResponsesRequest {
  if (!isJsonObject(body)) throw invalidRequest("The request body must be a JSON object.");
  for (const key of Object.keys(body)) {
    if (!KNOWN_ARGUMENTS.has(key)) throw invalidRequest(`Unknown parameter: '${key}'.`, key, "unknown_parameter");
  }
  const model = body.model;
  if (typeof model !== "string" || model === "") throw invalidRequest('"model" is required and must be a non-empty string.', "model");
  for (const key of ["previous_response_id", "conversation", "prompt"]) {
    if (body[key] !== undefined && body[key] !== null) {
      throw invalidRequest(
        `"${key}" needs state the mock server does not keep: send the whole conversation in "input" instead.`,
        key,
        "unsupported_parameter",
      );
    }
  }
  if (body.background === true)
    throw invalidRequest('"background" is not supported by the mock server.', "background", "unsupported_value");
  checkOptionalTypes(body);
  const stream = body.stream === true;
  if (body.stream_options !== undefined && body.stream_options !== null) {
    if (!stream) throw invalidRequest('"stream_options" is only allowed when "stream" is true.', "stream_options");
    if (!isJsonObject(body.stream_options)) throw invalidRequest('"stream_options" must be an object.', "stream_options");
  }
  const instructions = body.instructions ?? null;
  if (instructions !== null && typeof instructions !== "string") throw invalidRequest('"instructions" must be a string.', "instructions");
  const messages: WireMessage[] = instructions !== null ? [{ role: "system", content: instructions }] : [];
  messages.push(...parseInput(body.input));
  // Checked on the items already (with their input paths); this is the chat structure's own check.
  checkToolCallPairing(messages);
  const { tools, rawTools } = parseTools(body.tools);
  const toolChoice = parseToolChoice(body.tool_choice, tools);
  return {
    chat: {
      model,
      messages,
      tools,
      toolChoice,
      parallelToolCalls: body.parallel_tool_calls !== false,
      stream,
      includeUsage: false,
    },
    instructions,
    rawTools,
    rawToolChoice: body.tool_choice ?? "auto",
    store: body.store !== false,
  };
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
  const object = (key: string): void => {
    const v = body[key];
    if (v !== undefined && v !== null && !isJsonObject(v)) throw invalidRequest(`"${key}" must be an object.`, key);
  };
  number("temperature", 0, 2);
  number("top_p", 0, 1);
  integer("max_output_tokens", 16);
  integer("max_tool_calls", 1);
  integer("top_logprobs", 0);
  boolean("stream");
  boolean("parallel_tool_calls");
  boolean("store");
  boolean("background");
  object("metadata");
  object("text");
  object("reasoning");
  const include = body.include;
  if (include !== undefined && include !== null && !(Array.isArray(include) && include.every((i) => typeof i === "string")))
    throw invalidRequest('"include" must be an array of strings.', "include");
  const truncation = body.truncation;
  if (truncation !== undefined && truncation !== null && truncation !== "auto" && truncation !== "disabled")
    throw invalidRequest('"truncation" must be "auto" or "disabled".', "truncation");
}

/** The input as messages: a string is one user message; items are read in order. */
function parseInput(raw: JsonValue | undefined): WireMessage[] {
  if (raw === undefined || raw === null) throw invalidRequest('"input" is required.', "input");
  if (typeof raw === "string") return [{ role: "user", content: raw }];
  if (!Array.isArray(raw)) throw invalidRequest('"input" must be a string or an array of input items.', "input");
  if (raw.length === 0) throw invalidRequest('"input" must contain at least one item.', "input");
  const messages: WireMessage[] = [];
  /** Function calls in a row, gathered into one assistant turn. */
  let calls: WireToolCall[] = [];
  const flush = (): void => {
    if (calls.length > 0) messages.push({ role: "assistant", content: null, toolCalls: calls });
    calls = [];
  };
  const seenCallIds = new Set<string>();
  /** Calls of the latest function calls in a row that no output has answered yet. */
  let open = new Set<string>();
  for (const [i, item] of raw.entries()) {
    const at = `input[${i}]`;
    if (!isJsonObject(item)) throw invalidRequest(`${at} must be an object.`, at);
    const type = item.type ?? (typeof item.role === "string" ? "message" : undefined);
    if (typeof type !== "string" || !(type in ITEM_KEYS)) {
      throw invalidRequest(
        `${at}.type ${JSON.stringify(type ?? null)} is not supported by the mock server: it reads messages, function_call and function_call_output items.`,
        `${at}.type`,
      );
    }
    const allowed = ITEM_KEYS[type] ?? [];
    for (const key of Object.keys(item)) {
      if (!allowed.includes(key)) throw invalidRequest(`${at}: a "${type}" item cannot have "${key}".`, `${at}.${key}`);
    }
    if (type === "function_call") {
      const callId = nonEmpty(item.call_id, `${at}.call_id`);
      if (seenCallIds.has(callId)) throw invalidRequest(`${at}: the call_id "${callId}" is used twice.`, `${at}.call_id`);
      seenCallIds.add(callId);
      const name = nonEmpty(item.name, `${at}.name`);
      if (typeof item.arguments !== "string")
        throw invalidRequest(`${at}.arguments must be a string holding the JSON arguments.`, `${at}.arguments`);
      // A new turn of calls: the calls before it must all have their outputs.
      if (calls.length === 0) {
        checkAnswered(open, at);
        open = new Set();
      }
      calls.push({ id: callId, name, arguments: item.arguments });
      open.add(callId);
      continue;
    }
    flush();
    if (type === "function_call_output") {
      const callId = nonEmpty(item.call_id, `${at}.call_id`);
      if (!open.delete(callId))
        throw invalidRequest(`No tool call found for function call output with call_id ${callId}.`, `${at}.call_id`);
      messages.push({ role: "tool", toolCallId: callId, content: outputText(item.output, `${at}.output`) });
    } else if (type === "message") {
      checkAnswered(open, at);
      const role = item.role;
      const content = messageText(item.content, `${at}.content`);
      if (role === "system" || role === "developer") messages.push({ role: "system", content });
      else if (role === "user") messages.push({ role: "user", content });
      else if (role === "assistant") messages.push({ role: "assistant", content, toolCalls: [] });
      else
        throw invalidRequest(
          `${at}.role must be one of "user", "assistant", "system" or "developer", got ${JSON.stringify(role ?? null)}.`,
          `${at}.role`,
        );
    }
    // Reasoning items carry nothing the mock plays from.
  }
  flush();
  checkAnswered(open, "input");
  return messages;
}

/** Every function call is answered by its output before the conversation goes on. */
function checkAnswered(open: ReadonlySet<string>, at: string): void {
  const [first] = open;
  if (first !== undefined) throw invalidRequest(`No tool output found for function call ${first}.`, at);
}

function nonEmpty(raw: JsonValue | undefined, path: string): string {
  if (typeof raw !== "string" || raw === "") throw invalidRequest(`${path} must be a non-empty string.`, path);
  return raw;
}

/** A message's content: a string, or text parts (`input_text`, `output_text`, `refusal`) joined. */
function messageText(raw: JsonValue | undefined, path: string): string {
  if (typeof raw === "string") return raw;
  if (!Array.isArray(raw)) throw invalidRequest(`${path} must be a string or an array of content parts.`, path);
  return raw
    .map((part, i) => {
      if (isJsonObject(part) && (part.type === "input_text" || part.type === "output_text") && typeof part.text === "string")
        return part.text;
      if (isJsonObject(part) && part.type === "refusal" && typeof part.refusal === "string") return part.refusal;
      throw invalidRequest(
        `${path}[${i}] must be a text part ({ "type": "input_text" or "output_text", "text": "..." }); the mock server reads text only.`,
        `${path}[${i}]`,
      );
    })
    .join("");
}

/** A function call's output: a string, or `input_text` parts joined. */
function outputText(raw: JsonValue | undefined, path: string): string {
  if (typeof raw === "string") return raw;
  if (!Array.isArray(raw)) throw invalidRequest(`${path} must be a string or an array of input_text parts.`, path);
  return raw
    .map((part, i) => {
      if (isJsonObject(part) && part.type === "input_text" && typeof part.text === "string") return part.text;
      throw invalidRequest(`${path}[${i}] must be an input_text part; the mock server reads text only.`, `${path}[${i}]`);
    })
    .join("");
}

function parseTools(raw: JsonValue | undefined): { tools: WireTool[]; rawTools: JsonObject[] } {
  if (raw === undefined || raw === null) return { tools: [], rawTools: [] };
  if (!Array.isArray(raw)) throw invalidRequest('"tools" must be an array.', "tools");
  const seen = new Set<string>();
  const rawTools: JsonObject[] = [];
  const tools = raw.map((tool, i) => {
    const at = `tools[${i}]`;
    if (!isJsonObject(tool)) throw invalidRequest(`${at} must be an object.`, at);
    if (tool.type !== "function") {
      throw invalidRequest(
        `${at}.type ${JSON.stringify(tool.type ?? null)} is not supported by the mock server: it offers function tools only.`,
        `${at}.type`,
      );
    }
    for (const key of Object.keys(tool)) {
      if (!["type", "name", "description", "parameters", "strict"].includes(key))
        throw invalidRequest(`${at} cannot have "${key}".`, `${at}.${key}`);
    }
    if (typeof tool.name !== "string" || !TOOL_NAME.test(tool.name)) {
      throw invalidRequest(
        `${at}.name must be 1 to 64 letters, digits, underscores or dashes, got ${JSON.stringify(tool.name ?? null)}.`,
        `${at}.name`,
      );
    }
    if (seen.has(tool.name)) throw invalidRequest(`${at}: the tool name "${tool.name}" is offered twice.`, `${at}.name`);
    seen.add(tool.name);
    if (tool.description !== undefined && tool.description !== null && typeof tool.description !== "string")
      throw invalidRequest(`${at}.description must be a string.`, `${at}.description`);
    if (tool.strict !== undefined && tool.strict !== null && typeof tool.strict !== "boolean")
      throw invalidRequest(`${at}.strict must be a boolean.`, `${at}.strict`);
    rawTools.push(tool);
    const parameters = tool.parameters === null ? undefined : tool.parameters;
    return {
      name: tool.name,
      description: typeof tool.description === "string" ? tool.description : null,
      parameters: parseParameters(parameters, `${at}.parameters`),
    };
  });
  return { tools, rawTools };
}

function parseToolChoice(raw: JsonValue | undefined, tools: readonly WireTool[]): ToolChoice | null {
  if (raw === undefined || raw === null) return null;
  if (raw === "none" || raw === "auto" || raw === "required") {
    if (raw === "required" && tools.length === 0)
      throw invalidRequest('"tool_choice" is "required" but no tools are offered.', "tool_choice");
    return raw;
  }
  if (isJsonObject(raw) && raw.type === "function" && typeof raw.name === "string") {
    const name = raw.name;
    if (!tools.some((t) => t.name === name))
      throw invalidRequest(`"tool_choice" names the tool "${name}", which is not offered.`, "tool_choice");
    return { function: name };
  }
  throw invalidRequest('"tool_choice" must be "none", "auto", "required" or { "type": "function", "name": ... }.', "tool_choice");
}
