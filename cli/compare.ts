// `toolsandbox compare A [B] [--reference] [--html FILE]`: two runs of one scenario side by side
// (engine/compare): messages aligned, the first divergence, world changes and milestone results.
// With --reference (or no B), B is the scenario's reference solution played now.
import type { Command } from "commander";
import { compareRuns, CompareError, savedRun, type ComparedRun, type Comparison } from "../engine/compare/compare-runs.js";
import { comparisonHtml } from "../engine/compare/compare-html.js";
import { comparisonLines } from "../engine/compare/compare-text.js";
import { playReference } from "../engine/compare/reference-run.js";
import { ExitError, EXIT, type ExitCode } from "../engine/runner/errors.js";
import { writeReplayHtml } from "./html-export.js";
import type { CliIO } from "./io.js";
import { loadTrajectory } from "./replay.js";

export interface CompareOptions {
  readonly html?: string;
  readonly reference?: boolean;
}

export function registerCompare(program: Command, io: CliIO): void {
  program
    .command("compare")
    .description("two runs of one scenario side by side: messages aligned, the first divergence, world changes and milestone results")
    .argument("<a>", "a trajectory file")
    .argument("[b]", "another run of the same scenario (leave out, or give --reference, to compare with the scenario's reference)")
    .option("--reference", "compare A with the scenario's reference solution, played now")
    .option("--html <file>", "write the comparison as one HTML file")
    .action(async (a: string, b: string | undefined, opts: CompareOptions) => void (await compareCommand(a, b, opts, io)));
}

export async function compareCommand(a: string, b: string | undefined, options: CompareOptions, io: CliIO): Promise<ExitCode> {
  if (b !== undefined && options.reference) throw new ExitError("give a second run or --reference, not both", EXIT.usage);
  const left = loadRun(a);
  const right = b === undefined ? await playReference(left.trajectory.header) : loadRun(b);
  let comparison: Comparison;
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
export function loadRun(file: string): ComparedRun {
  return savedRun(file, loadTrajectory(file));
}
