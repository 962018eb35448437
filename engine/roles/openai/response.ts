// The model's answer as it arrives: JSON from a server we do not control (OpenAI, vLLM, Ollama,
// llama.cpp, a proxy), so its shape is checked here instead of trusted from the client's types.

export interface AssistantToolCall {
  /** "" when the server sent none; the role gives such calls an id of its own. */
  readonly id: string;
  readonly name: string;
  /** The argument text exactly as the model wrote it; not necessarily valid JSON. */
  readonly arguments: string;
}

export interface AssistantMessage {
  readonly content: string | null;
  readonly toolCalls: readonly AssistantToolCall[];
}

type ReadMessage = { readonly ok: true; readonly message: AssistantMessage } | { readonly ok: false; readonly problem: string };

/** The first choice's message, or what is wrong with the answer. */
export function readAssistantMessage(completion: unknown): ReadMessage {
  const fail = (problem: string): ReadMessage => ({ ok: false, problem });
  if (!isRecord(completion)) return fail("something that is not a chat completion");
  const choices = completion.choices;
  if (!Array.isArray(choices) || choices.length === 0) return fail("a chat completion without choices");
  const choice: unknown = choices[0];
  if (!isRecord(choice) || !isRecord(choice.message)) return fail("a choice without a message");
  const message = choice.message;
  if (message.content !== undefined && message.content !== null && typeof message.content !== "string") {
    return fail("a message whose content is not text");
  }
  const rawCalls = message.tool_calls ?? [];
  if (!Array.isArray(rawCalls)) return fail("tool_calls that are not a list");
  const toolCalls: AssistantToolCall[] = [];
  for (const [i, raw] of (rawCalls as unknown[]).entries()) {
    if (!isRecord(raw) || !isRecord(raw.function)) return fail(`tool call ${i + 1} without a function`);
    if (raw.type !== undefined && raw.type !== "function")
      return fail(`tool call ${i + 1} of unsupported type ${JSON.stringify(raw.type)}`);
    const { name, arguments: args } = raw.function;
    if (typeof name !== "string" || name === "") return fail(`tool call ${i + 1} without a function name`);
    // Some servers send the arguments as an object instead of JSON text; keep them as text.
    const text = typeof args === "string" ? args : args === undefined || args === null ? "" : JSON.stringify(args);
    toolCalls.push({ id: typeof raw.id === "string" ? raw.id : "", name, arguments: text });
  }
  return { ok: true, message: { content: typeof message.content === "string" ? message.content : null, toolCalls } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
