// One episode's conversation with a remote agent over A2A (`run --agent a2a:<url>`), with the A2A
// SDK's client: one context for the whole episode, each user message one A2A message carrying the
// episode's MCP endpoint in its metadata, each answer's text the agent's next message to the user.
// What the agent sends back is checked here, where it enters: its state, its text, the usage it reports.
// The contract is docs/agents.md ("A2A").
import { randomUUID } from "node:crypto";
import { type AgentCard, Message, type Part, Role, SendMessageRequest, Task, TaskState, type SendMessageResult } from "@a2a-js/sdk";
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from "@a2a-js/sdk/client";
import { isJsonObject, type JsonValue } from "../../base/json.js";
import { errorMessage } from "../../base/text.js";
import type { ModelCall, TokenUsage } from "../../episode/types.js";

/** The message metadata key that carries the episode's MCP endpoint (Streamable HTTP on 127.0.0.1). */
const MCP_URL_METADATA = "toolsandbox/mcp_url";
/** The metadata key (of the reply message, the task, or the task's status message) read for token usage. */
const USAGE_METADATA = "usage";

/** How long to wait between looks at a task the agent left working (it should have answered when done). */
const POLL_MS = 250;

type A2aAnswer =
  /** The agent's reply: its text goes to the user. */
  | { readonly kind: "reply"; readonly text: string; readonly call: ModelCall }
  /** The agent could not be reached, answered with an error, or failed its task: the episode ends. */
  | {
      readonly kind: "failed";
      readonly reason: "agent_disconnected" | "role_error";
      readonly detail: string;
      readonly call: ModelCall | null;
    };

interface A2aConversationOptions {
  /** The agent's base URL (its card at /.well-known/agent-card.json), or the card's own URL (ending in .json). */
  readonly url: string;
  /** The episode's MCP endpoint, sent with every message. */
  readonly mcpUrl: string;
  /** Keep each request's and answer's body in the trajectory (false: `--no-record-io`). */
  readonly recordIo: boolean;
}

export class A2aConversation {
  private client: { readonly client: Client; readonly name: string } | null = null;
  /** The episode's context: ours until the agent names its own. */
  private contextId: string = randomUUID();
  /** A task the agent left waiting for input (input-required): the next message continues it. */
  private openTask: string | null = null;
  /** Artifacts already passed on, by task and artifact id. */
  private readonly relayed = new Set<string>();

  constructor(private readonly options: A2aConversationOptions) {}

  /** The context the episode's messages go to. */
  get context(): string {
    return this.contextId;
  }

