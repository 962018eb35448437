// Which ground-truth calls of one assistant turn must come after which. ToolTalk matches calls
// regardless of order, so milestones of one turn are ordered only where the task itself forces an
// order (turns are ordered among themselves by the milestone builder):
//
// - the login session: a call that needs a login comes after the login or registration made
//   earlier in the same turn; a logout or account deletion comes after the calls that needed the
//   session it ends; a login comes after the logout before it (one user at a time);
// - data: a call that uses a value the agent could only have read in an earlier call's result (an
//   id, an address, a username the user never said) comes after that call.
import type { JsonValue } from "../../../base/json.js";
import type { GroundTruthCall } from "./script.js";

/** What the dependency rules need to know about a tool. */
interface SessionRules {
  needsLogin(tool: string): boolean;
}

const OPENS_SESSION = new Set(["UserLogin", "RegisterUser"]);
const ENDS_SESSION = new Set(["LogoutUser", "DeleteAccount"]);

export const opensSession = (tool: string): boolean => OPENS_SESSION.has(tool);
const endsSession = (tool: string): boolean => ENDS_SESSION.has(tool);

/** Every string in a JSON value (list elements and nested values included). */
function strings(value: JsonValue, out: Set<string> = new Set()): Set<string> {
  if (typeof value === "string") out.add(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value !== null && typeof value === "object") for (const item of Object.values(value)) strings(item, out);
  return out;
}

/**
 * For each call (by `order`), the earlier calls of the same turn it depends on. `calls` are the
 * calls that count (those that succeeded), in order; `results` gives each call's result as it ran;
 * `known(value)` says whether the agent knew a value without any call (the user said it, or the
 * system prompt holds it).
 */
export function turnDependencies(
  calls: readonly GroundTruthCall[],
  results: ReadonlyMap<number, JsonValue>,
  rules: SessionRules,
  known: (value: string, turn: number) => boolean,
): Map<number, Set<number>> {
  const dependsOn = new Map<number, Set<number>>();
  const byTurn = new Map<number, GroundTruthCall[]>();
  for (const call of calls) byTurn.set(call.turn, [...(byTurn.get(call.turn) ?? []), call]);
  for (const turnCalls of byTurn.values()) {
    let lastSessionChange: GroundTruthCall | null = null;
    let usedSession: GroundTruthCall[] = [];
    turnCalls.forEach((call, i) => {
      const deps = new Set<number>();
      const isSessionChange = opensSession(call.tool) || endsSession(call.tool);
      if (lastSessionChange !== null && (rules.needsLogin(call.tool) || isSessionChange)) deps.add(lastSessionChange.order);
      if (endsSession(call.tool)) for (const user of usedSession) deps.add(user.order);
      const used = strings(call.arguments);
      for (const earlier of turnCalls.slice(0, i)) {
        const produced = strings(results.get(earlier.order) ?? null);
        if ([...used].some((value) => produced.has(value) && !known(value, call.turn))) deps.add(earlier.order);
      }
      deps.delete(call.order);
      dependsOn.set(call.order, deps);
      if (isSessionChange) {
        lastSessionChange = call;
        usedSession = [];
      } else if (rules.needsLogin(call.tool)) {
        usedSession.push(call);
      }
    });
  }
  return dependsOn;
}
