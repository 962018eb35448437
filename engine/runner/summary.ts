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
import { addTelemetry, NO_TELEMETRY, type TelemetryTotals } from "../trajectory/telemetry.js";

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
  /** Its model calls summed: latency, tokens; only when a model-backed role made any. */
  readonly telemetry?: TelemetryTotals;
  /** The role-play judge's overall score (1-5; null when the judgement failed); only when the episode was judged (`run --judge`). */
  readonly role_play?: number | null;
}

// An outside agent that went away or ran out of time (agent_disconnected, timed_out) is the agent's
// doing, scored like one that ran out of messages, so those ends are not failures of the run.
const FAILED_REASONS: ReadonlySet<EndReason> = new Set<EndReason>(["role_error", "model_error", "script_exhausted", "cancelled"]);

export const isFailedEnd = (reason: EndReason | null): boolean => reason === null || FAILED_REASONS.has(reason);

export interface RunSummary {
  readonly format: "toolsandbox-run-summary";
  readonly version: 1;
  readonly run: { readonly agent: string; readonly user: string; readonly seed: number };
  readonly scenarios: readonly ScenarioResult[];
  /** Mean score and turn count per category tag, then ALL_CATEGORIES, over the scored scenarios. */
  readonly categories: readonly CategoryRow[];
  /** Mean score and turn count per app its scenarios' references use. */
  readonly apps: readonly AppRow[];
  readonly totals: {
    readonly scenarios: number;
    readonly failed: number;
    readonly messages: number;
    readonly turns: number;
    /** How many scenarios ended for each reason ("error" = the engine failed). */
    readonly end_reasons: Readonly<Record<string, number>>;
    /** Every model call of the run summed; only when there were any (scripted runs have none). */
    readonly telemetry?: TelemetryTotals;
  };
}

export function buildRunSummary(run: RunSummary["run"], scenarios: readonly ScenarioResult[]): RunSummary {
  const endReasons: Record<string, number> = {};
  for (const r of scenarios) {
    const key = r.end_reason ?? "error";
    endReasons[key] = (endReasons[key] ?? 0) + 1;
  }
  return {
    format: "toolsandbox-run-summary",
    version: 1,
    run,
    scenarios,
    categories: aggregateByCategory(scored(scenarios)),
    apps: aggregateByApp(scored(scenarios)),
    totals: {
      scenarios: scenarios.length,
      failed: scenarios.filter((r) => r.failed).length,
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
 * The scenarios that have a score, in the shape the category table aggregates. A scenario run in
 * several trials counts once, with its score and turn count averaged over its scored trials.
 */
function scored(results: readonly ScenarioResult[]): (ScoredScenario & AppScored)[] {
  const byName = new Map<string, { categories: readonly Category[]; apps: readonly string[]; n: number; score: number; turns: number }>();
  for (const r of results) {
    if (r.score === null) continue;
    const s = byName.get(r.name) ?? { categories: r.categories, apps: r.apps, n: 0, score: 0, turns: 0 };
    byName.set(r.name, { ...s, n: s.n + 1, score: s.score + r.score, turns: s.turns + r.turn_count });
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