  /** Sends the user's message; resolves with the agent's reply or why there is none. Never throws. */
  async send(text: string, signal: AbortSignal): Promise<A2aAnswer> {
    let connected: { readonly client: Client; readonly name: string };
    try {
      connected = this.client ?? (await this.connect(signal));
      this.client = connected;
    } catch (error) {
      return { kind: "failed", ...this.failure(error, "read the agent card of"), call: null };
    }
    const params: SendMessageRequest = {
      tenant: "",
      message: {
        messageId: randomUUID(),
        contextId: this.contextId,
        taskId: this.openTask ?? "",
        role: Role.ROLE_USER,
        parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" }],
        metadata: { [MCP_URL_METADATA]: this.options.mcpUrl },
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: undefined,
    };
    const started = performance.now();
    const call = (fields: Partial<ModelCall> & Pick<ModelCall, "usage">): ModelCall => ({
      model: connected.name,
      latency_ms: Math.round(performance.now() - started),
      attempts: 1,
      request_id: null,
      ...(this.options.recordIo ? { request: asJson(SendMessageRequest.toJSON(params)) } : {}),
      ...fields,
    });
    let result: SendMessageResult;
    try {
      result = await connected.client.sendMessage(params, { signal });
      // A blocking send returns once the task is done or waits for input; an agent that answers
      // earlier is asked again until it is.
      while (!("messageId" in result) && isWorking(result)) {
        await delay(POLL_MS, signal);
        result = await connected.client.getTask({ tenant: "", id: result.id }, { signal });
      }
    } catch (error) {
      const failure = this.failure(error, "send a message to");
      return { kind: "failed", ...failure, call: call({ usage: null, error: failure.detail }) };
    }
    const read = this.read(result);
    const recorded = call({
      usage: read.usage,
      request_id: read.id,
      ...(this.options.recordIo ? { response: asJson("messageId" in result ? Message.toJSON(result) : Task.toJSON(result)) } : {}),
      ...(read.kind === "failed" ? { error: read.detail } : {}),
    });
    if (read.kind === "failed") return { kind: "failed", reason: "role_error", detail: read.detail, call: recorded };
    return { kind: "reply", text: read.text, call: recorded };
  }

  private async connect(signal: AbortSignal): Promise<{ readonly client: Client; readonly name: string }> {
    const fetchImpl: typeof fetch = (input, init) => fetch(input, { ...init, signal });
    // Agents still on A2A 0.3 are spoken to in 0.3 (their card says which they are).
    const legacyCompat = { enabled: true };
    const resolver = new DefaultAgentCardResolver({ fetchImpl, legacyCompat });
    const url = this.options.url;
    const card: AgentCard = new URL(url).pathname.endsWith(".json") ? await resolver.resolve(url, "") : await resolver.resolve(url);
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ legacyCompat }), new RestTransportFactory({ legacyCompat })],
        cardResolver: resolver,
      }),
    );
    const client = await factory.createFromAgentCard(card);
    return { client, name: card.name || url };
  }

  /** What the agent answered, checked: the text for the user, or why the answer is a failure. */
  private read(
    result: SendMessageResult,
  ):
    | { readonly kind: "reply"; readonly text: string; readonly usage: TokenUsage | null; readonly id: string | null }
    | { readonly kind: "failed"; readonly detail: string; readonly usage: TokenUsage | null; readonly id: string | null } {
    if ("messageId" in result) {
      this.adoptContext(result.contextId);
      this.openTask = null;
      const usage = usageOf(result.metadata);
      const text = textOf(result.parts);
      if (text === "") return { kind: "failed", detail: "the A2A agent's reply has no text for the user", usage, id: result.messageId };
      return { kind: "reply", text, usage, id: result.messageId };
    }
    this.adoptContext(result.contextId);
    const status = result.status;
    const usage = usageOf(result.metadata) ?? usageOf(status?.message?.metadata);
    const said = textOf(status?.message?.parts ?? []);
    const state = status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    const id = result.id || null;
    if (state === TaskState.TASK_STATE_COMPLETED || state === TaskState.TASK_STATE_INPUT_REQUIRED) {
      this.openTask = state === TaskState.TASK_STATE_INPUT_REQUIRED ? result.id : null;
      const text = said !== "" ? said : this.newArtifactText(result);
      if (text === "") return { kind: "failed", detail: `the A2A agent's task ${result.id} has no text for the user`, usage, id };
      return { kind: "reply", text, usage, id };
    }
    this.openTask = null;
    const why = said === "" ? "" : `: ${said}`;
    const detail =
      state === TaskState.TASK_STATE_AUTH_REQUIRED
        ? `the A2A agent's task ${result.id} asks for authentication, which the user simulator cannot give${why}`
        : `the A2A agent's task ${result.id} ended as ${stateName(state)}${why}`;
    return { kind: "failed", detail, usage, id };
  }

  private newArtifactText(task: Task): string {
    const texts: string[] = [];
    for (const artifact of task.artifacts) {
      const key = `${task.id}/${artifact.artifactId}`;
      if (this.relayed.has(key)) continue;
      this.relayed.add(key);
      const text = textOf(artifact.parts);
      if (text !== "") texts.push(text);
    }
    return texts.join("\n");
  }

  private adoptContext(contextId: string): void {
    // The agent is the authority on its contexts: if it filed the message under another, the episode continues there.
    if (contextId !== "") this.contextId = contextId;
  }

  private failure(error: unknown, doing: string): { readonly reason: "agent_disconnected" | "role_error"; readonly detail: string } {
    const unreachable = networkFailure(error);
    if (unreachable !== null)
      return { reason: "agent_disconnected", detail: `could not reach the A2A agent at ${this.options.url}: ${unreachable}` };
    return { reason: "role_error", detail: `could not ${doing} the A2A agent at ${this.options.url}: ${oneLine(errorMessage(error))}` };
  }
}

