// A surviving mutant played again, so the author can watch the wrong agent the scenario passes:
// the editor's "Open Surviving Run" (docs/strength.md). The language server's finding names the
// mutant by its place in the result's list and by what it changed; the mutants are rebuilt from
// the scenario's current text in the same order, and the one found must still be the one named
// (the text may have changed since the strength was measured). What comes back is the scenario
// with the mutant's script as its reference: played with the scripted roles, as any scripted run
// is, it gives the wrong agent's trajectory.
import type { Scenario } from "../scenario/model.js";
import type { OperatorName } from "./catalogue.js";
import { isOperatorName } from "./catalogue.js";
import { playReference } from "./play.js";
import { referenceFacts } from "./reference-facts.js";
import { mutantCandidates } from "./strength.js";

/** A mutant as a strength finding names it (the finding's data). */
export interface SurvivorRef {
  /** Its index in the result's `mutants`. */
  readonly mutant: number;
  readonly operator: OperatorName;
  readonly step: number;
  readonly change: string;
}

/** The survivor named in a finding's data, or null when the data does not name one. */
export function survivorRefOf(data: unknown): SurvivorRef | null {
  if (typeof data !== "object" || data === null) return null;
  const d = data as Record<string, unknown>;
  const { mutant, operator, step, change } = d;
  if (typeof mutant !== "number" || !Number.isInteger(mutant) || mutant < 0) return null;
  if (typeof operator !== "string" || !isOperatorName(operator)) return null;
  if (typeof step !== "number" || typeof change !== "string") return null;
  return { mutant, operator, step, change };
}

type SurvivorScenario =
  | { readonly ok: true; readonly scenario: Scenario; readonly label: string }
  | { readonly ok: false; readonly problem: string };

/** The scenario whose reference is the named mutant's script. */
export async function survivorScenario(scenario: Scenario, ref: SurvivorRef): Promise<SurvivorScenario> {
  const reference = await playReference(scenario, scenario.reference);
  if (reference.evaluation === null) {
    return { ok: false, problem: `the reference cannot be played (${reference.error ?? "unknown"}), so it has no mutants` };
  }
  const candidate = mutantCandidates(scenario, referenceFacts(scenario, reference))[ref.mutant];
  const label = `${ref.operator} at step ${ref.step + 1}: ${ref.change}`;
  if (candidate === undefined || candidate.operator !== ref.operator || candidate.step !== ref.step || candidate.change !== ref.change) {
    return { ok: false, problem: `the scenario has changed since its strength was measured; ${label} is not one of its mutants now` };
  }
  return { ok: true, scenario: { ...scenario, reference: candidate.reference }, label };
}
