// The per-scenario results of `run`, as summary.json; the console lines (cli/batch-report.ts) come
// from the same records, so a new figure is one field here plus one column there. The category
// table aggregates the scored scenarios the way upstream's CLI does (evaluation/categories.ts).
import { callableTools } from "../episode/tool-calls.js";
import type { EndReason, Message } from "../episode/types.js";
import { aggregateByApp, type AppRow, type AppScored } from "../evaluation/app-rows.js";
import { aggregateByCategory, type CategoryRow, type ScoredScenario } from "../evaluation/categories.js";
import { peerMetrics, type CallPattern, type PeerMetrics, type ToolScanPattern, type ToolTalkMetrics } from "../benchmarks/peers.js";
import type { EvaluationResult } from "../evaluation/result.js";
import type { Category, Scenario } from "../scenario/model.js";
import { addTelemetry, NO_TELEMETRY, type TelemetryTotals } from "../trajectory/telemetry-totals.js";
import {
  countedScore,
  DEFAULT_POLICY,
  ERRORED_END_REASONS,
  isErroredEnd,
  type RunStatus,
  type ScoringPolicy,
} from "../evaluation/outcome.js";
import { isSuccess } from "../evaluation/pass-k.js";
import type { ReviewSummary } from "./review-summary.js";
import { CAUSE_KINDS, type CauseKind, type FailureCause } from "../evaluation/failure-causes.js";
import {
  BOOTSTRAP_RESAMPLES,
  BOOTSTRAP_SEED,
  MIN_INTERVAL_SCENARIOS,
  scenarioMeanInterval,
  wilsonInterval,
  type Interval,
} from "../evaluation/statistics/intervals.js";

/** Where a milestone or minefield matched, as summary.json lists it (the trajectory holds the explanations). */
export interface NodeMatch {
  readonly id: string;
  readonly matched_at: number | null;
  readonly similarity: number;
}

export interface ScenarioResult {
  readonly name: string;
  /** Which trial (from 1) of the scenario this is; only in runs with --trials above 1. */
  readonly trial?: number;
  readonly categories: readonly Category[];
  /** The apps its reference uses (packs/<pack>/apps.ts). */
  readonly apps: readonly string[];
  /** Null when the engine failed before the episode could end (see `error`). */
  readonly end_reason: EndReason | null;
  /** The end event's detail, or the engine's error, if any. */
  readonly detail: string | null;
  readonly message_count: number;
  /** Upstream's effective turn count: messages produced by the roles (max_messages when the episode counts as crashed). */
  readonly turn_count: number;
  /** The evaluation's score; null when the scenario could not be scored (the engine failed). */
  readonly score: number | null;
  readonly milestone_score: number | null;
  readonly minefield_score: number | null;
  /** Why the score is 0 although milestones matched (a minefield, an upstream crash). */
  readonly zero_reason: string | null;
  readonly milestones: readonly NodeMatch[];
  readonly minefields: readonly NodeMatch[];
  /** The peer benchmarks' metrics in brief; null when the scenario has no reference solution or the engine failed. */
  readonly peers: PeerSummary | null;
  /** The trajectory file, relative to the summary's directory. */
  readonly trajectory: string;
  /** The scenario could not be played to an end of its own (role error, script out of step, cancelled, engine error). */
  readonly failed: boolean;
  /** Why it failed or errored, by rule (evaluation/failure-causes.ts); null when it succeeded or was not scored. */
  readonly cause: FailureCause | null;
  /** Its model calls summed: latency, tokens; only when a model-backed role made any. */
  readonly telemetry?: TelemetryTotals;
  /** The role-play judge's overall score (1-5; null when the judgement failed); only when the episode was judged (`run --judge`). */
  readonly role_play?: number | null;
  /** The failure reviewer's verdict beside `cause`; only when the episode failed or errored and was reviewed (`run --review`). */
  readonly review?: ReviewSummary;
}

// A scenario that could not be played to its end exits `run` with 1 (docs/cli.md): every errored
// end (outcome.ts: a model or role failure, an outside agent that went away or ran out of time),
// a script out of step, and a cancelled episode.
const FAILED_REASONS: ReadonlySet<string> = new Set<string>([...ERRORED_END_REASONS, "script_exhausted", "cancelled"]);

export const isFailedEnd = (reason: EndReason | null): boolean => reason === null || FAILED_REASONS.has(reason);

/**
 * Whether a result's score counts (evaluation/outcome.ts): errored for a model, role or engine
 * failure (whatever it had matched by then) or when the engine could not score it; unscored when
 * it was cancelled (Ctrl-C: it did not run its course).
 */
