// `toolsandbox eval <trajectories...> --against-upstream <checkout> [--python EXE]`: each
// trajectory scored twice, by our evaluation and by the checkout's own (upstream_score.py), side
// by side. The scenarios must be upstream's (imported with `toolsandbox import toolsandbox`, same
// names); upstream scores them under the clock each trajectory ran with. Exit 1 when any score
// differs or upstream cannot score a trajectory.
import { evaluateTrajectory, EvaluationError, type EvaluationResult } from "../engine/evaluation/evaluate.js";
import { ExporterError } from "../engine/benchmarks/toolsandbox/importer/run-exporter.js";
import {
  scoreWithUpstream,
  UPSTREAM_SCORE_TOLERANCE,
  upstreamRun,
  type UpstreamRun,
  type UpstreamScore,
} from "../engine/benchmarks/toolsandbox/importer/upstream-evaluation.js";
import { formatWarning } from "../engine/trajectory/errors.js";
import { ExitError, EXIT, type ExitCode } from "../engine/runner/errors.js";
import { problemLine, type CliIO } from "./io.js";
import { loadTrajectory } from "./replay.js";
import { collectTrajectoryFiles } from "../engine/runner/scenario-files.js";

interface AgainstUpstreamOptions {
  readonly checkout: string;
  readonly python: string;
  readonly json?: boolean;
}

interface Row {
  readonly file: string;
  readonly scenario: string;
  readonly ours: { readonly milestone: number; readonly minefield: number };
  upstream: { readonly milestone: number; readonly minefield: number } | { readonly error: string } | null;
}

export function evalAgainstUpstream(paths: readonly string[], options: AgainstUpstreamOptions, io: CliIO): ExitCode {
  const rows: Row[] = [];
  // One Python run per clock: upstream's expected values ("tomorrow") depend on it.
  const byClock = new Map<string, { clock: { now: number; timezone: string }; runs: UpstreamRun[] }>();
  for (const file of collectTrajectoryFiles(paths)) {
    const trajectory = loadTrajectory(file);
    for (const w of trajectory.warnings) io.err(problemLine(formatWarning(file, w)));
    const scenario = trajectory.header.scenario;
    let ours: EvaluationResult;
    try {
      ours = evaluateTrajectory(trajectory, scenario);
    } catch (e) {
      if (!(e instanceof EvaluationError)) throw e;
      throw new ExitError(`${file}: cannot score the embedded scenario: ${e.message}`, EXIT.malformedTrajectory);
    }
    const id = String(rows.length);
    rows.push({
      file,
      scenario: scenario.name,
      ours: { milestone: ours.milestone_score, minefield: ours.minefield_score },
      upstream: null,
    });
    const key = `${scenario.clock.now} ${scenario.clock.timezone}`;
    const group = byClock.get(key) ?? { clock: { now: scenario.clock.now, timezone: scenario.clock.timezone }, runs: [] };
    group.runs.push(upstreamRun(id, trajectory));
    byClock.set(key, group);
  }
  for (const { clock, runs } of byClock.values()) {
    let scores: UpstreamScore[];
    try {
      const scored = scoreWithUpstream(options.checkout, options.python, clock, runs);
      for (const note of scored.notes) io.err(note);
      scores = scored.scores;
    } catch (e) {
      if (e instanceof ExporterError) throw new ExitError(e.message, EXIT.failed);
      throw e;
    }
    for (const s of scores) {
      const row = rows[Number(s.id)];
      if (row) row.upstream = "error" in s ? { error: s.error } : { milestone: s.milestone, minefield: s.minefield };
    }
  }
  const agrees = (r: Row): boolean =>
    r.upstream !== null &&
    !("error" in r.upstream) &&
    Math.abs(r.upstream.milestone - r.ours.milestone) <= UPSTREAM_SCORE_TOLERANCE &&
    Math.abs(r.upstream.minefield - r.ours.minefield) <= UPSTREAM_SCORE_TOLERANCE;
  const different = rows.filter((r) => !agrees(r)).length;
  if (options.json) {
    io.out(
      JSON.stringify(
        {
          trajectories: rows.map((r) => ({ ...r, agrees: agrees(r) })),
          compared: rows.length,
          identical: rows.length - different,
          different,
        },
        null,
        2,
      ),
    );
    return different === 0 ? EXIT.ok : EXIT.failed;
  }
  const pair = (m: number, f: number): string => `${m.toFixed(4)} / ${f.toFixed(4)}`;
  const table = rows.map((r) => [
    r.file,
    r.scenario,
    pair(r.ours.milestone, r.ours.minefield),
    r.upstream === null
      ? "no answer"
      : "error" in r.upstream
        ? `error: ${r.upstream.error}`
        : pair(r.upstream.milestone, r.upstream.minefield),
    agrees(r) ? "same" : "DIFFERENT",
  ]);
  const header = ["TRAJECTORY", "SCENARIO", "OURS (milestones / minefields)", "UPSTREAM", ""];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => (row[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  io.out(line(header));
  for (const row of table) io.out(line(row));
  io.out(`${rows.length} compared with upstream's evaluation: ${rows.length - different} the same, ${different} different`);
  return different === 0 ? EXIT.ok : EXIT.failed;
}
