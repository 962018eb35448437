// What a set of runs adds up to, above the table of runs: the paper's per-category table (mean
// score and turns per category tag, each scenario counted once with its trials averaged), τ-bench's
// pass^k over the scenarios' trials, the suites, and the model calls summed.
import { aggregateByApp, type AppRow } from "../evaluation/app-rows.js";
import { aggregateByCategory, type CategoryRow } from "../evaluation/categories.js";
import { passHatK, type PassHatKReport } from "../evaluation/pass-k.js";
import type { Category } from "../scenario/model.js";
import { addTelemetry, NO_TELEMETRY, type TelemetryTotals } from "../trajectory/telemetry.js";
import type { RunRecord } from "./run-record.js";

export interface SuiteRow {
  readonly suite: string;
  readonly runs: number;
  readonly scored: number;
  /** Mean score of its scored runs; null when none was scored. */
  readonly score: number | null;
}

export interface RunsReport {
  readonly runs: number;
  readonly damaged: number;
  readonly suites: readonly SuiteRow[];
  readonly categories: readonly CategoryRow[];
  /** Mean score and turns per app the scenarios' references use, each scenario counted once with its trials averaged. */
  readonly apps: readonly AppRow[];
  /** Null when no scenario has a scored run. */
  readonly pass_hat_k: PassHatKReport | null;
  readonly telemetry: TelemetryTotals;
}

export function runsReport(records: readonly RunRecord[], threshold = 1): RunsReport {
  const byScenario = new Map<string, { categories: readonly string[]; apps: readonly string[]; scores: number[]; turns: number[] }>();
  const bySuite = new Map<string, { runs: number; scores: number[] }>();
  let telemetry = NO_TELEMETRY;
  for (const r of records) {
    telemetry = addTelemetry(telemetry, r.telemetry);
    const suite = bySuite.get(r.suite) ?? { runs: 0, scores: [] };
    suite.runs++;
    bySuite.set(r.suite, suite);
    if (r.score === null) continue;
    suite.scores.push(r.score);
    const s = byScenario.get(r.scenario) ?? { categories: r.categories, apps: r.apps, scores: [], turns: [] };
    s.scores.push(r.score);
    s.turns.push(r.turns ?? 0);
    byScenario.set(r.scenario, s);
  }
  const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  const scored = [...byScenario.values()].map((s) => ({
    categories: s.categories as readonly Category[],
    apps: s.apps,
    score: mean(s.scores),
    turn_count: mean(s.turns),
  }));
  const tasks = [...byScenario.entries()].map(([task, s]) => ({ task, scores: s.scores }));
  return {
    runs: records.length,
    damaged: records.filter((r) => r.damaged !== null).length,
    suites: [...bySuite.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([suite, s]) => ({ suite, runs: s.runs, scored: s.scores.length, score: s.scores.length === 0 ? null : mean(s.scores) })),
    categories: aggregateByCategory(scored),
    apps: aggregateByApp(scored),
    pass_hat_k: tasks.length === 0 ? null : passHatK(tasks, { threshold }),
    telemetry,
  };
}
