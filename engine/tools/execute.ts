// Running one tool call: bind, typecheck, run, and render what the agent sees. This is the part of
// upstream's execution environment that runs `print(repr(tool(**parameters)))` in its console.
import type { JsonValue } from "../base/json.js";
import type { ToolTrace } from "../base/message-parts.js";
import { pyRepr } from "../python/repr.js";
import { bindArguments, checkArgumentTypes } from "./binding.js";
import { ToolError } from "./types.js";
import type { ToolContext, ToolDefinition } from "./types.js";

export type ToolOutcome =
  /** `text` is Python's repr of the result, typed by the tool's return schema. */
  | { readonly ok: true; readonly result: JsonValue; readonly trace: ToolTrace; readonly text: string }
  /** `text` is the last traceback line, `${pyType}: ${message}`. */
  | { readonly ok: false; readonly error: ToolError; readonly text: string };

/**
 * Executes a call. A ToolError becomes a failed outcome; any other exception is a bug in the tool
 * and propagates. As upstream, a failure does not undo world changes the tool made before raising:
 * they stay in `ctx.world`, and no trace is produced.
 */
export function executeTool(def: ToolDefinition, args: Readonly<Record<string, JsonValue>>, ctx: ToolContext): ToolOutcome {
  try {
    const bound = bindArguments(def.parameters, args);
    if (def.typechecked) checkArgumentTypes(def.parameters, bound);
    const result = def.run(bound, ctx);
    return {
      ok: true,
      result,
      trace: { tool_name: def.name, arguments: bound, result },
      text: pyRepr(result, def.returns.schema),
    };
  } catch (e) {
    if (e instanceof ToolError) return { ok: false, error: e, text: e.agentText };
    throw e;
  }
}
