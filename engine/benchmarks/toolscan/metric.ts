// ToolScan's seven error patterns (Kokane et al., arXiv 2411.13547; reference peers.md B.3) over
// a ToolSandbox trajectory, computed the way ToolScan's code computes them:
//
// - IFE (invalid format error): the call could not be read. Here: an agent request with no
//   structured call, or arguments that are not a JSON object. Nothing else is checked then.
// - IFN (incorrect function name): the name is not among the tools offered to the agent. The
//   argument checks need the tool's schema, so nothing else is checked then either.
// - IAN (incorrect argument name): an argument the tool does not have OR a required argument left
//   out; counted once per call however many.
// - IAT (incorrect argument type): an argument the tool has whose value fails ToolScan's
//   isinstance check (str; int|float|complex; bool; a bool passes as a number since Python's bool
//   is an int). Adaptation: null passes where the ToolSandbox parameter is Optional; ToolScan's
//   specs have no Optional. One call can be both IAN and IAT, as in ToolScan's counters.
// - RAC (repeated API calls): an executed call whose name and argument object equal (Python ==)
//   an earlier executed call's, whatever either returned. This is ToolScan's rule; note it also
//   flags an identical retry after the world changed (send, enable cellular, send again).
// - IAC (insufficient API calls) and IAV (incorrect argument value) are about the reference, not
//   about single agent calls: IAC sums, per tool, how many fewer non-repeated executed calls the
//   agent made than the reference has; IAV counts reference calls whose tool the agent executed
//   but never with exactly the reference's arguments (extra arguments make it unequal).
//
// "Executed" follows ToolScan with its default feedback on: a call that fails the validator
// (IFE, IFN, IAN, IAT) would have been answered with feedback instead of run. ToolSandbox runs
// such calls and they fail, so the difference is only in what counts as executed.
//
// Accuracies are ToolScan's (N - count) / N, where ToolScan's N is its step budget (a constant
// 10); here N defaults to the scenario's max_messages, the episode's budget. IAC's accuracy is
// (reference calls - insufficient) / reference calls, 1 without reference calls (ToolScan divides
// by zero). ToolScan leaves every accuracy at 0 when nothing was executed; that artefact is not
// reproduced. ToolScan has several ground-truth alternatives and keeps the best; a scenario has
// one reference, so there is nothing to choose.
import type { JsonValue } from "../../base/json.js";
import type { Message } from "../../episode/types.js";
import { pyStrRepr } from "../../python/repr.js";
import { packById } from "../../packs/registry.js";
import type { ReferenceCall, Scenario } from "../../scenario/model.js";
import { pyEquals } from "../../python/values.js";
import { agentCalls, catalogNameOf, referenceCalls, type AgentCall } from "../../evaluation/agent-calls.js";
import type { ToolLookup } from "../../evaluation/agent-calls.js";
import {
  formatErrorFeedback,
  invalidArgumentNameFeedback,
  invalidArgumentTypeFeedback,
  missingArgumentFeedback,
  fitsToolScanType,
  toolScanTypeRepr,
  unknownFunctionFeedback,
} from "../../tools/toolscan-checks.js";

export const TOOLSCAN_PATTERNS = ["IAC", "IAV", "IAN", "IAT", "RAC", "IFN", "IFE"] as const;
export type ToolScanPattern = (typeof TOOLSCAN_PATTERNS)[number];
/** The patterns that belong to one agent call (IAC and IAV belong to reference calls). */
export type CallPattern = "IFE" | "IFN" | "IAN" | "IAT" | "RAC";

export interface ToolScanCall {
  readonly message_index: number;
  readonly call_id: string | null;
  readonly tool: string;
  readonly tags: readonly CallPattern[];
  readonly unknown_arguments: readonly string[];
  readonly missing_arguments: readonly string[];
  readonly mistyped_arguments: readonly string[];
  /** Passed ToolScan's validator, so ToolScan would have run it. */
  readonly executed: boolean;
  /** ToolScan's feedback for the first failing check, or null when the call passes. */
  readonly feedback: string | null;
}

