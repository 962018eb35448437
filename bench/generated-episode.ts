// Plays a generated scenario (bench/wide-dag-scenario.ts, bench/chain-scenario.ts) with the
// scripted roles, through the real checker and engine: the episodes bench:eval times and the
// scale tests evaluate.
import { Episode } from "../engine/episode/episode.js";
import { createScriptedRoles } from "../engine/roles/scripted.js";
import { checkScenarioText } from "../engine/scenario/load.js";
import type { Scenario } from "../engine/scenario/model.js";

export async function playGenerated(text: string, file: string): Promise<{ scenario: Scenario; episode: Episode }> {
  const checked = checkScenarioText(text, file);
  const errors = checked.diagnostics.filter((d) => d.severity === "error");
  if (!checked.scenario || errors.length > 0)
    throw new Error(`the generated scenario has errors: ${errors.map((d) => `${d.code}: ${d.message}`).join("; ")}`);
  const scenario = checked.scenario;
  const { agent, user } = createScriptedRoles(scenario);
  const episode = new Episode({ scenario, agent, user, seed: 0 });
  await episode.run();
  return { scenario, episode };
}
