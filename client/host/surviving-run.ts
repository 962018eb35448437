// "Open Surviving Run" without the editor: the surviving mutant a strength warning names, played
// with the scripted roles into a trajectory file by the runner's episode loop (live-run.ts), as a
// scripted run is, so the replay panel opens it as it opens any saved run. The file goes in
// `.toolsandbox/strength/` (beside the runs folder, not in it: a wrong agent's run is never a
// scenario's "last run"), named after the scenario and the mutant; the same mutant again replaces
// it, with the same lines (the scripted roles and the reference seed).
import { join } from "node:path";
import type { EvaluationResult } from "../../engine/evaluation/evaluate.js";
import { REFERENCE_SEED } from "../../engine/evaluation/reference-check.js";
import { makeDirectories } from "../../engine/base/output-files.js";
import { errorMessage } from "../../engine/base/text.js";
import { createScriptedRoles } from "../../engine/roles/scripted.js";
import { checkScenarioFileSource } from "../../engine/scenario/load.js";
import { YamlSource } from "../../engine/scenario/yaml-source.js";
import { type SurvivorRef, survivorScenario } from "../../engine/strength/survivor-run.js";
import { trajectoryFileName } from "../../engine/trajectory/run-files.js";
import { playToFile } from "./live-run.js";

/** Where surviving runs go, under the workspace folder (or beside the scenario when it is in none). */
const SURVIVING_RUNS_FOLDER = ".toolsandbox/strength";

type SurvivingRun =
  | { readonly ok: true; readonly file: string; readonly label: string; readonly evaluation: EvaluationResult | null }
  | { readonly ok: false; readonly problem: string };

/** Plays the survivor `ref` of the scenario `text` (from `scenarioFile`) into a file under `root`'s SURVIVING_RUNS_FOLDER. */
export async function writeSurvivingRun(text: string, scenarioFile: string, ref: SurvivorRef, root: string): Promise<SurvivingRun> {
  const folder = join(root, SURVIVING_RUNS_FOLDER);
  const { scenario } = checkScenarioFileSource(new YamlSource(text, scenarioFile));
  if (!scenario) return { ok: false, problem: "the scenario has errors (see the Problems view), so its mutants cannot be played" };
  const mutant = await survivorScenario(scenario, ref);
  if (!mutant.ok) return mutant;
  const file = join(folder, trajectoryFileName(`${scenario.name}.survivor-${ref.mutant + 1}`));
  try {
    makeDirectories(folder);
    const outcome = await playToFile({
      scenario: mutant.scenario,
      ...createScriptedRoles(mutant.scenario),
      seed: REFERENCE_SEED,
      file,
      signal: new AbortController().signal,
      onLine: () => undefined,
    });
    return { ok: true, file, label: mutant.label, evaluation: outcome.evaluation };
  } catch (e) {
    return { ok: false, problem: errorMessage(e) };
  }
}
