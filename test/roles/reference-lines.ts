// The lines a person would type to play a scenario's reference as the agent or the user of
// `toolsandbox play`: as the agent, a call line per call (parallel calls one after another) and
// each message; as the user, the user's messages after the opening (the end of the lines ends
// the conversation, as the reference's end_conversation does).
import { packById } from "../../engine/packs/registry.js";
import { agentFacingName } from "../../engine/scenario/augmentations/scrambling.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { callLineText } from "../../engine/tools/call-line.js";

export function referenceLines(scenario: Scenario, side: "agent" | "user"): string[] {
  const tools = packById(scenario.world.pack).tools;
  const augmentations = scenario.options.augmentations ?? [];
  return scenario.reference.flatMap((step): string[] => {
    if (side === "agent" && step.kind === "agent_text") return [step.text];
    if (side === "agent" && step.kind === "agent_calls") {
      return step.calls.map((c) => callLineText(agentFacingName(c.tool, augmentations, tools), c.arguments));
    }
    if (side === "user" && step.kind === "user_text") return [step.text];
    return [];
  });
}
