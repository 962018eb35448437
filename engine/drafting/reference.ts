// The run's turns as a scenario's reference solution: the agent's calls and messages, the user's
// messages after the opening, the end. A call a checked scenario could not hold (a tool the pack
// or the scenario's lists do not offer, arguments that are not an object, an unknown or missing
// argument, a value of the wrong type) is left out with a note: the run already answered it with
// an error, and the reference is what a right agent does.
import type { JsonObject, JsonValue } from "../base/json.js";
import type { ToolDefinition, ToolParameter } from "../tools/types.js";
import type { RunCall, RunFacts } from "./run-facts.js";
import { timeText } from "./time-text.js";

interface DraftReference {
  readonly steps: readonly JsonObject[];
  readonly stepOfCall: ReadonlyMap<RunCall, number>;
  /** Message index of an agent text -> its 1-based step. */
  readonly stepOfText: ReadonlyMap<number, number>;
  readonly notes: readonly string[];
}

interface ToolAccess {
  readonly toolByName: (name: string) => ToolDefinition | undefined;
  readonly allowed: (name: string) => boolean;
}

/** `now`: the clock's, for timestamp arguments written as time expressions ("now + 1d"). */
export function draftReference(facts: RunFacts, tools: ToolAccess, now: number): DraftReference {
  const steps: JsonObject[] = [];
  const stepOfCall = new Map<RunCall, number>();
  const stepOfText = new Map<number, number>();
  const notes: string[] = [];
  for (const turn of facts.turns) {
    switch (turn.kind) {
      case "calls": {
        const kept: JsonObject[] = [];
        for (const call of turn.calls) {
          const problem = callProblem(call, tools);
          if (problem !== null) {
            notes.push(`reference: left out ${call.tool || "a call"} (${call.id}): ${problem}`);
            continue;
          }
          kept.push({ tool: call.tool, arguments: argumentsText(call, tools, now) });
          stepOfCall.set(call, steps.length + 1);
        }
        if (kept.length > 0) steps.push({ calls: kept });
        break;
      }
      case "agent_text":
        steps.push({ agent: spoken(turn.text, "agent", steps.length + 1, notes) });
        stepOfText.set(turn.index, steps.length);
        break;
      case "user_text":
        steps.push({ user: spoken(turn.text, "user", steps.length + 1, notes) });
        break;
      case "end_conversation":
        steps.push({ end_conversation: true });
        break;
    }
  }
  return { steps, stepOfCall, stepOfText, notes };
}

/** A scenario's texts are never empty: an empty message keeps its turn (the order stays one a conversation has) as a placeholder. */
function spoken(text: string, who: "agent" | "user", step: number, notes: string[]): string {
  if (text.trim().length > 0) return text;
  notes.push(`reference step ${step}: the ${who} said nothing; the draft says "${EMPTY_TURN}" there`);
  return EMPTY_TURN;
}

const EMPTY_TURN = "(nothing)";

/** The call's arguments, a timestamp parameter's value relative to now as an author writes it. */
function argumentsText(call: RunCall, tools: ToolAccess, now: number): JsonObject {
  const params = new Map((tools.toolByName(call.tool)?.parameters ?? []).map((p) => [p.name, p]));
  return Object.fromEntries(
    Object.entries(call.arguments ?? {}).map(([name, value]) => [
      name,
      params.get(name)?.timestamp === true && typeof value === "number" ? timeText(value, now) : value,
    ]),
  );
}

/** Why a scenario's reference could not hold this call, or null when it can. */
function callProblem(call: RunCall, tools: ToolAccess): string | null {
  const def = tools.toolByName(call.tool);
  if (!def?.visibleTo.includes("agent")) return "no such tool in the pack";
  if (!tools.allowed(call.tool)) return "the scenario does not allow it";
  if (call.arguments === null) return "its arguments are not a JSON object";
  const byName = new Map(def.parameters.map((p) => [p.name, p]));
  const unknown = Object.keys(call.arguments).find((name) => !byName.has(name));
  if (unknown !== undefined) return `unknown argument ${unknown}`;
  const missing = def.parameters.find((p) => p.required && !(p.name in call.arguments!));
  if (missing) return `missing argument ${missing.name}`;
  const wrong = Object.entries(call.arguments).find(([name, value]) => !fits(byName.get(name)!, value));
  return wrong ? `${wrong[0]} has the wrong type` : null;
}

function fits(param: ToolParameter, value: JsonValue): boolean {
  if (value === null) return param.nullable === true || param.required === false;
  switch (param.type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value) && value.every((v) => typeof v === "string");
  }
}
