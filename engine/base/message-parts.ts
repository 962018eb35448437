// The parts of a bus message that scenarios and tools speak of too: who sends, a tool call, the
// trace of a call that ran. A leaf module (it imports only JSON types), so scenario/model.ts and
// tools/execute.ts can name them without importing the episode's types, which import the scenario.
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
