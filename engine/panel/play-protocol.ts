// The messages of a run a person plays in the panel ("Play Scenario as Agent…"): the form the host
// sends (play-form.ts builds it) and the requests the form sends back. Types and constants only:
// the panel's bundle imports this file, and must not pull in the engine's tools with it.
import type { JsonValue } from "../base/json.js";

/**
 * How a field is typed in: a text, a whole or any number, true/false, one of the schema's `enum`
 * values, or (arrays, objects, and a schema with no single type) a JSON text.
 */
export type PlayFieldKind = "string" | "integer" | "number" | "boolean" | "enum" | "json";
export const PLAY_FIELD_KINDS: readonly PlayFieldKind[] = ["string", "integer", "number", "boolean", "enum", "json"];

export interface PlayField {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  readonly kind: PlayFieldKind;
  /** An enum's values, each as JSON text (the value sent is the parsed text); empty for other kinds. */
  readonly options: readonly string[];
  /** Values the world holds in columns named like the argument, as the field takes them. */
  readonly suggestions: readonly string[];
}

export interface PlayTool {
  /** The name the agent calls it by (scrambled when the scenario scrambles tool names). */
  readonly name: string;
  readonly description: string;
  readonly fields: readonly PlayField[];
}

/** Host → panel: the form, sent when a played run starts, at each of the person's turns, and at the end. */
export interface PlayFormMessage {
  readonly type: "play";
  readonly tools: readonly PlayTool[];
  /** The run waits for the person: a call or a message is taken now. */
  readonly yourTurn: boolean;
  /** Why the last call or message was refused (nothing went into the run), in one line. */
  readonly problem: string | null;
  /** The episode is over: the form stays for reading but takes nothing. */
  readonly ended: boolean;
}

/** Panel → host. */
export type PlayRequest =
  /** Call a tool with these arguments (those left empty in the form are not given). */
  | { readonly type: "play-call"; readonly tool: string; readonly arguments: Readonly<Record<string, JsonValue>> }
  /** Say this to the user; it ends the person's turn. */
  | { readonly type: "play-say"; readonly text: string }
  /** End the episode, as `/quit` does in the terminal. */
  | { readonly type: "play-quit" };