export interface ToolScanShortfall {
  readonly tool: string;
  readonly reference_calls: number;
  readonly executed_calls: number;
  readonly missing: number;
}

export interface ToolScanResult {
  readonly calls: readonly ToolScanCall[];
  readonly counts: Readonly<Record<ToolScanPattern, number>>;
  /** N in the accuracies. */
  readonly budget: number;
  readonly accuracies: Readonly<Record<ToolScanPattern, number>>;
  /** The conversation ended (end_conversation); ToolScan's "done". */
  readonly finished: boolean;
  /** ToolScan's "sr": the mean of the seven accuracies when finished, else 0. */
  readonly error_success_rate: number;
  /** IAC per tool, for every reference tool the agent under-called. */
  readonly insufficient_calls: readonly ToolScanShortfall[];
  /** Ids of the reference calls counted by IAV. */
  readonly incorrect_values: readonly string[];
}

interface CallValidation {
  readonly tags: readonly CallPattern[];
  readonly unknown: readonly string[];
  readonly missing: readonly string[];
  readonly mistyped: readonly string[];
  readonly feedback: string | null;
}

const CLEAN: CallValidation = { tags: [], unknown: [], missing: [], mistyped: [], feedback: null };

/** ToolScan's pre-execution validator: counts every failing check, feeds back the first. */
function validateCall(call: AgentCall, available: readonly string[], tools: ToolLookup): CallValidation {
  if (call.call === null) return { ...CLEAN, tags: ["IFE"], feedback: formatErrorFeedback(null) };
  if (!call.arguments.ok) {
    // The same complaint the execution environment gives, in ToolScan's Name(message) form.
    const error = { name: "ValueError", message: `Tool call arguments are not a valid JSON object: ${pyStrRepr(call.arguments.raw)}` };
    return { ...CLEAN, tags: ["IFE"], feedback: formatErrorFeedback(error) };
  }
  if (!available.includes(call.name)) return { ...CLEAN, tags: ["IFN"], feedback: unknownFunctionFeedback(call.name, available) };
  const tool = tools(call.name);
  // An offered name the pack does not know has no schema to check against.
  if (!tool) return CLEAN;
  const args = call.arguments.args;
  const given = Object.keys(args);
  const paramNames = tool.parameters.map((p) => p.name);
  const unknown = given.filter((name) => !paramNames.includes(name));
  const missing = tool.parameters.filter((p) => p.required && !given.includes(p.name)).map((p) => p.name);
  const mistypedArgs = given.flatMap((argument) => {
    const param = tool.parameters.find((p) => p.name === argument);
    return param && !fitsToolScanType(args[argument] as JsonValue, param) ? [{ argument, expected: toolScanTypeRepr(param.type) }] : [];
  });
  const mistyped = mistypedArgs.map((m) => m.argument);
  const tags: CallPattern[] = [];
  if (unknown.length > 0 || missing.length > 0) tags.push("IAN");
  if (mistyped.length > 0) tags.push("IAT");
  const feedback =
    unknown.length > 0
      ? invalidArgumentNameFeedback(call.name, unknown, paramNames)
      : missing.length > 0
        ? missingArgumentFeedback(call.name, missing)
        : mistyped.length > 0
          ? invalidArgumentTypeFeedback(call.name, mistypedArgs)
          : null;
  return { tags, unknown, missing, mistyped, feedback };
}

/** Argument objects of the executed, non-repeated calls per tool (ToolScan's action_route). */
type Route = Map<string, Readonly<Record<string, JsonValue>>[]>;

function insufficientCalls(truths: readonly ReferenceCall[], route: Route): readonly ToolScanShortfall[] {
  const expected = new Map<string, number>();
  for (const truth of truths) expected.set(truth.tool, (expected.get(truth.tool) ?? 0) + 1);
  return [...expected].flatMap(([tool, reference_calls]) => {
    const executed_calls = route.get(tool)?.length ?? 0;
    const missing = Math.max(reference_calls - executed_calls, 0);
    return missing > 0 ? [{ tool, reference_calls, executed_calls, missing }] : [];
  });
}

