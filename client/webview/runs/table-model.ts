// The runs table as data: its columns, and the rows a sort, a filter and a grouping give, as one
// flat list (group headings between the runs) that the view draws a window of. Pure, so 10,000
// runs are sorted and grouped in tests without a browser.
import type { RunRecord } from "../../../engine/reports/types.js";

export type ColumnId =
  | "scenario"
  | "categories"
  | "agent"
  | "user"
  | "seed"
  | "trial"
  | "score"
  | "turns"
  | "role_play"
  | "end"
  | "duration"
  | "tokens"
  | "date";

interface RunColumn {
  readonly id: ColumnId;
  readonly label: string;
  readonly numeric: boolean;
  /** The text of the cell. */
  text(r: RunRecord): string;
  /** The sort key (numbers sort as numbers; missing values last). */
  key(r: RunRecord): number | string | null;
}

const fixed = (n: number | null, digits: number): string => (n === null ? "–" : n.toFixed(digits));
const pad = (n: number): string => String(n).padStart(2, "0");
/** "2026-11-25 02:04" in the viewer's time zone. */
export function shortDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The run number of a file the extension wrote (`<scenario>.run-<n>.trajectory.jsonl`,
 * engine/trajectory/run-files.ts; that module reads the disk, so the name is matched here).
 */
export function runNumber(file: string): number | null {
  const m = /\.run-(\d+)\.trajectory\.jsonl$/.exec(file);
  return m ? Number(m[1]) : null;
}

/** "send_message · run 3": runs of one scenario told apart in the row, not only in a tooltip. */
const scenarioText = (r: RunRecord): string => {
  const n = runNumber(r.file);
  return n === null ? r.scenario : `${r.scenario} · run ${n}`;
};

export const COLUMNS: readonly RunColumn[] = [
  {
    id: "scenario",
    label: "Scenario",
    numeric: false,
    text: scenarioText,
    key: (r) => `${r.scenario}\u0000${String(runNumber(r.file) ?? 0).padStart(9, "0")}`,
  },
  { id: "categories", label: "Categories", numeric: false, text: (r) => r.categories.join(", "), key: (r) => r.categories.join(",") },
  { id: "agent", label: "Agent", numeric: false, text: (r) => r.agent, key: (r) => r.agent },
  { id: "user", label: "User", numeric: false, text: (r) => r.user, key: (r) => r.user },
  { id: "seed", label: "Seed", numeric: true, text: (r) => (r.seed === null ? "–" : String(r.seed)), key: (r) => r.seed },
  { id: "trial", label: "Trial", numeric: true, text: (r) => (r.trial === null ? "–" : String(r.trial)), key: (r) => r.trial },
  // An errored, damaged or unscored run shows its status, never a number (it has none that counts).
  { id: "score", label: "Score", numeric: true, text: (r) => (r.status === "scored" ? fixed(r.score, 2) : r.status), key: (r) => r.score },
  { id: "turns", label: "Turns", numeric: true, text: (r) => (r.turns === null ? "–" : String(r.turns)), key: (r) => r.turns },
  // The role-play judge's overall score (`run --judge`), 1 to 5.
  { id: "role_play", label: "Role play", numeric: true, text: (r) => fixed(r.role_play, 2), key: (r) => r.role_play },
  {
    id: "end",
    label: "End",
    numeric: false,
    text: (r) =>
      r.damaged !== null
        ? `damaged${r.damaged_line === null ? "" : ` at line ${r.damaged_line}`}: ${r.damaged}`
        : `${r.end_reason ?? "no end"}${r.cause === null ? "" : ` · ${r.cause.kind}: ${r.cause.evidence}`}${reviewText(r)}`,
    key: (r) => r.damaged ?? r.end_reason,
  },
  // What the runs record of time: the model calls' wall time (scripted runs take none).
  {
    id: "duration",
    label: "Model time",
    numeric: true,
    text: (r) => (r.telemetry.calls === 0 ? "–" : `${(r.telemetry.latency_ms / 1000).toFixed(1)} s`),
    key: (r) => (r.telemetry.calls === 0 ? null : r.telemetry.latency_ms),
  },
  {
    id: "tokens",
    label: "Tokens",
    numeric: true,
    text: (r) => (r.telemetry.calls === 0 ? "–" : r.telemetry.total_tokens.toLocaleString("en-US")),
    key: (r) => (r.telemetry.calls === 0 ? null : r.telemetry.total_tokens),
  },
  { id: "date", label: "Date", numeric: true, text: (r) => shortDate(r.date), key: (r) => r.date },
];

