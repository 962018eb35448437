// The runs view's data at its boundary: every record and the summary, checked field by field
// (the files behind them were written by anyone). A bad record drops the whole message: the
// host builds it from files it read, so a bad one means a bug or a tampered page, not a bad run.
import type { AppRow } from "../../../engine/evaluation/app-rows.js";
import type { CategoryRow } from "../../../engine/evaluation/categories.js";
import type { PassHatKReport } from "../../../engine/evaluation/pass-k.js";
import type { RunRecord } from "../../../engine/reports/types.js";
import { CAUSE_KINDS, type CauseKind, type FailureCause } from "../../../engine/evaluation/failure-causes.js";
import type { ReviewSummary } from "../../../engine/runner/review-summary.js";
import type { RunsData } from "../../../engine/reports/runs-data.js";
import type { GroupReport, RunsReport, StatusCounts, SuccessRate, SuiteRow } from "../../../engine/reports/runs-report.js";
import type { Interval } from "../../../engine/evaluation/statistics/intervals.js";
import type { TelemetryTotals } from "../../../engine/trajectory/telemetry-totals.js";
import { bool, finite, index, list, nullable, oneOf, prop, record, str, type Reader } from "../validate/check.js";

export function runsData(value: unknown, path: string): RunsData {
  const o = record(value, path);
  if (prop(o, "type") !== "runs") throw new Error(`${path}/type must be "runs"`);
  return {
    type: "runs",
    title: str(prop(o, "title"), `${path}/title`),
    records: list(runRecord)(prop(o, "records"), `${path}/records`),
    report: report(prop(o, "report"), `${path}/report`),
  };
}

const runRecord: Reader<RunRecord> = (value, path) => {
  const o = record(value, path);
  const at = (k: string): string => `${path}/${k}`;
  return {
    file: str(prop(o, "file"), at("file")),
    suite: str(prop(o, "suite"), at("suite")),
    scenario: str(prop(o, "scenario"), at("scenario")),
    categories: list(str)(prop(o, "categories"), at("categories")),
    apps: list(str)(prop(o, "apps"), at("apps")),
    agent: str(prop(o, "agent"), at("agent")),
    user: str(prop(o, "user"), at("user")),
    prompts: str(prop(o, "prompts"), at("prompts")),
    augmentation: str(prop(o, "augmentation"), at("augmentation")),
    seed: nullable(index)(prop(o, "seed"), at("seed")),
    trial: nullable(index)(prop(o, "trial"), at("trial")),
    status: oneOf(["scored", "errored", "damaged", "unscored"] as const)(prop(o, "status"), at("status")),
    score: nullable(finite)(prop(o, "score"), at("score")),
    recorded_score: nullable(finite)(prop(o, "recorded_score"), at("recorded_score")),
    turns: nullable(finite)(prop(o, "turns"), at("turns")),
    messages: index(prop(o, "messages"), at("messages")),
    end_reason: nullable(str)(prop(o, "end_reason"), at("end_reason")),
    // Absent in records from before the role-play column: not judged.
    role_play: prop(o, "role_play") === undefined ? null : nullable(finite)(prop(o, "role_play"), at("role_play")),
    error: nullable(str)(prop(o, "error"), at("error")),
    telemetry: telemetry(prop(o, "telemetry"), at("telemetry")),
    date: finite(prop(o, "date"), at("date")),
    damaged: nullable(str)(prop(o, "damaged"), at("damaged")),
    damaged_line: nullable(index)(prop(o, "damaged_line"), at("damaged_line")),
    // Absent in records from before the digests: not known.
    scenario_digest: prop(o, "scenario_digest") === undefined ? null : nullable(str)(prop(o, "scenario_digest"), at("scenario_digest")),
    content_digest: prop(o, "content_digest") === undefined ? null : nullable(str)(prop(o, "content_digest"), at("content_digest")),
    cause: nullable(failureCause)(prop(o, "cause"), at("cause")),
    // Absent in records from before the reviewer: not reviewed.
    ...(prop(o, "review") === undefined ? {} : { review: reviewSummary(prop(o, "review"), at("review")) }),
  };
};

const reviewSummary: Reader<ReviewSummary> = (value, path) => {
  const o = record(value, path);
  return {
    reviewer: str(prop(o, "reviewer"), `${path}/reviewer`),
    kind: nullable(oneOf(CAUSE_KINDS))(prop(o, "kind"), `${path}/kind`),
    reason: str(prop(o, "reason"), `${path}/reason`),
  };
};

const failureCause: Reader<FailureCause> = (value, path) => {
  const o = record(value, path);
  return {
    kind: oneOf(CAUSE_KINDS)(prop(o, "kind"), `${path}/kind`),
    rule: str(prop(o, "rule"), `${path}/rule`),
    message: nullable(index)(prop(o, "message"), `${path}/message`),
    evidence: str(prop(o, "evidence"), `${path}/evidence`),
  };
};

const telemetry: Reader<TelemetryTotals> = (value, path) => {
  const o = record(value, path);
  const n = (k: keyof TelemetryTotals): number => index(prop(o, k), `${path}/${k}`);
  return {
    calls: n("calls"),
    failed_calls: n("failed_calls"),
    latency_ms: n("latency_ms"),
    prompt_tokens: n("prompt_tokens"),
    completion_tokens: n("completion_tokens"),
    total_tokens: n("total_tokens"),
  };
};

