// The state a played mutant or variant ends in, and what it is blamed on. A mutant: runtime-error
// (not playable), timeout (the message limit), equivalent (no observer could tell it from the
// reference), killed (under the threshold), else no-coverage or survived by whether any milestone,
// minefield or guardrail looks at a table where it differs. A variant: passed or refused.
import type { EvaluationResult } from "../evaluation/evaluate.js";
import type { Scenario } from "../scenario/model.js";
import { type MutantState, succeeds, type VariantState } from "./catalogue.js";
import type { Candidate } from "./candidate.js";
import { refusalVerdict, type StrengthEdit, survivorVerdict } from "./blame.js";
import { differingTables, observablySame, usesUnseenValue } from "./observe.js";
import type { PlayedRun } from "./play.js";
import type { ReferenceFacts } from "./reference-facts.js";

interface Judged {
  readonly state: MutantState | VariantState;
  readonly score: number | null;
  readonly killedBy: readonly string[];
  readonly node: string | null;
  readonly fix: string | null;
  readonly edit: StrengthEdit | null;
  readonly note: string | null;
}

export function blameFor(
  scenario: Scenario,
  candidate: Candidate,
  kind: "mutant" | "variant",
  facts: ReferenceFacts,
  reference: EvaluationResult,
  run: PlayedRun,
): Judged {
  const none = { killedBy: [], node: null, fix: null, edit: null, note: null };
  const result = run.evaluation;
  if (result === null) return { ...none, state: "runtime-error", score: null, note: run.error };
  const killedBy = [
    ...result.milestones.filter((m, i) => m.similarity < (reference.milestones[i]?.similarity ?? 0)).map((m) => m.id),
    ...result.minefields.filter((m, i) => m.matched_at !== null && reference.minefields[i]?.matched_at === null).map((m) => m.id),
  ];
  const passed = succeeds(result.score);
  if (kind === "variant") {
    if (passed) return { ...none, state: "passed", score: result.score };
    return { ...none, ...refusalVerdict(scenario, reference, run, result), state: "refused", score: result.score, killedBy };
  }
  if (run.end?.reason === "max_messages") return { ...none, state: "timeout", score: result.score, killedBy };
  if (observablySame(facts.run, run) && !usesUnseenValue(candidate, facts, run)) {
    const note = passed ? null : `scores ${result.score.toFixed(2)}: ${killedBy.join(", ")} checks a step that changes nothing observable`;
    return { ...none, state: "equivalent", score: result.score, note };
  }
  if (!passed) return { ...none, state: "killed", score: result.score, killedBy };
  const watched = new Set([
    ...[...result.milestones, ...result.minefields].flatMap((n) => [...n.constraints, ...n.guardrails].map((c) => c.table)),
  ]);
  const differs = differingTables(facts.run, run);
  const state: MutantState = differs.some((t) => watched.has(t)) ? "survived" : "no-coverage";
  return { ...none, ...survivorVerdict(scenario, candidate, facts.run, run), state, score: result.score };
}
