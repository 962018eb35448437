// `toolsandbox compare A [B] [--reference] [--html FILE]`: two runs of one scenario side by side
// (engine/compare): messages aligned, the first divergence, world changes and milestone results.
// With --reference (or no B), B is the scenario's reference solution played now. With --suite, A
// and B are runs folders of two agents over one suite, compared scenario by scenario
// (engine/reports/suite-compare.ts): wins, losses, ties, the mean difference with its paired
// bootstrap interval, McNemar's exact test on success, and the scenarios that flipped.
import type { Command } from "commander";
import { compareRuns, CompareError, savedRun, type ComparedRun } from "../engine/compare/compare-runs.js";
import { comparisonHtml } from "../engine/compare/compare-html.js";
import { comparisonLines } from "../engine/compare/compare-text.js";
import { playReference } from "../engine/compare/reference-run.js";
import { ExitError, EXIT, type ExitCode } from "../engine/runner/errors.js";
import { writeReplayHtml } from "./html-export.js";
import type { CliIO } from "./io.js";
import { loadTrajectory } from "./replay.js";
import { statSync } from "node:fs";
import { formatScore } from "../engine/evaluation/highlights.js";
import { formatInterval } from "../engine/evaluation/statistics/intervals.js";
import { compareSuites, SuiteCompareError, type SuiteComparison } from "../engine/reports/suite-compare.js";

interface CompareOptions {
  readonly html?: string;
  readonly reference?: boolean;
  /** A and B are runs folders of one suite, compared scenario by scenario. */
  readonly suite?: boolean;
  readonly json?: boolean;
  readonly errorsAsFailures?: boolean;
}

export function registerCompare(program: Command, io: CliIO): void {
  program
    .command("compare")
    .description("two runs of one scenario side by side: messages aligned, the first divergence, world changes and milestone results")
    .argument("<a>", "a trajectory file")
    .argument("[b]", "another run of the same scenario (leave out, or give --reference, to compare with the scenario's reference)")
    .option("--reference", "compare A with the scenario's reference solution, played now")
    .option("--html <file>", "write the comparison as one HTML file")
    .option("--suite", "A and B are runs folders of two agents over one suite: paired statistics over its scenarios")
    .option("--json", "with --suite: print the comparison as JSON")
    .option("--errors-as-failures", "with --suite: count errored runs as failures scoring 0 instead of leaving them out")
    .action(async (a: string, b: string | undefined, opts: CompareOptions) => void (await compareCommand(a, b, opts, io)));
}

async function compareCommand(a: string, b: string | undefined, options: CompareOptions, io: CliIO): Promise<ExitCode> {
  if (options.suite) return suiteCommand(a, b, options, io);
  if (b !== undefined && options.reference) throw new ExitError("give a second run or --reference, not both", EXIT.usage);
  const left = loadRun(a);
  const right = b === undefined ? await playReference(left.trajectory.header) : loadRun(b);
  let comparison: ReturnType<typeof compareRuns>;
  try {
    comparison = compareRuns(left, right);
  } catch (e) {
    if (e instanceof CompareError) throw new ExitError(e.message, EXIT.usage);
    throw e;
  }
  if (options.html !== undefined) {
    writeReplayHtml(options.html, comparisonHtml(comparison));
    io.out(
      `${comparison.scenario}: ${comparison.firstDivergence === null ? "no divergence" : `diverges at message ${comparison.firstDivergence}`} → ${options.html}`,
    );
    return EXIT.ok;
  }
  for (const line of comparisonLines(comparison)) io.out(line);
  return EXIT.ok;
}

/** A saved run with its recorded score (or this build's, when it has none). */
function loadRun(file: string): ComparedRun {
  return savedRun(file, loadTrajectory(file));
}

function suiteCommand(a: string, b: string | undefined, options: CompareOptions, io: CliIO): ExitCode {
  if (b === undefined) throw new ExitError("--suite compares two runs folders: give A and B", EXIT.usage);
  if (options.reference || options.html !== undefined) throw new ExitError("--suite takes neither --reference nor --html", EXIT.usage);
  for (const path of [a, b]) {
    try {
      statSync(path);
    } catch {
      throw new ExitError(`${path}: no such file or folder`, EXIT.usage);
    }
  }
  let comparison: SuiteComparison;
  try {
    comparison = compareSuites(a, b, { errorsAsFailures: options.errorsAsFailures === true });
  } catch (e) {
    if (e instanceof SuiteCompareError) throw new ExitError(e.message, EXIT.usage);
    throw e;
  }
  if (options.json) io.out(JSON.stringify(comparison, null, 2));
  else for (const line of suiteComparisonLines(comparison)) io.out(line);
  return EXIT.ok;
}

function suiteComparisonLines(c: SuiteComparison): string[] {
  const sideLine = (label: string, s: SuiteComparison["a"]): string =>
    `${label}  ${s.path}: ${s.group}; ${s.counted} of ${s.runs} runs counted (${s.left_out} damaged, errored or unscored left out)`;
  const lines = [sideLine("A", c.a), sideLine("B", c.b)];
  if (c.only_a.length > 0) lines.push(`only in A (not paired): ${c.only_a.join(", ")}`);
  if (c.only_b.length > 0) lines.push(`only in B (not paired): ${c.only_b.join(", ")}`);
  if (c.edited.length > 0) lines.push(`played from different versions of the scenario in A and B (not paired): ${c.edited.join(", ")}`);
  for (const [label, s] of [
    ["A", c.a],
    ["B", c.b],
  ] as const) {
    if (s.duplicates > 0)
      lines.push(`${label} has ${s.duplicates} byte-identical cop${s.duplicates === 1 ? "y" : "ies"} of another run, counted once`);
  }
  const p = c.paired;
  if (p === null) {
    lines.push("no scenario has counted runs on both sides, so nothing is compared");
    return lines;
  }
  const s = p.success;
  lines.push(
    `${p.scenarios} scenarios paired (trials averaged first): B wins ${p.wins}, loses ${p.losses}, ties ${p.ties}`,
    `mean difference B - A ${signed(p.mean_difference)} ${formatInterval(p.interval)} (95% paired bootstrap over scenarios)`,
    `success (mean score at least ${s.threshold}): A ${s.a}, B ${s.b}; flipped to B ${s.only_b}, to A ${s.only_a}; exact McNemar p = ${s.p_value.toPrecision(3)}`,
  );
  if (c.flipped.length > 0) {
    lines.push("flipped:");
    for (const f of c.flipped) {
      lines.push(`  ${f.scenario}  A ${formatScore(f.a)} -> B ${formatScore(f.b)}  (toolsandbox compare ${f.file_a} ${f.file_b})`);
    }
  }
  return lines;
}

const signed = (x: number): string => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