const isWorking = (task: Task): boolean =>
  task.status?.state === TaskState.TASK_STATE_SUBMITTED || task.status?.state === TaskState.TASK_STATE_WORKING;

/** The text parts of a message or artifact, one after another; other parts (files, data) are not for the user. */
function textOf(parts: readonly Part[]): string {
  return parts
    .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
    .filter((t) => t !== "")
    .join("\n");
}

function stateName(state: TaskState): string {
  switch (state) {
    case TaskState.TASK_STATE_FAILED:
      return "failed";
    case TaskState.TASK_STATE_CANCELED:
      return "canceled";
    case TaskState.TASK_STATE_REJECTED:
      return "rejected";
    default:
      return `state ${state} (neither completed nor waiting for input)`;
  }
}

const COUNT = (v: unknown): number | undefined => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : undefined);

/**
 * Token usage as the agent reports it under metadata.usage: OpenAI's chat names (prompt_tokens,
 * completion_tokens, total_tokens) or the Responses API's (input_tokens, output_tokens). Anything
 * else, or counts that are not whole non-negative numbers, is no report.
 */
export function usageOf(metadata: Readonly<Record<string, unknown>> | undefined): TokenUsage | null {
  const usage: unknown = metadata?.[USAGE_METADATA];
  if (!isJsonObject(usage)) return null;
  const prompt = COUNT(usage.prompt_tokens) ?? COUNT(usage.input_tokens);
  const completion = COUNT(usage.completion_tokens) ?? COUNT(usage.output_tokens);
  const total = COUNT(usage.total_tokens);
  if (prompt === undefined && completion === undefined && total === undefined) return null;
  return {
    ...(prompt === undefined ? {} : { prompt_tokens: prompt }),
    ...(completion === undefined ? {} : { completion_tokens: completion }),
    ...(total === undefined ? {} : { total_tokens: total }),
  };
}

/** Why a request never got an answer from the network (refused, reset, dropped), or null when it did get one. */
function networkFailure(error: unknown): string | null {
  if (!(error instanceof TypeError) || error.message !== "fetch failed") return null;
  const cause: unknown = error.cause;
  if (cause instanceof Error) {
    const code = "code" in cause && typeof cause.code === "string" ? cause.code : null;
    if (code === null) return oneLine(cause.message);
    const words = NETWORK_WORDS[code];
    // Node's own codes are worth keeping beside the words (they are what one searches for); undici's are not.
    if (words !== undefined) return code.startsWith("UND_ERR") ? words : `${words} (${code})`;
    return code;
  }
  return "the connection failed";
}

/** Node's and undici's codes for a request that got no answer, in words. */
const NETWORK_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: "nothing listens there",
  ECONNRESET: "the agent reset the connection before it answered",
  EPIPE: "the agent closed the connection while the request was sent",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "the host cannot be reached",
  ENOTFOUND: "the host name is not known",
  EAI_AGAIN: "the host name could not be looked up",
  UND_ERR_SOCKET: "the agent closed the connection before it answered",
  UND_ERR_CLOSED: "the connection was closed before the request was sent",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
  UND_ERR_HEADERS_TIMEOUT: "the agent sent no answer's headers in time",
  UND_ERR_BODY_TIMEOUT: "the agent stopped sending its answer",
};

const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();

const asJson = (value: unknown): JsonValue => JSON.parse(JSON.stringify(value ?? null)) as JsonValue;

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
