// Scenario strength (docs/strength.md): the reference is played, then every mutant (a wrong agent
// the scenario must fail) and every variant (a right agent it must pass), each with the scripted
// user, each scored by the one evaluation. The result says, per scenario, how many wrong agents
// it catches (the mutation score), which ones pass, which right agents it refuses, and why.
import { errorMessage } from "../base/text.js";
import type { EvaluationResult } from "../evaluation/evaluate.js";
import type { Scenario } from "../scenario/model.js";
import type { StrengthEdit } from "./blame.js";
import { blameFor } from "./mutant-states.js";
import { isMutator, MUTATORS, type MutantState, type OperatorName, OPERATORS, succeeds, VARIANTS, type VariantState } from "./catalogue.js";
import type { Candidate } from "./candidate.js";
import { MUTANT_MAKERS } from "./mutants.js";
import { type PlayedRun, playReference } from "./play.js";
import { type ReferenceFacts, referenceFacts } from "./reference-facts.js";
import { VARIANT_MAKERS } from "./variants.js";

export interface OutcomeLine {
  readonly operator: OperatorName;
  readonly kind: "mutant" | "variant";
  /** 0-based step of the reference it changes. */
  readonly step: number;
  readonly call: Candidate["call"];
  readonly change: string;
  readonly state: MutantState | VariantState;
  /** The score the edited agent got; null when it was not played or could not be scored. */
  readonly score: number | null;
  /** Milestones whose similarity fell, and minefields it stepped on (Stryker's killedBy). */
  readonly killedBy: readonly string[];
  /** The milestone, minefield or `after` edge that should have decided it (survivors) or refused it (variants). */
  readonly node: string | null;
  readonly fix: string | null;
  /** The fix as an edit of the file, where one is correct by construction (the editor's quick fix). */
  readonly edit: StrengthEdit | null;
  /** Why it is runtime-error, or what an equivalent mutant scored when a milestone still told it apart. */
  readonly note: string | null;
}

export interface StateCounts {
  readonly killed: number;
  readonly survived: number;
  readonly "no-coverage": number;
  readonly timeout: number;
  readonly "runtime-error": number;
  readonly equivalent: number;
  readonly ignored: number;
}

export interface ScenarioStrength {
  readonly scenario: string;
  readonly categories: readonly string[];
  /** What the reference scored; strength needs a reference that passes. */
  readonly referenceScore: number | null;
  /** Set when strength could not be measured (the reference fails or cannot be played). */
  readonly error: string | null;
  readonly mutants: readonly OutcomeLine[];
  readonly variants: readonly OutcomeLine[];
  readonly counts: StateCounts;
  /** killed + timeout. */
  readonly detected: number;
  /** detected + survived + no-coverage. */
  readonly valid: number;
  /** detected / valid; null when no mutant is valid. */
  readonly score: number | null;
  readonly refused: number;
}

interface StrengthOptions {
  /** The operators to play; the others' mutants are listed as ignored. Default: all. */
  readonly operators?: readonly OperatorName[];
  /** The scenario's own reference, already played (`playReference(scenario, scenario.reference)`); played here when absent. */
  readonly reference?: PlayedRun;
}

export async function scenarioStrength(scenario: Scenario, options: StrengthOptions = {}): Promise<ScenarioStrength> {
  const enabled = new Set(options.operators ?? OPERATORS);
  const reference = options.reference ?? (await playReference(scenario, scenario.reference));
  const base = { scenario: scenario.name, categories: scenario.categories };
  if (reference.evaluation === null || !succeeds(reference.evaluation.score)) {
    const why =
      reference.evaluation === null
        ? `the reference cannot be played and scored (${reference.error ?? "unknown"})`
        : `the reference scores ${reference.evaluation.score.toFixed(2)}, under the threshold: fix the scenario first (toolsandbox validate)`;
    return summarize({ ...base, referenceScore: reference.evaluation?.score ?? null, error: why }, [], []);
  }
  const facts = referenceFacts(scenario, reference);
  const refEval = reference.evaluation;
  const mutants: OutcomeLine[] = [];
  for (const c of mutantCandidates(scenario, facts))
    mutants.push(enabled.has(c.operator) ? await judge(scenario, c, facts, refEval) : ignoredLine(c));
  const variants: OutcomeLine[] = [];
  for (const name of VARIANTS) {
    if (!enabled.has(name)) continue;
    for (const c of VARIANT_MAKERS[name](scenario, facts)) variants.push(await judge(scenario, c, facts, refEval));
  }
  return summarize({ ...base, referenceScore: refEval.score, error: null }, mutants, variants);
}

/** Every mutant of the scenario, in the order of the catalogue: a result's `mutants` are these, one line each. */
export function mutantCandidates(scenario: Scenario, facts: ReferenceFacts): Candidate[] {
  return MUTATORS.flatMap((name) => MUTANT_MAKERS[name](scenario, facts));
}

function ignoredLine(c: Candidate): OutcomeLine {
  return { ...lineOf(c, "mutant"), state: "ignored" };
}

function lineOf(c: Candidate, kind: "mutant" | "variant"): OutcomeLine {
  return {
    operator: c.operator,
    kind,
    step: c.step,
    call: c.call,
    change: c.change,
    state: "runtime-error",
    score: null,
    killedBy: [],
    node: null,
    fix: null,
    edit: null,
    note: null,
  };
}

async function judge(
  scenario: Scenario,
  c: Candidate,
  facts: ReturnType<typeof referenceFacts>,
  refEval: EvaluationResult,
): Promise<OutcomeLine> {
  const kind = isMutator(c.operator) ? "mutant" : "variant";
  const run = await playReference(scenario, c.reference);
  try {
    return { ...lineOf(c, kind), ...blameFor(scenario, c, kind, facts, refEval, run) };
  } catch (e) {
    return { ...lineOf(c, kind), note: `could not be judged: ${errorMessage(e)}` };
  }
}

function summarize(
  head: Pick<ScenarioStrength, "scenario" | "categories" | "referenceScore" | "error">,
  mutants: OutcomeLine[],
  variants: OutcomeLine[],
): ScenarioStrength {
  const count = (state: MutantState): number => mutants.filter((m) => m.state === state).length;
  const counts: StateCounts = {
    killed: count("killed"),
    survived: count("survived"),
    "no-coverage": count("no-coverage"),
    timeout: count("timeout"),
    "runtime-error": count("runtime-error"),
    equivalent: count("equivalent"),
    ignored: count("ignored"),
  };
  const detected = counts.killed + counts.timeout;
  const valid = detected + counts.survived + counts["no-coverage"];
  return {
    ...head,
    mutants,
    variants,
    counts,
    detected,
    valid,
    score: valid === 0 ? null : detected / valid,
    refused: variants.filter((v) => v.state === "refused").length,
  };
}
