// Messages on the bus and the events an episode emits. The trajectory file is these events, one
// per line, after a header; the panel, the CLI and the evaluation all read the same stream.
import type { JsonValue } from "../base/json.js";
import type { RowChange } from "../world/types.js";
import type { Scenario } from "../scenario/model.js";

export { ROLE_NAMES, type RoleName, type ToolCall, type ToolTrace } from "../base/message-parts.js";
import type { RoleName, ToolCall, ToolTrace } from "../base/message-parts.js";

/**
 * A row of the message bus (upstream SANDBOX table). Field names are the SANDBOX column names,
 * so milestone targets on SANDBOX use the same words.
 */
export interface Message {
  readonly sandbox_message_index: number;
  readonly sender: RoleName;
  readonly recipient: RoleName;
  readonly content: string;
  readonly visible_to: readonly RoleName[];
  readonly conversation_active: boolean;
  readonly openai_tool_call_id: string | null;
  readonly openai_function_name: string | null;
  readonly tool_call_exception: string | null;
  readonly tool_trace: readonly ToolTrace[] | null;
  /** The structured call on a request to the execution environment. */
  readonly tool_call?: ToolCall;
  /** Written by the scenario before any role spoke (upstream: visible_to stored as null). */
  readonly scripted?: boolean;
}

export type EndReason =
  | "end_conversation"
  | "max_messages"
  | "invalid_tool_call"
  | "script_exhausted"
  | "role_error"
  /** A model-backed role's request finally failed (HTTP error after the retries, timeout, no connection). */
  | "model_error"
  /** An agent outside the process (MCP, a command) went away before the conversation ended. */
  | "agent_disconnected"
  /** An agent outside the process ran past its time limit. */
  | "timed_out"
  | "cancelled";

export interface RunConfig {
  readonly agent: string;
  readonly user: string;
  readonly seed: number;
  /** Options that change behaviour, recorded so a replay knows how the run was made. */
  readonly options: Readonly<Record<string, JsonValue>>;
  /** How a model-backed agent was configured; absent for a scripted one. */
  readonly agent_settings?: ModelSettings;
  /** How a model-backed user simulator was configured; absent for a scripted one. */
  readonly user_settings?: ModelSettings;
}

/**
 * Every setting of a model-backed role, as the trajectory header records it. The API key is never
 * part of it: only the name of the environment variable it was read from.
 */
export interface ModelSettings {
  readonly model: string;
  /** The OpenAI-compatible endpoint, e.g. "https://api.openai.com/v1". */
  readonly base_url: string;
  /** Null: not sent, so the server's default applies (upstream sets none). */
  readonly temperature: number | null;
  readonly seed: number | null;
  readonly max_tokens: number | null;
  /** Per request attempt. */
  readonly timeout_seconds: number;
  /** Retries after the first attempt on 408, 409, 429, 5xx and connection errors. */
  readonly max_retries: number;
  readonly api_key_env: string;
}

export interface TrajectoryHeader {
  readonly type: "header";
  readonly format: "toolsandbox-trajectory";
  readonly version: 1;
  /**
   * "sha256:" and 16 hex digits: the digest of `scenario` (trajectory/scenario-digest.ts), so runs of
   * an edited scenario are told apart from runs of the original under one name. Absent in files
   * written before it was recorded; readers then compute it from `scenario`.
   */
  readonly scenario_digest?: string;
  /** The fully resolved scenario: a trajectory is self-contained for replay and re-scoring. */
  readonly scenario: Scenario;
  readonly run: RunConfig;
}

/** Token counts as the endpoint reported them (`usage` of a chat completion); a count it left out is absent. */
export interface TokenUsage {
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly total_tokens?: number;
}

/**
 * What one request to a model cost and carried: only model-backed roles make these, so a scripted
 * run has none and stays byte-identical from run to run (latency is the clock's, never the seed's).
 */
export interface ModelCall {
  readonly model: string;
  /** Wall time of the call, retries and backoff included, in whole milliseconds. */
  readonly latency_ms: number;
  /** HTTP requests made, retries included. */
  readonly attempts: number;
  /** The server's request id (x-request-id), when it sent one. */
  readonly request_id: string | null;
  /** Null when the endpoint reported no usage (or the call failed). */
  readonly usage: TokenUsage | null;
  /** Why the call finally failed; absent when it succeeded. */
  readonly error?: string;
  /** The request body as sent (absent with --no-record-io). Never holds the API key. */
  readonly request?: JsonValue;
  /** The response body as received, or the error body (absent with --no-record-io), the key blanked out. */
  readonly response?: JsonValue;
  /** Answered from the run's cache (`--cache`): nothing was sent; `usage` is what the answer cost when it was first paid for. */
  readonly cached?: { readonly usage: TokenUsage | null };
}

export type ModelCallRole = "agent" | "user";

export type EpisodeEvent =
  | { readonly type: "message"; readonly message: Message }
  /** A model call made by `role`; `index` is the index of the first message it produced (the next one). */
  | { readonly type: "model_call"; readonly role: ModelCallRole; readonly index: number; readonly call: ModelCall }
  /** World changes recorded at snapshot `index` (the index of the first response message). */
  | { readonly type: "world"; readonly index: number; readonly changes: readonly RowChange[] }
  | { readonly type: "end"; readonly reason: EndReason; readonly detail?: string; readonly message_count: number };

export type TrajectoryLine = TrajectoryHeader | EpisodeEvent;
