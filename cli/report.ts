// `toolsandbox report <runs...> [--html FILE] [--json] [--errors-as-failures]`: the runs of one or
// more folders at a glance: one line per run (scenario, roles, seed, trial, score, turns, end,
// tokens), then for each group of agent, user, prompt set and augmentation its score with a 95%
// interval, its success rate, its per-category table and pass^k (engine/reports/runs-report.ts), and
// the totals (damaged, errored, model calls). --html writes the runs view as one self-contained
// page (sortable, filterable, grouped; virtualised).
import type { Command } from "commander";
import { statSync } from "node:fs";
import { formatScore } from "../engine/evaluation/highlights.js";
import { createNonce, panelHtml } from "../engine/panel/html.js";
import type { RunRecord } from "../engine/reports/types.js";
import { loadRunsWithReferenceCauses } from "../engine/reports/load-runs.js";
import type { RunsData } from "../engine/reports/runs-data.js";
import type { GroupReport } from "../engine/reports/runs-report.js";
import { CAUSE_KINDS } from "../engine/evaluation/failure-causes.js";
import { formatInterval } from "../engine/evaluation/statistics/intervals.js";
import { TRAJECTORY_SUFFIX } from "../engine/trajectory/writer.js";
import { ExitError, EXIT, fsError, type ExitCode } from "../engine/runner/errors.js";
import { makeDirectories, writeFileAtomically } from "../engine/base/output-files.js";
import { mergeShardSummaries } from "../engine/runner/merge-summaries.js";
import { serializeSummary } from "../engine/runner/summary.js";
import { join } from "node:path";
import { bundledAssets, writeReplayHtml } from "./html-export.js";
import type { CliIO } from "./io.js";
import { appTableLines, categoryTableLines } from "./score-lines.js";
import { renderTable, type Column } from "./table.js";

interface ReportOptions {
  readonly html?: string;
  readonly json?: boolean;
  /** `--merge`: the paths are shards' run folders, joined into one summary.json in `out`. */
  readonly merge?: boolean;
  readonly out?: string;
  /** Count errored runs as failures scoring 0 instead of leaving them out. */
  readonly errorsAsFailures?: boolean;
}

export function registerReport(program: Command, io: CliIO): void {
  program
    .command("report")
    .description("the runs in some folders at a glance: one line per run, the per-category table, pass^k and the model cost")
    .argument("<runs...>", `folders searched for *${TRAJECTORY_SUFFIX} (a run's folder is its suite), or trajectory files`)
    .option("--html <file>", "write the runs view (sortable, filterable, grouped by suite, category or app) as one HTML file")
    .option("--json", "print the runs and the summary as JSON")
    .option("--errors-as-failures", "count errored runs (model, role or engine failures) as failures scoring 0 instead of leaving them out")
    .option("--merge", "join the summaries of a run's shards (run --shard I/N, one folder each) into one summary.json in --out")
    .option("-o, --out <dir>", "with --merge: where the merged summary.json goes")
    .action(
      async (paths: string[], opts: ReportOptions) =>
        void (opts.merge ? mergeCommand(paths, opts, io) : await reportCommand(paths, opts, io)),
    );
}

