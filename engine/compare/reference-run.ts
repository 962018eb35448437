// "Compare with the reference": the scenario's own reference solution played on the spot by the
// scripted roles (same scenario, same seed), kept in memory as a trajectory and scored like any
// run. Deterministic, so the reference side is the same every time.
import { Episode } from "../episode/episode.js";
import type { TrajectoryHeader } from "../episode/types.js";
import { evaluate } from "../evaluation/evaluate.js";
import { createScriptedRoles, SCRIPTED_ROLE_ID } from "../roles/scripted.js";
import { TrajectoryBuilder } from "../trajectory/trajectory.js";
import type { ComparedRun } from "./compare-runs.js";

const REFERENCE_LABEL = "reference (played now)";

export async function playReference(header: TrajectoryHeader): Promise<ComparedRun> {
  const { scenario } = header;
  const roles = createScriptedRoles(scenario);
  const builder = new TrajectoryBuilder({
    ...header,
    run: { agent: SCRIPTED_ROLE_ID, user: SCRIPTED_ROLE_ID, seed: header.run.seed, options: header.run.options },
  });
  const episode = new Episode({ scenario, ...roles, seed: header.run.seed, onEvent: (e) => builder.add(e) });
  await episode.run();
  const evaluation = evaluate(scenario, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, {
    endReason: episode.ended?.reason ?? null,
  });
  return { label: REFERENCE_LABEL, trajectory: builder.build([]), evaluation };
}
