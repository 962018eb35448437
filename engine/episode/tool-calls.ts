// Which tools a role may call, and checking a call before it reaches the execution environment.
// Upstream an unknown tool name or unparsable arguments crashed the scenario (reference 4.8); here
// the check yields the error text, and the scenario's invalid_tool_call option decides what happens.
import { isJsonObject, jsonDepth, jsonTextOfDeep, type JsonValue } from "../base/json.js";
import { limitValue } from "../base/limits.js";
import { pyRepr } from "../python/repr.js";
import { packById } from "../packs/registry.js";
import type { Scenario } from "../scenario/model.js";
import { agentFacingName } from "../scenario/augmentations/scrambling.js";
import type { ToolDefinition } from "../tools/types.js";
import { malformedToolCallCode, toolCallCode } from "./python-code.js";
import type { ToolCall } from "./types.js";

/**
 * The tools of the scenario's pack a role may call, in the pack's order (reference 1.5, 1.7): allow
 * list (null = all) minus deny list (deny wins), and visible to the role. end_conversation is
 * always the user's.
 */
export function toolsFor(scenario: Scenario, role: "agent" | "user"): readonly ToolDefinition[] {
  const tools = packById(scenario.world.pack).tools;
  if (role === "user") return tools.filter((t) => t.visibleTo.includes("user"));
  const { allow, deny } = scenario.tools;
  return tools.filter((t) => (allow === null || allow.includes(t.name)) && !deny.includes(t.name) && t.visibleTo.includes("agent"));
}

/**
 * The tools a role may call, keyed by the name the role calls them by: the scrambled name for the
 * agent when the scenario scrambles tool names (reference 1.10), the real name otherwise. The
 * executed code and the tool traces always use the tool's real name.
 */
export function callableTools(scenario: Scenario, role: "agent" | "user"): ReadonlyMap<string, ToolDefinition> {
  const augmentations = role === "agent" ? (scenario.options.augmentations ?? []) : [];
  const pack = packById(scenario.world.pack);
  return new Map(toolsFor(scenario, role).map((t) => [agentFacingName(t.name, augmentations, pack.tools), t]));
}

type CheckedCall =
  | { readonly ok: true; readonly tool: ToolDefinition; readonly args: Readonly<Record<string, JsonValue>> }
  /** `text` is what the agent sees (a Python-style last traceback line). */
  | { readonly ok: false; readonly text: string };

export type CallArguments =
  | { readonly ok: true; readonly args: Readonly<Record<string, JsonValue>> }
  /**
   * The text the agent sent when it was not a JSON object, or was one nested deeper than the
   * nesting limit (`tooDeep`): no tool is given such a value, since every recursive walk of it
   * (a copy, a repr, a comparison) would overflow the stack.
   */
  | { readonly ok: false; readonly raw: string; readonly tooDeep?: true };

/** Whether a value nests deeper than arguments may (docs/limits.md's nesting depth, which scenarios share). */
const tooDeep = (value: unknown): boolean => jsonDepth(value, limitValue("nestingDepth")) > limitValue("nestingDepth");

/**
 * The call's arguments as the execution environment reads them: the parsed object, else the raw
 * text parsed as JSON, else no arguments at all. Anything that is not a JSON object is malformed.
 */
export function callArguments(call: ToolCall): CallArguments {
  if (call.arguments !== undefined) {
    // Roles and trajectories are outside data: check the shape instead of trusting the type.
    if (tooDeep(call.arguments)) return { ok: false, raw: jsonTextOfDeep(call.arguments), tooDeep: true };
    return isJsonObject(call.arguments) ? { ok: true, args: call.arguments } : { ok: false, raw: JSON.stringify(call.arguments) };
  }
  if (call.raw_arguments === undefined) return { ok: true, args: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.raw_arguments);
  } catch {
    return { ok: false, raw: call.raw_arguments };
  }
  if (tooDeep(parsed)) return { ok: false, raw: call.raw_arguments, tooDeep: true };
  return isJsonObject(parsed) ? { ok: true, args: parsed } : { ok: false, raw: call.raw_arguments };
}

/** Upstream's KeyError for a name outside the available (agent-facing) names, as Python prints it. */
function unknownToolText(name: string, names: readonly string[]): string {
  const message = `Agent tool call agent_facing_tool_name=${pyRepr(name)} is not a known allowed tool. Options are available_tool_names=${pyRepr([...names])}`;
  return `KeyError: ${pyRepr(message)}`;
}

/**
 * The argument text is quoted rather than explained with the JSON parser's message: that message
 * differs between Node versions, and trajectories must not.
 */
function malformedArgumentsText(raw: string, nestedTooDeep = false): string {
  if (nestedTooDeep) return `ValueError: Tool call arguments are nested more than ${limitValue("nestingDepth")} levels deep`;
  return `ValueError: Tool call arguments are not a valid JSON object: ${pyRepr(raw)}`;
}

/** `available`: the caller's tools by the names it calls them (see callableTools). */
export function checkToolCall(call: ToolCall, available: ReadonlyMap<string, ToolDefinition>): CheckedCall {
  const tool = available.get(call.name);
  if (!tool) return { ok: false, text: unknownToolText(call.name, [...available.keys()]) };
  const args = callArguments(call);
  if (!args.ok) return { ok: false, text: malformedArgumentsText(args.raw, args.tooDeep === true) };
  return { ok: true, tool, args: args.args };
}

/**
 * The request message's content: upstream's three lines of Python, even for a call that will
 * fail. `executionName` is the tool's real name when the agent called it by a scrambled one.
 */
export function requestContent(call: ToolCall, executionName: string = call.name): string {
  const args = callArguments(call);
  return args.ok ? toolCallCode(call.id, executionName, args.args) : malformedToolCallCode(call.id, executionName, args.raw);
}

/**
 * A copy of the call with only the contract's fields and its own copy of the arguments, so what
 * the trajectory records cannot change under us. Arguments that are not a JSON object are kept
 * as raw text instead, so `arguments`, when present, is always an object.
 */
export function cleanToolCall(call: ToolCall): ToolCall {
  const given: unknown = call.arguments;
  // Too deep to copy by JSON.stringify: kept as text, which the execution environment refuses.
  if (given !== undefined && tooDeep(given))
    return { id: call.id, name: call.name, raw_arguments: call.raw_arguments ?? jsonTextOfDeep(given) };
  const copied: unknown = given === undefined ? undefined : JSON.parse(JSON.stringify(given) ?? "null");
  const raw = call.raw_arguments ?? (copied !== undefined && !isJsonObject(copied) ? JSON.stringify(copied) : undefined);
  return {
    id: call.id,
    name: call.name,
    ...(isJsonObject(copied) ? { arguments: copied } : {}),
    ...(raw !== undefined ? { raw_arguments: raw } : {}),
  };
}
