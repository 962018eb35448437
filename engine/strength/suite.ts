// Strength over a suite: the totals, and the tables per category and per mutator that a suite's
// report prints. Pure arithmetic over ScenarioStrength results; scenarios whose strength could
// not be measured (their reference fails) count in no figure.
import { MUTATORS, type MutantState, VARIANTS } from "./catalogue.js";
import type { OutcomeLine, ScenarioStrength } from "./strength.js";

export interface Tally {
  readonly label: string;
  readonly scenarios: number;
  readonly killed: number;
  readonly timeout: number;
  readonly survived: number;
  readonly noCoverage: number;
  readonly equivalent: number;
  readonly runtimeError: number;
  readonly ignored: number;
  /** Variants that passed, and that were refused. */
  readonly passed: number;
  readonly refused: number;
  /** detected / valid; null when nothing is valid. */
  readonly score: number | null;
}

function tally(label: string, scenarios: number, mutants: readonly OutcomeLine[], refused: number, passed = 0): Tally {
  const n = (s: MutantState): number => mutants.filter((m) => m.state === s).length;
  const detected = n("killed") + n("timeout");
  const valid = detected + n("survived") + n("no-coverage");
  return {
    label,
    scenarios,
    killed: n("killed"),
    timeout: n("timeout"),
    survived: n("survived"),
    noCoverage: n("no-coverage"),
    equivalent: n("equivalent"),
    runtimeError: n("runtime-error"),
    ignored: n("ignored"),
    passed,
    refused,
    score: valid === 0 ? null : detected / valid,
  };
}

const measured = (all: readonly ScenarioStrength[]): ScenarioStrength[] => all.filter((s) => s.error === null);

export function suiteTotal(all: readonly ScenarioStrength[]): Tally {
  const ok = measured(all);
  return tally(
    "all",
    ok.length,
    ok.flatMap((s) => s.mutants),
    ok.reduce((n, s) => n + s.refused, 0),
  );
}

/** One row per category any measured scenario has, in alphabetical order; a scenario counts in each of its categories. */
export function byCategory(all: readonly ScenarioStrength[]): Tally[] {
  const ok = measured(all);
  const categories = [...new Set(ok.flatMap((s) => s.categories))].sort();
  return categories.map((c) => {
    const these = ok.filter((s) => s.categories.includes(c));
    return tally(
      c,
      these.length,
      these.flatMap((s) => s.mutants),
      these.reduce((n, s) => n + s.refused, 0),
    );
  });
}

/** One row per mutator, in the catalogue's order; refused counts the variants (their own rows). */
export function byOperator(all: readonly ScenarioStrength[]): Tally[] {
  const ok = measured(all);
  const rows: Tally[] = MUTATORS.map((m) => {
    const lines = ok.flatMap((s) => s.mutants.filter((l) => l.operator === m));
    return tally(m, new Set(ok.filter((s) => s.mutants.some((l) => l.operator === m)).map((s) => s.scenario)).size, lines, 0);
  });
  for (const v of VARIANTS) {
    const lines = ok.flatMap((s) => s.variants.filter((l) => l.operator === v));
    if (lines.length === 0) continue;
    const scenarios = new Set(ok.filter((s) => s.variants.some((l) => l.operator === v)).map((s) => s.scenario)).size;
    rows.push({
      ...tally(v, scenarios, [], 0),
      passed: lines.filter((l) => l.state === "passed").length,
      refused: lines.filter((l) => l.state === "refused").length,
    });
  }
  return rows;
}