function incorrectValues(truths: readonly ReferenceCall[], route: Route): readonly string[] {
  return truths
    .filter((truth) => {
      const made = route.get(truth.tool);
      return made !== undefined && !made.some((args) => pyEquals(args, truth.arguments));
    })
    .map((truth) => truth.id);
}

interface ToolScanInput {
  readonly calls: readonly AgentCall[];
  readonly truths: readonly ReferenceCall[];
  /** Tool names offered to the agent, in offered order. */
  readonly available: readonly string[];
  /** The tools of the scenario's pack by name. */
  readonly tools: ToolLookup;
  readonly budget: number;
  readonly finished: boolean;
}

function toolScanFromCalls(input: ToolScanInput): ToolScanResult {
  const route: Route = new Map();
  const calls = input.calls.map((call): ToolScanCall => {
    const checked = validateCall(call, input.available, input.tools);
    const executed = checked.feedback === null;
    const tags = [...checked.tags];
    if (executed && call.arguments.ok) {
      const made = route.get(call.name) ?? [];
      const args = call.arguments.args;
      if (made.some((earlier) => pyEquals(earlier, args))) tags.push("RAC");
      else route.set(call.name, [...made, args]);
    }
    return {
      message_index: call.message_index,
      call_id: call.call?.id ?? null,
      tool: call.name,
      tags,
      unknown_arguments: checked.unknown,
      missing_arguments: checked.missing,
      mistyped_arguments: checked.mistyped,
      executed,
      feedback: checked.feedback,
    };
  });
  const insufficient_calls = insufficientCalls(input.truths, route);
  const incorrect_values = incorrectValues(input.truths, route);
  const tagged = (pattern: CallPattern): number => calls.filter((c) => c.tags.includes(pattern)).length;
  const counts: Record<ToolScanPattern, number> = {
    IAC: insufficient_calls.reduce((sum, s) => sum + s.missing, 0),
    IAV: incorrect_values.length,
    IAN: tagged("IAN"),
    IAT: tagged("IAT"),
    RAC: tagged("RAC"),
    IFN: tagged("IFN"),
    IFE: tagged("IFE"),
  };
  const n = input.budget;
  const references = input.truths.length;
  const accuracies: Record<ToolScanPattern, number> = {
    IAC: references > 0 ? (references - counts.IAC) / references : 1,
    IAV: (n - counts.IAV) / n,
    IAN: (n - counts.IAN) / n,
    IAT: (n - counts.IAT) / n,
    RAC: (n - counts.RAC) / n,
    IFN: (n - counts.IFN) / n,
    IFE: (n - counts.IFE) / n,
  };
  const mean = TOOLSCAN_PATTERNS.reduce((sum, p) => sum + accuracies[p], 0) / TOOLSCAN_PATTERNS.length;
  return {
    calls,
    counts,
    budget: n,
    accuracies,
    finished: input.finished,
    error_success_rate: input.finished ? mean : 0,
    insufficient_calls,
    incorrect_values,
  };
}

/** The conversation was ended by end_conversation (the last message is then inactive). */
function conversationFinished(messages: readonly Message[]): boolean {
  return messages.some((m) => !m.conversation_active);
}

export function toolScanMetrics(
  scenario: Scenario,
  messages: readonly Message[],
  available: readonly string[],
  budget: number = scenario.max_messages,
): ToolScanResult {
  if (!Number.isInteger(budget) || budget < 1) throw new RangeError(`ToolScan budget must be a positive integer, got ${budget}`);
  const catalogName = catalogNameOf(scenario);
  const pack = packById(scenario.world.pack);
  return toolScanFromCalls({
    calls: agentCalls(messages, catalogName),
    truths: referenceCalls(scenario),
    available: available.map(catalogName),
    tools: (name) => pack.toolByName(name),
    budget,
    finished: conversationFinished(messages),
  });
}