export function resultStatus(r: ScenarioResult): RunStatus {
  if (r.end_reason === "cancelled") return "unscored";
  // No score after an end of its own: the engine failed to score it, an engine error.
  if (isErroredEnd(r.end_reason) || r.score === null) return "errored";
  return "scored";
}

/** A scenario's line of summary.json: its result and whether its score counts. */
export type SummaryScenario = ScenarioResult & { readonly status: RunStatus };

/** The mean score of a run with its interval, as summary.json gives it. */
export interface ScoreSummary {
  /** Scenarios with a counted score (trials averaged). */
  readonly scenarios: number;
  readonly mean: number;
  /** Null under MIN_INTERVAL_SCENARIOS scenarios (statistics/intervals.ts). */
  readonly interval: Interval | null;
  readonly method: string;
}

export interface RunSummary {
  readonly format: "toolsandbox-run-summary";
  readonly version: 1;
  readonly run: { readonly agent: string; readonly user: string; readonly seed: number };
  /** Whether errored scenarios counted as failures (score 0) rather than being left out. */
  readonly errors_as_failures: boolean;
  readonly scenarios: readonly SummaryScenario[];
  /** Mean counted score over scenarios with its 95% bootstrap interval; null when nothing counted. */
  readonly score: ScoreSummary | null;
  /** Counted episodes scoring 1 (within 1e-6), with Wilson's 95% interval; null when nothing counted. */
  readonly success: {
    readonly successes: number;
    readonly trials: number;
    readonly rate: number;
    readonly interval: Interval;
    readonly method: string;
  } | null;
  /** Mean score and turn count per category tag, then ALL_CATEGORIES, over the counted scenarios, each with its 95% interval. */
  readonly categories: readonly CategoryRow[];
  /** Mean score and turn count per app its scenarios' references use. */
  readonly apps: readonly AppRow[];
  readonly totals: {
    readonly scenarios: number;
    readonly failed: number;
    /** Ended by a model, role or engine failure: left out of every score unless errors_as_failures. */
    readonly errored: number;
    /** Counted in the scores. */
    readonly scored: number;
    /** Cancelled (Ctrl-C) before its end: no score. */
    readonly unscored: number;
    /** Failed and errored scenarios by the party the cause rules blame. */
    readonly causes: Readonly<Record<CauseKind, number>>;
    readonly messages: number;
    readonly turns: number;
    /** How many scenarios ended for each reason ("error" = the engine failed). */
    readonly end_reasons: Readonly<Record<string, number>>;
    /** Every model call of the run summed; only when there were any (scripted runs have none). */
    readonly telemetry?: TelemetryTotals;
  };
}

