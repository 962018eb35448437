// `toolsandbox report <runs...> [--html FILE] [--json]`: the runs of one or more folders at a
// glance: one line per run (scenario, roles, seed, trial, score, turns, end, tokens), then the
// per-category table, pass^k over the scenarios' trials and the model calls summed. --html writes
// the runs view as one self-contained page (sortable, filterable, grouped; virtualised).
import type { Command } from "commander";
import { statSync } from "node:fs";
import { formatScore } from "../engine/evaluation/highlights.js";
import { createNonce, panelHtml } from "../engine/panel/html.js";
import type { RunRecord } from "../engine/runs/run-record.js";
import { loadRuns, type RunsData } from "../engine/runs/runs-data.js";
import { TRAJECTORY_SUFFIX } from "../engine/trajectory/writer.js";
import { CliError, EXIT, type ExitCode } from "../engine/runner/errors.js";
import { bundledAssets, writeReplayHtml } from "./html-export.js";
import type { CliIO } from "./io.js";
import { appTableLines, categoryTableLines } from "./score-lines.js";
import { renderTable, type Column } from "./table.js";

export interface ReportOptions {
  readonly html?: string;
  readonly json?: boolean;
}

export function registerReport(program: Command, io: CliIO): void {
  program
    .command("report")
    .description("the runs in some folders at a glance: one line per run, the per-category table, pass^k and the model cost")
    .argument("<runs...>", `folders searched for *${TRAJECTORY_SUFFIX} (a run's folder is its suite), or trajectory files`)
    .option("--html <file>", "write the runs view (sortable, filterable, grouped by suite, category or app) as one HTML file")
    .option("--json", "print the runs and the summary as JSON")
    .action((paths: string[], opts: ReportOptions) => void reportCommand(paths, opts, io));
}

export function reportCommand(paths: readonly string[], options: ReportOptions, io: CliIO): ExitCode {
  for (const path of paths) {
    try {
      statSync(path);
    } catch {
      throw new CliError(`${path}: no such file or folder`, EXIT.usage);
    }
  }
  const data = loadRuns(paths, `Runs of ${paths.join(", ")}`);
  if (data.records.length === 0) throw new CliError(`no *${TRAJECTORY_SUFFIX} under ${paths.join(", ")}`, EXIT.usage);
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
  { header: "SCORE", align: "right", cell: (r) => formatScore(r.score) },
  { header: "TURNS", align: "right", cell: (r) => (r.turns === null ? "-" : String(r.turns)) },
  {
    header: "END",
    cell: (r) =>
      r.damaged !== null ? `damaged (${r.damaged_line === null ? "" : `line ${r.damaged_line}: `}${r.damaged})` : (r.end_reason ?? "-"),
  },
  { header: "TOKENS", align: "right", cell: (r) => (r.telemetry.calls === 0 ? "-" : String(r.telemetry.total_tokens)) },
];

export function reportLines(data: RunsData): string[] {
  const { report } = data;
  const lines = renderTable(COLUMNS, data.records);
  lines.push("");
  if (report.categories.length > 0) lines.push(...categoryTableLines(report.categories), "");
  if (report.apps.length > 0) lines.push(...appTableLines(report.apps), "");
  const k = report.pass_hat_k;
  if (k !== null)
    lines.push(
      `pass^k over ${k.tasks.length} scenarios, a success scoring ${k.threshold}: ${k.pass_hat_k.map((p) => `pass^${p.k} ${p.value.toFixed(3)}`).join("  ")}`,
    );
  const t = report.telemetry;
  const cost =
    t.calls === 0
      ? ""
      : `; ${t.calls} model calls, ${(t.latency_ms / 1000).toFixed(1)} s model time, ${t.total_tokens} tokens (${t.prompt_tokens} in, ${t.completion_tokens} out)`;
  lines.push(
    `${report.runs} runs in ${report.suites.length} suite${report.suites.length === 1 ? "" : "s"}, ${report.damaged} damaged${cost}`,
  );
  return lines;
}

export function runsHtml(data: RunsData): string {
  const assets = bundledAssets("runs.js", "runs.css");
  return panelHtml({ title: `${data.title} · ToolSandbox`, nonce: createNonce(), assets: { kind: "inline", ...assets }, lines: [data] });
}
