// The cost of a run's model calls, summed: what summary.json, the panel's header, the runs view
// and the comparison report. Pure over the model_call events, so a live run and a saved file give
// the same totals.
import type { ModelCall, ModelCallRole } from "../episode/types.js";

export interface TelemetryTotals {
  readonly calls: number;
  /** Calls that finally failed (no answer after the retries). */
  readonly failed_calls: number;
  /** Sum of the calls' wall times. */
  readonly latency_ms: number;
  /** Token counts summed over the calls that reported them. */
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
  /** Calls answered from the run's cache (`--cache`): not sent, not in the figures above. Absent when none. */
  readonly cached_calls?: number;
  /** The tokens those answers cost when they were first paid for. Absent when no call was cached. */
  readonly saved_tokens?: number;
}

export const NO_TELEMETRY: TelemetryTotals = {
  calls: 0,
  failed_calls: 0,
  latency_ms: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  total_tokens: 0,
};

/** Totals of some calls; total_tokens falls back to prompt + completion for a call that did not report it. */
export function telemetryTotals(calls: Iterable<{ readonly call: ModelCall; readonly role?: ModelCallRole }>): TelemetryTotals {
  let t: TelemetryTotals = { ...NO_TELEMETRY };
  for (const { call } of calls) {
    if (call.cached) {
      const usage = call.cached.usage;
      const saved = usage?.total_tokens ?? (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0);
      t = { ...t, cached_calls: (t.cached_calls ?? 0) + 1, saved_tokens: (t.saved_tokens ?? 0) + saved };
      continue;
    }
    const prompt = call.usage?.prompt_tokens ?? 0;
    const completion = call.usage?.completion_tokens ?? 0;
    t = {
      ...t,
      calls: t.calls + 1,
      failed_calls: t.failed_calls + (call.error === undefined ? 0 : 1),
      latency_ms: t.latency_ms + call.latency_ms,
      prompt_tokens: t.prompt_tokens + prompt,
      completion_tokens: t.completion_tokens + completion,
      total_tokens: t.total_tokens + (call.usage?.total_tokens ?? prompt + completion),
    };
  }
  return t;
}

/** Totals of several runs' totals. */
export function addTelemetry(a: TelemetryTotals, b: TelemetryTotals): TelemetryTotals {
  const cached =
    a.cached_calls === undefined && b.cached_calls === undefined
      ? {}
      : { cached_calls: (a.cached_calls ?? 0) + (b.cached_calls ?? 0), saved_tokens: (a.saved_tokens ?? 0) + (b.saved_tokens ?? 0) };
  return {
    ...cached,
    calls: a.calls + b.calls,
    failed_calls: a.failed_calls + b.failed_calls,
    latency_ms: a.latency_ms + b.latency_ms,
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}