export function buildRunSummary(
  run: RunSummary["run"],
  scenarios: readonly ScenarioResult[],
  policy: ScoringPolicy = DEFAULT_POLICY,
): RunSummary {
  const endReasons: Record<string, number> = {};
  for (const r of scenarios) {
    const key = r.end_reason ?? "error";
    endReasons[key] = (endReasons[key] ?? 0) + 1;
  }
  const withStatus = scenarios.map((r): SummaryScenario => ({ ...r, status: resultStatus(r) }));
  const counted = scored(withStatus, policy);
  const episodes = withStatus.flatMap((r) => {
    const score = countedScore(r, policy);
    return score === null ? [] : [score];
  });
  const successes = episodes.filter((x) => isSuccess(x)).length;
  const count = (status: RunStatus): number => withStatus.filter((r) => r.status === status).length;
  return {
    format: "toolsandbox-run-summary",
    version: 1,
    run,
    errors_as_failures: policy.errorsAsFailures,
    scenarios: withStatus,
    score:
      counted.length === 0
        ? null
        : {
            scenarios: counted.length,
            mean: counted.reduce((n, r) => n + r.score, 0) / counted.length,
            interval: scenarioMeanInterval(counted.map((r) => r.score)),
            method: `95% percentile bootstrap over scenarios (${BOOTSTRAP_RESAMPLES} resamples, seed ${BOOTSTRAP_SEED}); none under ${MIN_INTERVAL_SCENARIOS} scenarios`,
          },
    success:
      episodes.length === 0
        ? null
        : {
            successes,
            trials: episodes.length,
            rate: successes / episodes.length,
            interval: wilsonInterval(successes, episodes.length)!,
            method: "Wilson 95% score interval over counted episodes",
          },
    categories: aggregateByCategory(counted),
    apps: aggregateByApp(counted),
    totals: {
      scenarios: scenarios.length,
      failed: scenarios.filter((r) => r.failed).length,
      errored: count("errored"),
      scored: count("scored"),
      unscored: count("unscored"),
      causes: Object.fromEntries(CAUSE_KINDS.map((k) => [k, scenarios.filter((r) => r.cause?.kind === k).length])) as Record<
        CauseKind,
        number
      >,
      messages: scenarios.reduce((n, r) => n + r.message_count, 0),
      turns: scenarios.reduce((n, r) => n + r.turn_count, 0),
      end_reasons: Object.fromEntries(Object.entries(endReasons).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      ...runTelemetry(scenarios),
    },
  };
}

function runTelemetry(scenarios: readonly ScenarioResult[]): { telemetry?: TelemetryTotals } {
  const withCalls = scenarios.flatMap((r) => (r.telemetry ? [r.telemetry] : []));
  return withCalls.length === 0 ? {} : { telemetry: withCalls.reduce(addTelemetry, NO_TELEMETRY) };
}

/**
 * The scenarios with a counted score (outcome.ts), in the shape the category table aggregates. A
 * scenario run in several trials counts once, with its score and turn count averaged over its
 * counted trials.
 */
function scored(results: readonly SummaryScenario[], policy: ScoringPolicy): (ScoredScenario & AppScored)[] {
  const byName = new Map<string, { categories: readonly Category[]; apps: readonly string[]; n: number; score: number; turns: number }>();
  for (const r of results) {
    const score = countedScore(r, policy);
    if (score === null) continue;
    const s = byName.get(r.name) ?? { categories: r.categories, apps: r.apps, n: 0, score: 0, turns: 0 };
    byName.set(r.name, { ...s, n: s.n + 1, score: s.score + score, turns: s.turns + r.turn_count });
  }
  return [...byName.values()].map((s) => ({ categories: s.categories, apps: s.apps, score: s.score / s.n, turn_count: s.turns / s.n }));
}

/** The score fields of a result; all null when there is no evaluation. */
export function scoreFields(
  evaluation: EvaluationResult | null,
): Pick<ScenarioResult, "score" | "milestone_score" | "minefield_score" | "zero_reason" | "milestones" | "minefields"> {
  if (evaluation === null)
    return { score: null, milestone_score: null, minefield_score: null, zero_reason: null, milestones: [], minefields: [] };
  const matches = (nodes: EvaluationResult["milestones"]): NodeMatch[] =>
    nodes.map(({ id, matched_at, similarity }) => ({ id, matched_at, similarity }));
  return {
    score: evaluation.score,
    milestone_score: evaluation.milestone_score,
    minefield_score: evaluation.minefield_score,
    zero_reason: evaluation.zero_reason,
    milestones: matches(evaluation.milestones),
    minefields: matches(evaluation.minefields),
  };
}

/** What summary.json keeps of the peer metrics; the trajectory (via `eval --json`) has the rest. */
export interface PeerSummary {
  /** ToolTalk's counts, ratios, success and soft success. */
  readonly tooltalk: ToolTalkMetrics;
  readonly toolscan: {
    readonly counts: Readonly<Record<ToolScanPattern, number>>;
    /** Message indices of the agent calls tagged with each per-call pattern. */
    readonly tagged: Readonly<Record<CallPattern, readonly number[]>>;
    readonly error_success_rate: number;
  };
}

/**
 * Every per-episode peer metric of a run, or null when `scored` has no reference solution (the
 * peers compare the agent's calls with it). The tools offered are those of `played`, the scenario
 * the episode ran, by the names the agent saw; the reference and ToolScan's budget are those of
 * `scored`.
 */
export function episodePeers(scored: Scenario, messages: readonly Message[], played: Scenario = scored): PeerMetrics | null {
  if (scored.reference.length === 0) return null;
  return peerMetrics(scored, messages, [...callableTools(played, "agent").keys()]);
}

export function summarizePeers(peers: PeerMetrics | null): PeerSummary | null {
  if (peers === null) return null;
  const { calls, counts, error_success_rate } = peers.toolscan;
  const at = (p: CallPattern): number[] => calls.filter((c) => c.tags.includes(p)).map((c) => c.message_index);
  const tagged = { IAN: at("IAN"), IAT: at("IAT"), RAC: at("RAC"), IFN: at("IFN"), IFE: at("IFE") };
  return { tooltalk: peers.tooltalk.metrics, toolscan: { counts, tagged, error_success_rate } };
}

/** Deterministic text of summary.json. */
export const serializeSummary = (summary: RunSummary): string => `${JSON.stringify(summary, null, 2)}\n`;
