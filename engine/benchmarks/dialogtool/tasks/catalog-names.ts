// Tool names as the agent was shown them (scrambled when the scenario says so) back to the
// catalog's, so every score compares catalog names.
import { packById } from "../../../packs/registry.js";
import { agentFacingName } from "../../../scenario/augmentations/scrambling.js";
import type { Scenario } from "../../../scenario/model.js";

/** Agent-facing tool names (scrambled when the scenario says so) back to the catalog's. */
export function catalogNames(scenario: Scenario): (name: string) => string {
  const tools = packById(scenario.world.pack).tools;
  const augmentations = scenario.options.augmentations ?? [];
  const byFacing = new Map(tools.map((t) => [agentFacingName(t.name, augmentations, tools), t.name]));
  return (name) => byFacing.get(name) ?? name;
}
