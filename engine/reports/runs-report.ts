// What a set of runs adds up to, above the table of runs. Runs are first split into groups of one
// agent, one user, one prompt set and one augmentation (trial-groups.ts, shared with `eval`, which
// also drops byte-identical copies and tells edited scenarios apart): every figure is computed within a group,
// never across groups, since pooling two agents' trials of a scenario would make pass^k and the
// means describe neither. Within a group: the paper's per-category and per-app tables (each
// scenario counted once with its trials averaged), the mean score with a 95% bootstrap interval
// over scenarios, the success rate with Wilson's interval, and τ-bench's pass^k. Only scored runs
// count; errored runs count as failures (score 0) only under `errorsAsFailures`, and damaged or
// unscored runs never. Pure: the runs view recomputes it for the rows its filter keeps.
import { aggregateByApp, type AppRow } from "../evaluation/app-rows.js";
import type { CategoryRow } from "../evaluation/categories.js";
import { CAUSE_KINDS, type CauseKind } from "../evaluation/failure-causes.js";
import { countedScore, type RunStatus, type ScoringPolicy } from "../evaluation/outcome.js";
import { isSuccess, type PassHatKReport } from "../evaluation/pass-k.js";
import { scenarioMeanInterval, wilsonInterval, type Interval } from "../evaluation/statistics/intervals.js";
import { addTelemetry, NO_TELEMETRY, type TelemetryTotals } from "../trajectory/telemetry-totals.js";
import type { RunRecord } from "./types.js";
import {
  byGroup,
  copiesNote,
  foldTrials,
  groupFigures,
  groupKey,
  mean,
  versionNotes,
  withoutCopies,
  type Duplicate,
} from "./trial-groups.js";

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
  readonly duplicates?: readonly Duplicate[];
  /** What the figures did with duplicates and with runs of edited scenarios, one sentence each. */
  readonly notes?: readonly string[];
}

export interface RunsReportOptions extends Partial<ScoringPolicy> {
  readonly threshold?: number;
}

export function runsReport(allRecords: readonly RunRecord[], options: RunsReportOptions = {}): RunsReport {
  const policy: ScoringPolicy = { errorsAsFailures: options.errorsAsFailures ?? false };
  const threshold = options.threshold ?? 1;
  const { records, duplicates } = withoutCopies(allRecords);
  const copies = copiesNote(duplicates);
  const notes = [...(copies === null ? [] : [copies]), ...versionNotes(records)];
  const suites = new Map<string, RunRecord[]>();
  let telemetry = NO_TELEMETRY;
  for (const r of records) {
    telemetry = addTelemetry(telemetry, r.telemetry);
    push(suites, `${r.suite}\u0000${groupKey(r)}`, r);
  }
  const byKey = ([a]: [string, unknown], [b]: [string, unknown]): number => (a < b ? -1 : a > b ? 1 : 0);
  return {
    ...statusCounts(records),
    errors_as_failures: policy.errorsAsFailures,
    threshold,
    groups: byGroup(records).map(([key, runs]) => groupReport(key, runs, policy, threshold)),
    suites: [...suites.entries()].sort(byKey).map(([key, runs]) => {
      const [suite = "", group = ""] = key.split("\u0000");
      const means = foldTrials(runs, (r) => countedScore(r, policy)).map((s) => s.score);
      return {
        suite,
        group,
        ...statusCounts(runs),
        score: means.length === 0 ? null : mean(means),
        interval: scenarioMeanInterval(means),
      };
    }),
    telemetry,
    ...(duplicates.length === 0 ? {} : { duplicates }),
    ...(notes.length === 0 ? {} : { notes }),
  };
}

function groupReport(key: string, runs: readonly RunRecord[], policy: ScoringPolicy, threshold: number): GroupReport {
  const first = runs[0]!;
  const figures = groupFigures(
    runs,
    (r) => countedScore(r, policy),
    (r) => r.turns ?? 0,
    threshold,
  );
  const counted = runs.flatMap((r) => {
    const score = countedScore(r, policy);
    return score === null ? [] : [score];
  });
  const successes = counted.filter((s) => isSuccess(s, threshold)).length;
  return {
    key,
    agent: first.agent,
    user: first.user,
    prompts: first.prompts,
    augmentation: first.augmentation,
    ...statusCounts(runs),
    scenarios: figures.scenarios.length,
    score: figures.score,
    interval: figures.interval,
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
    categories: figures.categories,
    apps: aggregateByApp(figures.scenarios.map((s) => ({ apps: s.runs[0]!.apps, score: s.score, turn_count: s.turns }))),
    pass_hat_k: figures.pass_hat_k,
  };
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
