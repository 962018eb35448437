// The per-scenario results of `run`, as summary.json and as console lines. Both come from the
// same result records and column list, so a new figure (scores, say) is one field plus one column.
import type { EndReason } from "../episode/types.js";
import type { Category } from "../scenario/model.js";
import type { Column } from "./table.js";

export interface ScenarioResult {
  readonly name: string;
  readonly categories: readonly Category[];
  /** Null when the engine failed before the episode could end (see `error`). */
  readonly end_reason: EndReason | null;
  /** The end event's detail, or the engine's error, if any. */
  readonly detail: string | null;
  readonly message_count: number;
  /** Upstream's effective turn count: messages produced by the roles. */
  readonly turn_count: number;
  /** The trajectory file, relative to the summary's directory. */
  readonly trajectory: string;
  /** The scenario could not be played to an end of its own (role error, script out of step, cancelled, engine error). */
  readonly failed: boolean;
}

const FAILED_REASONS: ReadonlySet<EndReason> = new Set<EndReason>(["role_error", "script_exhausted", "cancelled"]);

export const isFailedEnd = (reason: EndReason | null): boolean => reason === null || FAILED_REASONS.has(reason);

export interface RunSummary {
  readonly format: "toolsandbox-run-summary";
  readonly version: 1;
  readonly run: { readonly agent: string; readonly user: string; readonly seed: number };
  readonly scenarios: readonly ScenarioResult[];
  readonly totals: {
    readonly scenarios: number;
    readonly failed: number;
    readonly messages: number;
    readonly turns: number;
    /** How many scenarios ended for each reason ("error" = the engine failed). */
    readonly end_reasons: Readonly<Record<string, number>>;
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
    totals: {
      scenarios: scenarios.length,
      failed: scenarios.filter((r) => r.failed).length,
      messages: scenarios.reduce((n, r) => n + r.message_count, 0),
      turns: scenarios.reduce((n, r) => n + r.turn_count, 0),
      end_reasons: Object.fromEntries(Object.entries(endReasons).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    },
  };
}

/** Deterministic text of summary.json. */
export const serializeSummary = (summary: RunSummary): string => `${JSON.stringify(summary, null, 2)}\n`;

/** The console line of one scenario, column by column. */
export function resultColumns(nameWidth: number): Column<ScenarioResult>[] {
  return [
    { header: "SCENARIO", width: nameWidth, cell: (r) => r.name },
    { header: "END", width: "invalid_tool_call".length, cell: (r) => r.end_reason ?? "error" },
    { header: "MESSAGES", align: "right", cell: (r) => String(r.message_count) },
    { header: "TURNS", align: "right", cell: (r) => String(r.turn_count) },
  ];
}
