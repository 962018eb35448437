// How a set of saved runs is cut up before anything is added up, for `report`, the runs view,
// `compare --suite` and `eval` alike. Three rules, each kept here once:
// - a byte-identical copy of an earlier run (same header and events) is the same trial, counted once;
// - runs are split into groups of one agent, one user, one prompt set and one augmentation, and
//   no figure is ever computed across two groups (two agents' trials pooled describe neither);
// - within a group a scenario is one task: its trials are folded into one mean before any table,
//   interval or pass^k, and runs of an edited scenario (another scenario digest under the same
//   name) are a task of their own, named `<name>@<digest>`.
// Pure: the runs view bundles it.
import { aggregateByCategory, type CategoryRow } from "../evaluation/categories.js";
import { PASS_HAT_K_ESTIMATOR, passHatK, type PassHatKReport } from "../evaluation/pass-k.js";
import { scenarioMeanInterval, type Interval } from "../evaluation/statistics/intervals.js";
import type { Category } from "../scenario/model.js";

/** What the grouping reads of a run. */
export interface TrialKeys {
  readonly file: string;
  readonly agent: string;
  readonly user: string;
  readonly prompts: string;
  readonly augmentation: string;
  readonly scenario: string;
  /** The digest of the scenario the run played (header's scenario_digest); null or absent when unknown. */
  readonly scenario_digest?: string | null;
  /** The digest of the file's bytes; null or absent when the file was not read whole. */
  readonly content_digest?: string | null;
}

export interface Duplicate {
  readonly file: string;
  readonly copy_of: string;
}

/** The key of a run's group. Damaged files whose header did not read have no roles: "(unreadable)". */
export function groupKey(r: Pick<TrialKeys, "agent" | "user" | "prompts" | "augmentation">): string {
  if (r.agent === "" && r.user === "") return "(unreadable)";
  return `agent ${r.agent} · user ${r.user} · prompts ${r.prompts} · augmentation ${r.augmentation}`;
}

/** The records with every byte-identical copy of an earlier one (same content digest) taken out. */
export function withoutCopies<T extends Pick<TrialKeys, "file" | "content_digest">>(
  records: readonly T[],
): { records: T[]; duplicates: Duplicate[] } {
  const first = new Map<string, string>();
  const kept: T[] = [];
  const duplicates: Duplicate[] = [];
  for (const r of records) {
    const digest = r.content_digest ?? null;
    const original = digest === null ? undefined : first.get(digest);
    if (original !== undefined) {
      duplicates.push({ file: r.file, copy_of: original });
      continue;
    }
    if (digest !== null) first.set(digest, r.file);
    kept.push(r);
  }
  return { records: kept, duplicates };
}

/** The note that names the copies counted once; null when there are none. */
export function copiesNote(duplicates: readonly Duplicate[]): string | null {
  if (duplicates.length === 0) return null;
  const which = duplicates.map((d) => `${d.file} (copy of ${d.copy_of})`).join(", ");
  return `${duplicates.length} file${duplicates.length === 1 ? " is a byte-identical copy" : "s are byte-identical copies"} of another run, counted once: ${which}`;
}

/** The records split by group, the groups in key order, each group's records in the order given. */
export function byGroup<T extends Pick<TrialKeys, "agent" | "user" | "prompts" | "augmentation">>(
  records: readonly T[],
): [key: string, runs: T[]][] {
  const groups = new Map<string, T[]>();
  for (const r of records) {
    const key = groupKey(r);
    const list = groups.get(key) ?? [];
    list.push(r);
    groups.set(key, list);
  }
  return [...groups].sort(([a], [b]) => compareText(a, b));
}

type ScenarioKeys = Pick<TrialKeys, "scenario" | "scenario_digest">;

/**
 * The key a scenario's runs are pooled under within a group: its name, and its digest when the
 * group holds runs of more than one version of it (an edited scenario is another task).
 */
function scenarioKeyer(runs: readonly ScenarioKeys[]): (r: ScenarioKeys) => string {
  const versions = scenarioVersions(runs);
  return (r) => ((versions.get(r.scenario)?.size ?? 0) > 1 ? `${r.scenario}@${r.scenario_digest ?? "unknown"}` : r.scenario);
}