/** `report --merge DIR... --out DIR`: one summary.json for the shards, as an unsharded run writes it. */
function mergeCommand(paths: readonly string[], options: ReportOptions, io: CliIO): ExitCode {
  if (options.out === undefined) throw new ExitError("--merge needs --out <dir> for the merged summary.json", EXIT.usage);
  if (options.html !== undefined || options.json)
    throw new ExitError("--merge writes summary.json; --html and --json apply without it", EXIT.usage);
  const files = paths.map((p) => (isFolder(p) ? join(p, "summary.json") : p));
  try {
    makeDirectories(options.out);
  } catch (e) {
    throw fsError(e, options.out);
  }
  const summary = mergeShardSummaries(files, options.out);
  const target = join(options.out, "summary.json");
  writeFileAtomically(target, serializeSummary(summary));
  io.out(`${files.length} shards, ${summary.totals.scenarios} episodes, ${summary.totals.failed} failed; summary in ${target}`);
  return summary.totals.failed > 0 ? EXIT.failed : EXIT.ok;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function reportCommand(paths: readonly string[], options: ReportOptions, io: CliIO): Promise<ExitCode> {
  for (const path of paths) {
    try {
      statSync(path);
    } catch {
      throw new ExitError(`${path}: no such file or folder`, EXIT.usage);
    }
  }
  const data = await loadRunsWithReferenceCauses(paths, `Runs of ${paths.join(", ")}`, {
    errorsAsFailures: options.errorsAsFailures === true,
  });
  if (data.records.length === 0) throw new ExitError(`no *${TRAJECTORY_SUFFIX} under ${paths.join(", ")}`, EXIT.usage);
  if (options.html !== undefined) {
    writeReplayHtml(options.html, runsHtml(data));
    io.out(`${data.records.length} runs → ${options.html}`);
    return EXIT.ok;
  }
  if (options.json) {
    io.out(JSON.stringify(data, null, 2));
    return EXIT.ok;
  }
  for (const line of reportLines(data)) io.out(line);
  return EXIT.ok;
}

const COLUMNS: readonly Column<RunRecord>[] = [
  { header: "SCENARIO", cell: (r) => r.scenario },
  { header: "SUITE", cell: (r) => r.suite },
  { header: "AGENT", cell: (r) => r.agent },
  { header: "USER", cell: (r) => r.user },
  { header: "SEED", align: "right", cell: (r) => (r.seed === null ? "-" : String(r.seed)) },
  { header: "TRIAL", align: "right", cell: (r) => (r.trial === null ? "-" : String(r.trial)) },
  { header: "SCORE", align: "right", cell: (r) => (r.status === "scored" ? formatScore(r.score) : r.status) },
  { header: "TURNS", align: "right", cell: (r) => (r.turns === null ? "-" : String(r.turns)) },
  { header: "ROLE PLAY", align: "right", cell: (r) => (r.role_play === null ? "-" : r.role_play.toFixed(2)) },
  { header: "END", cell: endCell },
  { header: "CAUSE", cell: (r) => (r.cause === null ? "-" : `${r.cause.kind}: ${r.cause.rule}`) },
  // The LLM reviewer's verdict (`run --review`), beside the rule's cause; its reason is listed under the table.
  { header: "REVIEW", cell: (r) => (r.review === undefined ? "-" : (r.review.kind ?? "no verdict")) },
  { header: "TOKENS", align: "right", cell: (r) => (r.telemetry.calls === 0 ? "-" : String(r.telemetry.total_tokens)) },
];

function endCell(r: RunRecord): string {
  if (r.damaged !== null) return `damaged (${r.damaged_line === null ? "" : `line ${r.damaged_line}: `}${r.damaged})`;
  const end = r.end_reason ?? "-";
  return r.error === null ? end : `${end}: ${r.error}`;
}

function reportLines(data: RunsData): string[] {
  const { report } = data;
  const reviewed = data.records.filter((r) => r.review !== undefined);
  // The REVIEW column only when some run was reviewed: reports of unreviewed runs stay as they were.
  const lines = renderTable(reviewed.length > 0 ? COLUMNS : COLUMNS.filter((c) => c.header !== "REVIEW"), data.records);
  if (reviewed.length > 0) {
    lines.push("", "Reviews (beside the rules' cause):");
    for (const r of reviewed) {
      const rule = r.cause === null ? "no rule cause" : `rule ${r.cause.kind}: ${r.cause.evidence}`;
      lines.push(`  ${r.file}: ${rule}; ${r.review!.reviewer} says ${r.review!.kind ?? "nothing"}: ${r.review!.reason}`);
    }
  }
  lines.push("");
  for (const note of report.notes ?? []) lines.push(`note: ${note}`, "");
  for (const group of report.groups) lines.push(...groupLines(group, report.errors_as_failures), "");
  const t = report.telemetry;
  const cost =
    t.calls === 0
      ? ""
      : `; ${t.calls} model calls, ${(t.latency_ms / 1000).toFixed(1)} s model time, ${t.total_tokens} tokens (${t.prompt_tokens} in, ${t.completion_tokens} out)`;
  const suites = new Set(report.suites.map((s) => s.suite)).size;
  const errored = report.errors_as_failures ? "errored scored 0" : "errored left out of the scores";
  lines.push(
    `${report.runs} runs in ${suites} suite${suites === 1 ? "" : "s"}, ${report.groups.length} group${report.groups.length === 1 ? "" : "s"}: ${report.scored} scored, ${report.errored} errored (${errored}), ${report.damaged} damaged, ${report.unscored} unscored${cost}`,
  );
  return lines;
}

/** One group's figures: its key and counts, score and success with their intervals, the tables, pass^k. */
function groupLines(group: GroupReport, errorsAsFailures: boolean): string[] {
  const lines = [
    `${group.key}: ${group.runs} runs, ${group.scored} scored, ${group.errored} errored, ${group.damaged} damaged, ${group.unscored} unscored`,
  ];
  if (group.score === null || group.success === null) {
    lines.push("  no counted run, so no score");
    return lines;
  }
  const s = group.success;
  lines.push(
    `  score ${formatScore(group.score)} ${formatInterval(group.interval)} over ${group.scenarios} scenario${group.scenarios === 1 ? "" : "s"} (95% bootstrap over scenarios${errorsAsFailures ? ", errored runs scored 0" : ""})`,
    `  success ${s.successes}/${s.trials} = ${formatScore(s.rate)} ${formatInterval(s.interval)} (Wilson 95%; a success scores at least ${s.threshold})`,
  );
  const causes = CAUSE_KINDS.filter((k) => group.causes[k] > 0).map((k) => `${k} ${group.causes[k]}`);
  if (causes.length > 0) lines.push(`  failures by cause: ${causes.join(", ")}`);
  if (group.categories.length > 0) lines.push(...categoryTableLines(group.categories).map((l) => `  ${l}`));
  if (group.apps.length > 0) lines.push(...appTableLines(group.apps).map((l) => `  ${l}`));
  const k = group.pass_hat_k;
  if (k !== null) {
    lines.push(
      `  pass^k over ${k.tasks.length} scenarios: ${k.pass_hat_k.map((p) => `pass^${p.k} ${p.value.toFixed(3)}`).join("  ")}`,
      `  (estimator: ${k.estimator})`,
    );
  }
  return lines;
}

function runsHtml(data: RunsData): string {
  const assets = bundledAssets("runs.js", "runs.css");
  return panelHtml({ title: `${data.title} · ToolSandbox`, nonce: createNonce(), assets: { kind: "inline", ...assets }, lines: [data] });
}
