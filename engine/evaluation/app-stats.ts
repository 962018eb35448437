// `stats` by app (packs/<pack>/apps.ts): for each app, the scenarios that let the agent use it,
// the scenarios whose reference needs it, and the reference's calls of its tools. The per-tool
// rows say the same per tool; this is the view DialogTool's apps give.
import { toolsFor } from "../episode/tool-calls.js";
import { appOf, appsOfTools } from "../scenario/apps.js";
import { packById } from "../packs/registry.js";
import { PACK_IDS, type PackId } from "../packs/types.js";
import type { Scenario } from "../scenario/model.js";

export interface AppStatsRow {
  /** Set only when the scenarios span several packs (as the tool rows). */
  readonly pack?: PackId;
  readonly app: string;
  /** Scenarios whose agent may call at least one of the app's tools. */
  readonly allowed: number;
  /** Scenarios whose reference solution calls at least one of them. */
  readonly necessary: number;
  /** Calls of the app's tools across every reference solution. */
  readonly reference_calls: number;
}

/** One row per app some scenario allows or needs, in each pack's order of apps. */
export function appStatsRows(scenarios: readonly Scenario[], several: boolean): AppStatsRow[] {
  const counts = new Map<string, { allowed: number; necessary: number; reference_calls: number }>();
  const countOf = (pack: PackId, app: string) => {
    const key = `${pack}\u0000${app}`;
    const c = counts.get(key) ?? { allowed: 0, necessary: 0, reference_calls: 0 };
    counts.set(key, c);
    return c;
  };
  for (const scenario of scenarios) {
    const pack = packById(scenario.world.pack);
    const calls = scenario.reference.flatMap((step) => (step.kind === "agent_calls" ? step.calls.map((c) => c.tool) : []));
    for (const app of appsOfTools(
      pack,
      toolsFor(scenario, "agent").map((t) => t.name),
    ))
      countOf(scenario.world.pack, app).allowed += 1;
    for (const app of appsOfTools(pack, calls)) countOf(scenario.world.pack, app).necessary += 1;
    for (const tool of calls) {
      const app = appOf(pack, tool);
      if (app !== null) countOf(scenario.world.pack, app).reference_calls += 1;
    }
  }
  return PACK_IDS.flatMap((pack) =>
    packById(pack).apps.flatMap((app) => {
      const c = counts.get(`${pack}\u0000${app.name}`);
      return c ? [{ ...(several ? { pack } : {}), app: app.name, ...c }] : [];
    }),
  );
}
