// The parts of a bus message that scenarios and tools speak of too: who sends, a tool call, the
// trace of a call that ran. They sit on the bottom floor because tools (a trace), scenarios (a
// sender, a reference call) and the episode (the whole message) all name them.
import type { JsonValue } from "./json.js";

export type RoleName = "system" | "user" | "agent" | "execution_environment";
export const ROLE_NAMES: readonly RoleName[] = ["system", "user", "agent", "execution_environment"];

/** A tool call as a model or script made it. `name` is the agent-facing name (scrambled if so). */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** Parsed arguments; absent when the raw text was not a JSON object. */
  readonly arguments?: Readonly<Record<string, JsonValue>>;
  /** The raw argument text when it came from a model (kept for malformed JSON). */
  readonly raw_arguments?: string;
}

/** One successful top-level tool execution (upstream tool_trace entry). */
export interface ToolTrace {
  readonly tool_name: string;
  /** Arguments with Python defaults filled in, NOT_GIVEN ones left out. */
  readonly arguments: Readonly<Record<string, JsonValue>>;
  readonly result: JsonValue;
}
