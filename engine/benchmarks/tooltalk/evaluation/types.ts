// ToolTalk's data as this engine reads and writes it (Farn and Shin 2023; reference peers.md A.2).
// Field names keep ToolTalk's own snake_case keys, so a conversation, a prediction or a metrics
// record looks the same here as in ToolTalk's JSON files and people who know those read ours.
import type { JsonObject, JsonValue } from "../../../base/json.js";

/** A tool call as ToolTalk writes it: the tool's name and its arguments. */
export interface ToolTalkRequest {
  readonly api_name: string;
  readonly parameters: JsonObject;
}

/**
 * A call a predictor asked for. `parameters` is null when the predictor could not parse the
 * model's arguments; such a call is recorded but never run.
 */
export interface ToolTalkPredictedRequest {
  readonly api_name: string;
  readonly parameters: JsonObject | null;
}

/** How a call ended: `response` is null when it raised, and `exception` is then its text. */
export interface ToolTalkOutcome {
  readonly response: JsonValue;
  readonly exception: string | null;
}

/** A ground-truth call with its recorded outcome. */
export interface ToolTalkCall extends ToolTalkOutcome {
  readonly request: ToolTalkRequest;
}

/** Any call with its outcome: a ground-truth call, or a predicted one as it was run. */
export interface ToolTalkCallLike extends ToolTalkOutcome {
  readonly request: ToolTalkPredictedRequest;
}

/** The account the conversation is about. The optional keys exist only when the file has them. */
export interface ToolTalkUser {
  readonly username: string;
  readonly email: string;
  readonly phone: string;
  readonly name: string;
  readonly password: string;
  /** Present when the user starts logged in. */
  readonly session_token?: string;
  /** Present when a password-reset code was already sent before the conversation. */
  readonly verification_code?: string;
}

/** What the assistant is told about its surroundings; passed to the predictor as it is. */
export interface ToolTalkMetadata {
  readonly location: string;
  /** The frozen clock, `%Y-%m-%d %H:%M:%S`. */
  readonly timestamp: string;
  readonly session_token?: string;
  readonly username?: string;
}

export interface ToolTalkUserTurn {
  readonly role: "user";
  readonly text: string;
  /** Position in the file's `conversation` array: the order that counts. */
  readonly position: number;
  /** The file's `index` field, or null where the file has none. Informative only. */
  readonly source_index: number | null;
}

export interface ToolTalkAssistantTurn {
  readonly role: "assistant";
  readonly text: string;
  /** Ground-truth calls made before this reply, in order (empty when the file has no `apis`). */
  readonly apis: readonly ToolTalkCall[];
  readonly position: number;
  readonly source_index: number | null;
}

export type ToolTalkTurn = ToolTalkUserTurn | ToolTalkAssistantTurn;

/** One change the reader made to make the file usable; see conversation.ts for the kinds. */
export interface ToolTalkNormalisation {
  readonly kind: "index-order" | "missing-index" | "trailing-user-turns" | "response-key" | "missing-scenario";
  /** JSON path of what was changed, e.g. `$.conversation[3].apis[0].response`. */
  readonly path: string;
  readonly detail: string;
}

export interface ToolTalkConversation {
  /** The file the conversation came from (as given to the reader), for messages and reports. */
  readonly file: string;
  readonly name: string;
  readonly conversation_id: string;
  readonly suites_used: readonly string[];
  readonly apis_used: readonly string[];
  /** Natural-language description of the task; null for the golden files that lack one. */
  readonly scenario: string | null;
  readonly user: ToolTalkUser;
  readonly metadata: ToolTalkMetadata;
  /** Turns in array order, without the user turns that end the file (see `trailing_user_turns`). */
  readonly turns: readonly ToolTalkTurn[];
  /** User utterances after the last assistant turn. Nobody answers them, so nothing evaluates them. */
  readonly trailing_user_turns: readonly ToolTalkUserTurn[];
  readonly normalisations: readonly ToolTalkNormalisation[];
}

/** An entry of the history the predictor sees: texts, and calls with their outcomes. */
export type ToolTalkHistoryEntry =
  | { readonly role: "user" | "assistant"; readonly text: string }
  | ({ readonly role: "api" } & ToolTalkCallLike);

/** What a predictor may return: a reply that ends the turn, or a call to run. */
export type ToolTalkPrediction =
  | { readonly role: "assistant"; readonly text: string; readonly metadata?: JsonValue }
  | { readonly role: "api"; readonly request: ToolTalkPredictedRequest; readonly metadata?: JsonValue };

/** A predicted call as the loop ran it (ToolTalk's `prediction_and_response`). */
export interface ToolTalkCallRecord extends ToolTalkCallLike {
  readonly role: "api";
  /** Whatever the predictor attached to its prediction (e.g. the model request), or null. */
  readonly metadata: JsonValue;
}

export type ToolTalkTurnPrediction =
  | ToolTalkCallRecord
  | { readonly role: "assistant"; readonly text: string; readonly metadata?: JsonValue };

/** One assistant turn of a run: what the predictor did, next to the ground truth. */
export interface ToolTalkTurnRun {
  /** The turn's position in the conversation. */
  readonly position: number;
  /** The ground-truth reply. */
  readonly text: string;
  /**
   * The ground-truth calls, with each request as it was replayed before later turns (the session
   * token injected, as ToolTalk's executor writes it into the request it is given).
   */
  readonly apis: readonly ToolTalkCall[];
  /** The predicted calls in order, then the predicted reply unless the step cap ended the turn. */
  readonly predictions: readonly ToolTalkTurnPrediction[];
  /** The predictor was still calling tools when the per-turn cap was reached. */
  readonly step_cap_reached: boolean;
}
