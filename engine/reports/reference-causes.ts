// The scenario rule of the failure causes (evaluation/failure-causes.ts): a run whose agent or user
// was blamed is blamed on the scenario instead when the scenario's own reference solution, played
// now by the scripted roles (the check `validate` makes), does not reach its milestones. Played
// once per distinct scenario; a scenario without a reference is not checked.
import { createHash } from "node:crypto";
import { failureCause } from "../evaluation/failure-causes.js";
import { scoreReference } from "../evaluation/reference-check.js";
import type { Scenario } from "../scenario/model.js";
import { readRunFile } from "../trajectory/run-damage.js";
import type { RunRecord } from "./types.js";

/** The records with the scenario rule applied to each failed run blamed on its user or agent. */
export async function withReferenceCauses(records: readonly RunRecord[], threshold = 1): Promise<RunRecord[]> {
  const misses = new Map<string, Promise<string[]>>();
  const missesOf = (scenario: Scenario): Promise<string[]> => {
    const key = createHash("sha256").update(JSON.stringify(scenario)).digest("hex");
    let found = misses.get(key);
    if (found === undefined) {
      found = scoreReference(scenario).then(
        (result) => result.milestones.filter((m) => m.similarity < 1).map((m) => m.id),
        // A reference that cannot even be played misses everything it was meant to reach.
        () => scenario.milestones.map((m) => m.id),
      );
      misses.set(key, found);
    }
    return found;
  };
  return Promise.all(
    records.map(async (r) => {
      if (r.cause === null || (r.cause.kind !== "agent" && r.cause.kind !== "user")) return r;
      const { trajectory } = readRunFile(r.file);
      if (trajectory === null || trajectory.header.scenario.reference.length === 0) return r;
      const referenceMisses = await missesOf(trajectory.header.scenario);
      if (referenceMisses.length === 0) return r;
      const cause = failureCause(
        {
          scenario: trajectory.header.scenario,
          messages: trajectory.messages,
          endReason: trajectory.endReason,
          endDetail: trajectory.end?.detail ?? null,
          evaluation: trajectory.evaluation,
          referenceMisses,
        },
        threshold,
      );
      return { ...r, cause };
    }),
  );
}