function scenarioVersions(runs: readonly ScenarioKeys[]): Map<string, Set<string>> {
  const versions = new Map<string, Set<string>>();
  for (const r of runs) {
    if (r.scenario_digest === undefined || r.scenario_digest === null) continue;
    const set = versions.get(r.scenario) ?? new Set<string>();
    set.add(r.scenario_digest);
    versions.set(r.scenario, set);
  }
  return versions;
}

/** One note per group and scenario run from several versions: each version counts as a scenario of its own. */
export function versionNotes(records: readonly TrialKeys[]): string[] {
  const notes: string[] = [];
  for (const [key, runs] of byGroup(records)) {
    for (const [name, digests] of [...scenarioVersions(runs)].sort(([a], [b]) => compareText(a, b))) {
      if (digests.size < 2) continue;
      const counts = [...digests].map((d) => `${d} (${runs.filter((r) => r.scenario === name && r.scenario_digest === d).length} runs)`);
      notes.push(
        `${key}: scenario ${name} was run from ${digests.size} versions of its file, ${counts.join(", ")}; each version counts as a scenario of its own, named ${name}@<digest>`,
      );
    }
  }
  return notes;
}

interface FoldedScenario<T> {
  /** The scenario's name, or `<name>@<digest>` for one version of an edited scenario. */
  readonly scenario: string;
  /** Its runs that counted, in the order given. */
  readonly runs: readonly T[];
  /** Their counted scores, in the same order. */
  readonly scores: readonly number[];
  /** The mean of `scores`: the scenario's one figure. */
  readonly score: number;
}

/**
 * The scenarios of one group's runs with a counted run each, in order of first appearance: each
 * scenario's trials folded into one mean. `countedScore` is null for a run that does not count.
 */
export function foldTrials<T extends ScenarioKeys>(runs: readonly T[], countedScore: (r: T) => number | null): FoldedScenario<T>[] {
  const keyOf = scenarioKeyer(runs);
  const by = new Map<string, { runs: T[]; scores: number[] }>();
  for (const r of runs) {
    const score = countedScore(r);
    if (score === null) continue;
    const key = keyOf(r);
    const s = by.get(key) ?? { runs: [], scores: [] };
    s.runs.push(r);
    s.scores.push(score);
    by.set(key, s);
  }
  return [...by].map(([scenario, s]) => ({ scenario, ...s, score: mean(s.scores) }));
}

/** A group's figures over its scenarios, as `report`, the runs view and `eval` give them. */
interface GroupFigures<T> {
  /** Each scenario with a counted run, its trials folded (foldTrials), with its trials' mean turns. */
  readonly scenarios: readonly (FoldedScenario<T> & { readonly turns: number })[];
  /** Mean over the scenarios of their means; null when none counted. */
  readonly score: number | null;
  /** 95% percentile bootstrap over scenarios (seeded); null under 10 scenarios. */
  readonly interval: Interval | null;
  /** The paper's per-category table, each scenario counted once with its folded score. */
  readonly categories: readonly CategoryRow[];
  /** τ-bench's pass^k, each scenario a task and its counted trials the trials; null when no scenario counted. */
  readonly pass_hat_k: (PassHatKReport & { readonly estimator: string }) | null;
}

/**
 * One group's figures: each scenario's counted trials folded into their mean first, so a scenario
 * counts once in the mean, its interval and the category table. `countedScore` is null for a run
 * that does not count; `turnsOf` is a run's turn count.
 */
export function groupFigures<T extends ScenarioKeys & { readonly categories: readonly string[] }>(
  runs: readonly T[],
  countedScore: (r: T) => number | null,
  turnsOf: (r: T) => number,
  threshold: number,
): GroupFigures<T> {
  const scenarios = foldTrials(runs, countedScore).map((s) => ({ ...s, turns: mean(s.runs.map(turnsOf)) }));
  const means = scenarios.map((s) => s.score);
  const tasks = scenarios.map((s) => ({ task: s.scenario, scores: s.scores }));
  return {
    scenarios,
    score: scenarios.length === 0 ? null : mean(means),
    interval: scenarioMeanInterval(means),
    // A record's categories are its scenario's, checked when the scenario was loaded (a run record keeps them as strings).
    categories: aggregateByCategory(
      scenarios.map((s) => ({ categories: s.runs[0]!.categories as readonly Category[], score: s.score, turn_count: s.turns })),
    ),
    pass_hat_k: tasks.length === 0 ? null : { ...passHatK(tasks, { threshold }), estimator: PASS_HAT_K_ESTIMATOR },
  };
}

export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