export type Grouping = "none" | "suite" | "category" | "app";

export interface TableQuery {
  readonly sort: ColumnId;
  readonly descending: boolean;
  readonly filter: string;
  readonly group: Grouping;
}

export type TableRow =
  | { readonly kind: "group"; readonly label: string; readonly runs: number; readonly score: number | null }
  | { readonly kind: "run"; readonly record: RunRecord };

/** The groups a run is shown under: its suite, or each of its categories or apps (a run may head several). */
function groupKeys(r: RunRecord, group: Exclude<Grouping, "none">): readonly string[] {
  if (group === "suite") return [r.suite === "" ? "(top)" : r.suite];
  if (group === "app") return r.apps.length > 0 ? r.apps : ["(no app)"];
  return r.categories.length > 0 ? r.categories : ["(no category)"];
}

/** Runs whose scenario, categories, apps, roles, end or suite contain every word of the filter. */
export function matches(r: RunRecord, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const text =
    `${r.scenario} ${r.categories.join(" ")} ${r.apps.join(" ")} ${r.agent} ${r.user} ${r.end_reason ?? ""} ${r.damaged ?? ""} ${r.suite} ${r.status} ${r.cause?.kind ?? ""} ${r.prompts} ${r.augmentation}`.toLowerCase();
  return words.every((w) => text.includes(w));
}

function compare(a: number | string | null, b: number | string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

export function tableRows(records: readonly RunRecord[], query: TableQuery): TableRow[] {
  const words = query.filter
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== "");
  const column = COLUMNS.find((c) => c.id === query.sort) ?? COLUMNS[0]!;
  const sign = query.descending ? -1 : 1;
  const keyed = records.filter((r) => matches(r, words)).map((r) => ({ r, k: column.key(r) }));
  // Missing values stay last whichever way the column is sorted; ties keep file order.
  keyed.sort((x, y) => (x.k === null || y.k === null ? compare(x.k, y.k) : sign * compare(x.k, y.k)));
  const sorted = keyed.map((x) => x.r);
  if (query.group === "none") return sorted.map((record) => ({ kind: "run", record }));
  const groups = new Map<string, RunRecord[]>();
  for (const r of sorted) {
    const keys = groupKeys(r, query.group);
    for (const key of keys) {
      const members = groups.get(key);
      if (members) members.push(r);
      else groups.set(key, [r]);
    }
  }
  const rows: TableRow[] = [];
  for (const label of [...groups.keys()].sort()) {
    const members = groups.get(label) ?? [];
    const scores = members.flatMap((m) => (m.score === null ? [] : [m.score]));
    rows.push({
      kind: "group",
      label,
      runs: members.length,
      score: scores.length === 0 ? null : scores.reduce((a, b) => a + b, 0) / scores.length,
    });
    for (const record of members) rows.push({ kind: "run", record });
  }
  return rows;
}

/** The LLM reviewer's verdict beside the rule's cause (`run --review`); empty when the run was not reviewed. */
function reviewText(r: RunRecord): string {
  if (r.review === undefined) return "";
  return ` · review by ${r.review.reviewer}: ${r.review.kind === null ? "" : `${r.review.kind}: `}${r.review.reason}`;
}