const interval: Reader<Interval> = (value, path) => {
  const o = record(value, path);
  return { low: finite(prop(o, "low"), `${path}/low`), high: finite(prop(o, "high"), `${path}/high`) };
};

function statusCounts(o: Readonly<Record<string, unknown>>, path: string): StatusCounts {
  const n = (k: Exclude<keyof StatusCounts, "causes">): number => index(prop(o, k), `${path}/${k}`);
  const causes = record(prop(o, "causes"), `${path}/causes`);
  const counts = Object.fromEntries(CAUSE_KINDS.map((k) => [k, index(prop(causes, k), `${path}/causes/${k}`)])) as Record<
    CauseKind,
    number
  >;
  return { runs: n("runs"), scored: n("scored"), errored: n("errored"), damaged: n("damaged"), unscored: n("unscored"), causes: counts };
}

const suiteRow: Reader<SuiteRow> = (value, path) => {
  const o = record(value, path);
  return {
    suite: str(prop(o, "suite"), `${path}/suite`),
    group: str(prop(o, "group"), `${path}/group`),
    ...statusCounts(o, path),
    score: nullable(finite)(prop(o, "score"), `${path}/score`),
    interval: nullable(interval)(prop(o, "interval"), `${path}/interval`),
  };
};

/** What the per-category and per-app rows share: how many scenarios, their mean score with its interval, and turns. */
function means(
  o: Readonly<Record<string, unknown>>,
  path: string,
): { scenarios: number; score: number; interval: Interval | null; turn_count: number } {
  const at = (k: string): string => `${path}/${k}`;
  return {
    scenarios: index(prop(o, "scenarios"), at("scenarios")),
    score: finite(prop(o, "score"), at("score")),
    interval: nullable(interval)(prop(o, "interval"), at("interval")),
    turn_count: finite(prop(o, "turn_count"), at("turn_count")),
  };
}

const categoryRow: Reader<CategoryRow> = (value, path) => {
  const o = record(value, path);
  const category = str(prop(o, "category"), `${path}/category`) as CategoryRow["category"];
  return { category, group: oneOf(["scenario", "augmentation", "all"] as const)(prop(o, "group"), `${path}/group`), ...means(o, path) };
};

const appRow: Reader<AppRow> = (value, path) => {
  const o = record(value, path);
  return { app: str(prop(o, "app"), `${path}/app`), ...means(o, path) };
};

const passHatK: Reader<PassHatKReport & { estimator: string }> = (value, path) => {
  const o = record(value, path);
  return {
    threshold: finite(prop(o, "threshold"), `${path}/threshold`),
    tasks: list((v, p) => {
      const t = record(v, p);
      return {
        task: str(prop(t, "task"), `${p}/task`),
        trials: index(prop(t, "trials"), `${p}/trials`),
        successes: index(prop(t, "successes"), `${p}/successes`),
      };
    })(prop(o, "tasks"), `${path}/tasks`),
    pass_hat_k: list((v, p) => {
      const t = record(v, p);
      return { k: index(prop(t, "k"), `${p}/k`), value: finite(prop(t, "value"), `${p}/value`) };
    })(prop(o, "pass_hat_k"), `${path}/pass_hat_k`),
    average_score: finite(prop(o, "average_score"), `${path}/average_score`),
    estimator: str(prop(o, "estimator"), `${path}/estimator`),
  };
};

const successRate: Reader<SuccessRate> = (value, path) => {
  const o = record(value, path);
  return {
    threshold: finite(prop(o, "threshold"), `${path}/threshold`),
    successes: index(prop(o, "successes"), `${path}/successes`),
    trials: index(prop(o, "trials"), `${path}/trials`),
    rate: finite(prop(o, "rate"), `${path}/rate`),
    interval: interval(prop(o, "interval"), `${path}/interval`),
  };
};

const groupReport: Reader<GroupReport> = (value, path) => {
  const o = record(value, path);
  const at = (k: string): string => `${path}/${k}`;
  return {
    key: str(prop(o, "key"), at("key")),
    agent: str(prop(o, "agent"), at("agent")),
    user: str(prop(o, "user"), at("user")),
    prompts: str(prop(o, "prompts"), at("prompts")),
    augmentation: str(prop(o, "augmentation"), at("augmentation")),
    ...statusCounts(o, path),
    scenarios: index(prop(o, "scenarios"), at("scenarios")),
    score: nullable(finite)(prop(o, "score"), at("score")),
    interval: nullable(interval)(prop(o, "interval"), at("interval")),
    success: nullable(successRate)(prop(o, "success"), at("success")),
    categories: list(categoryRow)(prop(o, "categories"), at("categories")),
    apps: list(appRow)(prop(o, "apps"), at("apps")),
    pass_hat_k: nullable(passHatK)(prop(o, "pass_hat_k"), at("pass_hat_k")),
  };
};

function report(value: unknown, path: string): RunsReport {
  const o = record(value, path);
  return {
    ...statusCounts(o, path),
    errors_as_failures: bool(prop(o, "errors_as_failures"), `${path}/errors_as_failures`),
    threshold: finite(prop(o, "threshold"), `${path}/threshold`),
    groups: list(groupReport)(prop(o, "groups"), `${path}/groups`),
    suites: list(suiteRow)(prop(o, "suites"), `${path}/suites`),
    telemetry: telemetry(prop(o, "telemetry"), `${path}/telemetry`),
  };
}
