// The simulated user of a draft, from what the run's user said: the opening is the first message,
// the goal the user's messages in order (an author then rewrites it as a task), and a knowledge
// fact for each value the user gave that the agent then passed to a tool, named by the argument
// it went into ("The phone number is +10293847563.").
import type { JsonObject } from "../base/json.js";
import type { RunCall, RunFacts } from "./run-facts.js";
import { saidBy, tellingLeaves } from "./values.js";

export function draftUser(facts: RunFacts, kept: ReadonlySet<RunCall>, notes: string[]): JsonObject {
  const goal = facts.userTexts
    .map((t) => t.trim())
    .filter((t) => t.length > 0)
    .join(" ");
  const knowledge: JsonObject[] = [];
  const seen = new Set<string>();
  for (const call of facts.calls) {
    if (!kept.has(call)) continue;
    const earlier = facts.calls.filter((p) => p.responseIndex !== null && p.responseIndex < call.requestIndex);
    for (const [name, value] of Object.entries(call.arguments ?? {})) {
      for (const leaf of tellingLeaves(value)) {
        const text = String(leaf);
        if (seen.has(text) || !saidBy(facts.userTexts, leaf)) continue;
        // A value a tool returned first came from the world, even if the user also said it.
        if (earlier.some((p) => tellingLeaves(p.result).includes(leaf))) continue;
        seen.add(text);
        knowledge.push({ fact: `The ${name.replace(/_/g, " ")} is ${typeof leaf === "string" ? `"${text}"` : text}.`, value: text });
      }
    }
  }
  const opening = facts.opening.trim().length > 0 ? facts.opening : "(nothing)";
  if (goal.length === 0) notes.push("user: the user said nothing, so the goal is a placeholder: write the task");
  return { goal: goal.length > 0 ? goal : "(write the task here)", ...(knowledge.length > 0 ? { knowledge } : {}), opening };
}
