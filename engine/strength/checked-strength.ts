// The editor's one scoring of a text: the reference played once, validate's findings about its
// score, then the scenario's strength measured against that same run. Playing and scoring the
// reference is the dearest single episode of a scoring (the milestone matcher runs on it), so the
// language server's worker does it once, not once for each half.
import type { Diagnostic } from "../base/diagnostics.js";
import { checkReferenceScore, referenceFindings } from "../evaluation/reference-check.js";
import type { Scenario } from "../scenario/model.js";
import type { YamlSource } from "../scenario/yaml-source.js";
import { playReference } from "./play.js";
import { type ScenarioStrength, scenarioStrength } from "./strength.js";

interface CheckedStrength {
  /** The reference's own findings, as `validate` reports them. */
  readonly findings: readonly Diagnostic[];
  /** Null when the reference has an error of its own: strength needs a reference that passes. */
  readonly strength: ScenarioStrength | null;
}

/** `scenario` must be the checked result of `src`. */
export async function checkReferenceAndStrength(scenario: Scenario, src: YamlSource): Promise<CheckedStrength> {
  const reference = await playReference(scenario, scenario.reference);
  // A run strength cannot score (it threw, or ended in a way that makes the script unplayable)
  // gets validate's own words, which score whatever the episode did; that rare case plays twice.
  const findings = reference.evaluation ? referenceFindings(reference.evaluation, src) : await checkReferenceScore(scenario, src);
  if (findings.some((d) => d.severity === "error")) return { findings, strength: null };
  return { findings, strength: await scenarioStrength(scenario, { reference }) };
}
