// The interface between the orchestrator and whoever plays the agent and the user: a script, an
// OpenAI-compatible model, or a person. Roles see only the messages visible to them.
import type { Scenario } from "../scenario/model.js";
import type { ToolDefinition } from "../tools/types.js";
import type { EpisodeEvent, Message, ModelCall, ModelSettings, ToolCall } from "./types.js";

export interface AgentRequest {
  /** Messages visible to the agent, oldest first. */
  readonly messages: readonly Message[];
  /** Tools the agent may call (allow list minus deny list), in catalog order. */
  readonly tools: readonly ToolDefinition[];
  readonly scenario: Scenario;
  readonly signal?: AbortSignal;
  /** A model-backed role reports each request it made here, answered or failed (telemetry). */
  readonly onModelCall?: (call: ModelCall) => void;
}

export type AgentTurn =
  | { readonly kind: "text"; readonly text: string }
  /** One turn; two or more calls are parallel. */
  | { readonly kind: "calls"; readonly calls: readonly ToolCall[] };

export interface AgentRole {
  /** How the run header names it: "scripted", "openai:gpt-4o", ... */
  readonly id: string;
  /** A model-backed role's settings, for the run header (never the API key). */
  readonly settings?: ModelSettings;
  respond(request: AgentRequest): Promise<AgentTurn>;
  /**
   * Told every event of the episode, in order, after the episode's own listener. An agent whose
   * turns come from outside (MCP) answers its callers from here: a call's result, the user's
   * reply, the end. It must not throw.
   */
  observe?(event: EpisodeEvent): void;
}

export interface UserRequest {
  /** Messages visible to the user simulator, oldest first (demonstrations included). */
  readonly messages: readonly Message[];
  readonly scenario: Scenario;
  readonly signal?: AbortSignal;
  /** As AgentRequest.onModelCall. */
  readonly onModelCall?: (call: ModelCall) => void;
}

export type UserTurn = { readonly kind: "text"; readonly text: string } | { readonly kind: "end_conversation" };

export interface UserRole {
  readonly id: string;
  readonly settings?: ModelSettings;
  respond(request: UserRequest): Promise<UserTurn>;
}

/** Thrown by a role that cannot go on (a script out of step, a model that finally failed). */
export class RoleError extends Error {
  constructor(
    message: string,
    readonly reason: "role_error" | "script_exhausted" | "model_error" | "agent_disconnected" | "timed_out" = "role_error",
  ) {
    super(message);
    this.name = "RoleError";
  }
}
