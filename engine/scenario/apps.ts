// Which app a tool belongs to (the pack's grouping, packs/<pack>/apps.ts), and the apps a scenario
// needs: those of the tools its reference solution calls. Per-app breakdowns of scores and counts
// (run's summary, stats, the runs view, DialogTool's tasks) are keyed by these.
import type { Scenario } from "./model.js";
import type { WorldPack } from "../packs/types.js";

/** The app of a tool; null for a tool in no app (the user's end_conversation, or an unknown name). */
export function appOf(pack: WorldPack, tool: string): string | null {
  return pack.apps.find((app) => app.tools.includes(tool))?.name ?? null;
}

/** The apps of these tools, in the pack's order of apps, each once. */
export function appsOfTools(pack: WorldPack, tools: Iterable<string>): string[] {
  const wanted = new Set<string>();
  for (const tool of tools) {
    const app = appOf(pack, tool);
    if (app !== null) wanted.add(app);
  }
  return pack.apps.map((a) => a.name).filter((name) => wanted.has(name));
}

/** The apps a scenario needs: those of the tools its reference calls (none without a reference). */
export function scenarioApps(scenario: Scenario, pack: WorldPack): string[] {
  return appsOfTools(
    pack,
    scenario.reference.flatMap((step) => (step.kind === "agent_calls" ? step.calls.map((c) => c.tool) : [])),
  );
}

/** Whether the pack marks the tool transactional: the user must confirm before it is called (DialogTool). */
export function isTransactional(pack: WorldPack, tool: string): boolean {
  return pack.apps.some((app) => app.transactional.includes(tool));
}
