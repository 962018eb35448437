// What a set of runs adds up to, above the table of runs. Runs are first split into groups of one
// agent, one user, one prompt set and one augmentation: every figure is computed within a group,
// never across groups, since pooling two agents' trials of a scenario would make pass^k and the
// means describe neither. Within a group: the paper's per-category and per-app tables (each
// scenario counted once with its trials averaged), the mean score with a 95% bootstrap interval
// over scenarios, the success rate with Wilson's interval, and τ-bench's pass^k. Only scored runs
// count; errored runs count as failures (score 0) only under `errorsAsFailures`, and damaged or
// unscored runs never. Pure: the runs view recomputes it for the rows its filter keeps.
import { aggregateByApp, type AppRow } from "../evaluation/app-rows.js";
import { aggregateByCategory, type CategoryRow } from "../evaluation/categories.js";
import { CAUSE_KINDS, type CauseKind } from "../evaluation/failure-causes.js";
import { countedScore, type RunStatus, type ScoringPolicy } from "../evaluation/outcome.js";
import { isSuccess, PASS_HAT_K_ESTIMATOR, passHatK, type PassHatKReport } from "../evaluation/pass-k.js";
import { scenarioMeanInterval, wilsonInterval, type Interval } from "../evaluation/statistics/intervals.js";
import type { Category } from "../scenario/model.js";
import { addTelemetry, NO_TELEMETRY, type TelemetryTotals } from "../trajectory/telemetry-totals.js";
import type { RunRecord } from "./run-record.js";

export interface StatusCounts {
  readonly runs: number;
  readonly scored: number;
  readonly errored: number;
  readonly damaged: number;
  readonly unscored: number;
  /** Failed and errored runs by the party the cause rules blame (evaluation/failure-causes.ts). */
  readonly causes: Readonly<Record<CauseKind, number>>;
}

export interface SuiteRow extends StatusCounts {
  readonly suite: string;
  /** The group (see GroupReport.key) these runs of the suite belong to. */
  readonly group: string;
  /** Mean counted score over the suite's scenarios in this group (trials averaged); null when none counted. */
  readonly score: number | null;
  readonly interval: Interval | null;
}

export interface SuccessRate {
  readonly threshold: number;
  readonly successes: number;
  /** Counted runs (trials). */
  readonly trials: number;
  readonly rate: number;
  /** Wilson's 95% score interval. */
  readonly interval: Interval;
}

export interface GroupReport extends StatusCounts {
  /** "agent · user · prompts · augmentation", what the group is told apart by. */
  readonly key: string;
  readonly agent: string;
  readonly user: string;
  readonly prompts: string;
  readonly augmentation: string;
  /** Scenarios with at least one counted run. */
  readonly scenarios: number;
  /** Mean over those scenarios of their mean counted score; null when none. */
  readonly score: number | null;
  /** 95% percentile bootstrap over scenarios (seeded). */
  readonly interval: Interval | null;
  readonly success: SuccessRate | null;
  readonly categories: readonly CategoryRow[];
  readonly apps: readonly AppRow[];
  /** Null when no scenario has a counted run. */
  readonly pass_hat_k: (PassHatKReport & { readonly estimator: string }) | null;
}

export interface RunsReport extends StatusCounts {
  /** Whether errored runs counted as failures (score 0). */
  readonly errors_as_failures: boolean;
  /** A run succeeds when its score >= threshold (within 1e-6). */
  readonly threshold: number;
  readonly groups: readonly GroupReport[];
  readonly suites: readonly SuiteRow[];
  readonly telemetry: TelemetryTotals;
  /** Byte-identical copies of an earlier run (same header and events): listed in the table, counted once. */
  readonly duplicates?: readonly { readonly file: string; readonly copy_of: string }[];
  /** What the figures did with duplicates and with runs of edited scenarios, one sentence each. */
  readonly notes?: readonly string[];
}

export interface RunsReportOptions extends Partial<ScoringPolicy> {
  readonly threshold?: number;
}

/** The key of a run's group. Damaged files whose header did not read have no roles: "(unreadable)". */
export function groupKey(r: Pick<RunRecord, "agent" | "user" | "prompts" | "augmentation">): string {
  if (r.agent === "" && r.user === "") return "(unreadable)";
  return `agent ${r.agent} · user ${r.user} · prompts ${r.prompts} · augmentation ${r.augmentation}`;
}

export function runsReport(allRecords: readonly RunRecord[], options: RunsReportOptions = {}): RunsReport {
  const policy: ScoringPolicy = { errorsAsFailures: options.errorsAsFailures ?? false };
  const threshold = options.threshold ?? 1;
  const { records, duplicates } = withoutCopies(allRecords);
  const notes = [
    ...(duplicates.length === 0
      ? []
      : [
          `${duplicates.length} file${duplicates.length === 1 ? " is a byte-identical copy" : "s are byte-identical copies"} of another run, counted once: ${duplicates.map((d) => `${d.file} (copy of ${d.copy_of})`).join(", ")}`,
        ]),
    ...versionNotes(records),
  ];
  const groups = new Map<string, RunRecord[]>();
  const suites = new Map<string, RunRecord[]>();
  let telemetry = NO_TELEMETRY;
  for (const r of records) {
    telemetry = addTelemetry(telemetry, r.telemetry);
    push(groups, groupKey(r), r);
    push(suites, `${r.suite}\u0000${groupKey(r)}`, r);
  }
  const byKey = ([a]: [string, unknown], [b]: [string, unknown]): number => (a < b ? -1 : a > b ? 1 : 0);
  return {
    ...statusCounts(records),
    errors_as_failures: policy.errorsAsFailures,
    threshold,
    groups: [...groups.entries()].sort(byKey).map(([key, runs]) => groupReport(key, runs, policy, threshold)),
    suites: [...suites.entries()].sort(byKey).map(([key, runs]) => {
      const [suite = "", group = ""] = key.split("\u0000");
      const means = scenarioMeans(runs, policy);
      return {
        suite,
        group,
        ...statusCounts(runs),
        score: means.length === 0 ? null : mean(means.map((m) => m.score)),
        interval: scenarioMeanInterval(means.map((m) => m.score)),
      };
    }),
    telemetry,
    ...(duplicates.length === 0 ? {} : { duplicates }),
    ...(notes.length === 0 ? {} : { notes }),
  };
}

