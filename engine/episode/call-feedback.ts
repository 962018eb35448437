// ToolScan's feedback for the agent's calls (scenario option `feedback: toolscan`, or `run
// --feedback toolscan`): before a call runs it is checked against the tool's parameters the way
// ToolScan's validator checks it, and a call that fails is answered with ToolScan's text for the
// first failing check instead of the engine's Python-style error. The checks, in ToolScan's order:
// the tool name, unknown argument names, missing required arguments, argument types.
//
// The rules and texts are those the peer metrics tag calls with (tools/toolscan-checks.ts, benchmarks/toolscan/), so a call the
// agent was told about is the call ToolScan's IFN, IAN or IAT counts. Two differences on purpose:
// - Names are the ones the agent sees (scrambled when the scenario scrambles tool names), so the
//   feedback never reveals a real tool name.
// - Arguments that are not a JSON object keep the engine's ValueError: ToolScan's format-error text
//   asks for its own "Action: ... Action Input: ..." text protocol, which a function-calling agent
//   does not speak.
// A call that passes can still fail when it runs (the tools' own type checks are Python's, where
// ToolScan lets a bool pass as a number); the agent then gets the engine's error, as ToolScan
// passes on an execution error.
import {
  invalidArgumentNameFeedback,
  invalidArgumentTypeFeedback,
  missingArgumentFeedback,
  toolScanTypeRepr,
  unknownFunctionFeedback,
  fitsToolScanType,
} from "../tools/toolscan-checks.js";
import type { Scenario } from "../scenario/model.js";
import type { ToolDefinition } from "../tools/types.js";
import { callArguments } from "./tool-calls.js";
import type { ToolCall } from "./types.js";

/**
 * ToolScan's feedback for the call, or null when ToolScan would let it run (or leaves its
 * arguments to the engine). `callable`: the agent's tools by the names it calls them, in the order
 * they are offered.
 */
export function toolScanFeedback(call: ToolCall, callable: ReadonlyMap<string, ToolDefinition>): string | null {
  const tool = callable.get(call.name);
  if (!tool) return unknownFunctionFeedback(call.name, [...callable.keys()]);
  const parsed = callArguments(call);
  if (!parsed.ok) return null;
  const args = parsed.args;
  const given = Object.keys(args);
  const parameterNames = tool.parameters.map((p) => p.name);
  const unknown = given.filter((name) => !parameterNames.includes(name));
  if (unknown.length > 0) return invalidArgumentNameFeedback(call.name, unknown, parameterNames);
  const missing = tool.parameters.filter((p) => p.required && !given.includes(p.name)).map((p) => p.name);
  if (missing.length > 0) return missingArgumentFeedback(call.name, missing);
  // In the order the call gives them, one message each (as the peer metrics' validator words it).
  const mistyped = given.flatMap((argument) => {
    const parameter = tool.parameters.find((p) => p.name === argument);
    const value = args[argument];
    return parameter && value !== undefined && !fitsToolScanType(value, parameter)
      ? [{ argument, expected: toolScanTypeRepr(parameter.type) }]
      : [];
  });
  return mistyped.length > 0 ? invalidArgumentTypeFeedback(call.name, mistyped) : null;
}

export type FeedbackStyle = "engine" | "toolscan";

/** The scenario played with `style` feedback whatever it asks for (`run --feedback`). */
export function withFeedback(scenario: Scenario, style: FeedbackStyle): Scenario {
  const { feedback: _asked, ...options } = scenario.options;
  // Left out for the engine's errors, as the resolver leaves it out.
  return { ...scenario, options: style === "toolscan" ? { ...options, feedback: "toolscan" } : options };
}

/** What a trajectory header's run options record of the feedback: `{ feedback: "toolscan" }`, or nothing for the engine's errors. */
export function feedbackRunOptions(scenario: Scenario): { readonly feedback?: "toolscan" } {
  return scenario.options.feedback === "toolscan" ? { feedback: "toolscan" } : {};
}
