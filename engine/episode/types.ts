// Messages on the bus and the events an episode emits. The trajectory file is these events, one
// per line, after a header; the panel, the CLI and the evaluation all read the same stream.
import type { JsonValue } from "../json.js";
import type { RowChange, Tables } from "../world/types.js";
import type { Scenario } from "../scenario/model.js";

export { ROLE_NAMES, type RoleName, type ToolCall, type ToolTrace } from "./message-parts.js";
import type { RoleName, ToolCall, ToolTrace } from "./message-parts.js";

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
  /** The fully resolved scenario: a trajectory is self-contained for replay and re-scoring. */
  readonly scenario: Scenario;
  readonly run: RunConfig;
}

export type EpisodeEvent =
  | { readonly type: "message"; readonly message: Message }
  /** World changes recorded at snapshot `index` (the index of the first response message). */
  | { readonly type: "world"; readonly index: number; readonly changes: readonly RowChange[] }
  | { readonly type: "end"; readonly reason: EndReason; readonly detail?: string; readonly message_count: number };

export type TrajectoryLine = TrajectoryHeader | EpisodeEvent;

export type { Tables };