/** The records with every byte-identical copy of an earlier one (same content digest) taken out. */
export function withoutCopies(records: readonly RunRecord[]): {
  records: RunRecord[];
  duplicates: { file: string; copy_of: string }[];
} {
  const first = new Map<string, string>();
  const kept: RunRecord[] = [];
  const duplicates: { file: string; copy_of: string }[] = [];
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

/**
 * The key a scenario's runs are pooled under within a group: its name, and its digest when the
 * group holds runs of more than one version of it (an edited scenario is another task).
 */
function scenarioKeyer(
  runs: readonly Pick<RunRecord, "scenario" | "scenario_digest">[],
): (r: Pick<RunRecord, "scenario" | "scenario_digest">) => string {
  const versions = scenarioVersions(runs);
  return (r) => ((versions.get(r.scenario)?.size ?? 0) > 1 ? `${r.scenario}@${r.scenario_digest ?? "unknown"}` : r.scenario);
}

function scenarioVersions(runs: readonly Pick<RunRecord, "scenario" | "scenario_digest">[]): Map<string, Set<string>> {
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
function versionNotes(records: readonly RunRecord[]): string[] {
  const byGroup = new Map<string, RunRecord[]>();
  for (const r of records) push(byGroup, groupKey(r), r);
  const notes: string[] = [];
  for (const [key, runs] of [...byGroup].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const [name, digests] of [...scenarioVersions(runs)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (digests.size < 2) continue;
      const counts = [...digests].map((d) => `${d} (${runs.filter((r) => r.scenario === name && r.scenario_digest === d).length} runs)`);
      notes.push(
        `${key}: scenario ${name} was run from ${digests.size} versions of its file, ${counts.join(", ")}; each version counts as a scenario of its own, named ${name}@<digest>`,
      );
    }
  }
  return notes;
}

function groupReport(key: string, runs: readonly RunRecord[], policy: ScoringPolicy, threshold: number): GroupReport {
  const first = runs[0]!;
  const means = scenarioMeans(runs, policy);
  const counted = runs.flatMap((r) => {
    const score = countedScore(r, policy);
    return score === null ? [] : [score];
  });
  const successes = counted.filter((s) => isSuccess(s, threshold)).length;
  const scored = means.map((m) => ({ categories: m.categories as readonly Category[], apps: m.apps, score: m.score, turn_count: m.turns }));
  const tasks = means.map((m) => ({ task: m.scenario, scores: m.scores }));
  return {
    key,
    agent: first.agent,
    user: first.user,
    prompts: first.prompts,
    augmentation: first.augmentation,
    ...statusCounts(runs),
    scenarios: means.length,
    score: means.length === 0 ? null : mean(means.map((m) => m.score)),
    interval: scenarioMeanInterval(means.map((m) => m.score)),
    success:
      counted.length === 0
        ? null
        : {
            threshold,
            successes,
            trials: counted.length,
            rate: successes / counted.length,
            interval: wilsonInterval(successes, counted.length)!,
          },
    categories: aggregateByCategory(scored),
    apps: aggregateByApp(scored),
    pass_hat_k: tasks.length === 0 ? null : { ...passHatK(tasks, { threshold }), estimator: PASS_HAT_K_ESTIMATOR },
  };
}

interface ScenarioMean {
  readonly scenario: string;
  readonly categories: readonly string[];
  readonly apps: readonly string[];
  /** The counted scores of its trials, in file order. */
  readonly scores: readonly number[];
  readonly score: number;
  readonly turns: number;
}

/** Each scenario (each version of an edited one) with a counted run: its trials' counted scores and their means. */
function scenarioMeans(runs: readonly RunRecord[], policy: ScoringPolicy): ScenarioMean[] {
  const by = new Map<string, { categories: readonly string[]; apps: readonly string[]; scores: number[]; turns: number[] }>();
  const keyOf = scenarioKeyer(runs);
  for (const r of runs) {
    const score = countedScore(r, policy);
    if (score === null) continue;
    const key = keyOf(r);
    const s = by.get(key) ?? { categories: r.categories, apps: r.apps, scores: [], turns: [] };
    s.scores.push(score);
    s.turns.push(r.turns ?? 0);
    by.set(key, s);
  }
  return [...by.entries()].map(([scenario, s]) => ({ scenario, ...s, score: mean(s.scores), turns: mean(s.turns) }));
}

function statusCounts(runs: readonly Pick<RunRecord, "status" | "cause">[]): StatusCounts {
  const n = (status: RunStatus): number => runs.filter((r) => r.status === status).length;
  const causes = Object.fromEntries(CAUSE_KINDS.map((k) => [k, runs.filter((r) => r.cause?.kind === k).length])) as Record<
    CauseKind,
    number
  >;
  return { runs: runs.length, scored: n("scored"), errored: n("errored"), damaged: n("damaged"), unscored: n("unscored"), causes };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
