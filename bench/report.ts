// Each bench rewrites its own section of docs/benchmarks.md when it finishes, so the figures the
// docs quote are the ones the bench last printed, with the conditions they were taken under (a
// figure means little without the machine's load). The section sits between
// `<!-- bench:<name> -->` and `<!-- /bench:<name> -->`; the prose around it is never touched.
//
// A bench calls startBenchReport(name) where it used to call reportMachine(): from then on what it
// prints to stdout is also kept (stderr, its progress, is not). It names each target with
// report.target(what, met), and calls report.write() at the end of a successful run. A run that
// set a failing exit code writes nothing.
import { randomBytes } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { format } from "node:util";
import { reportMachine } from "./machine.js";

const oneMinuteLoad = (): number => loadavg()[0] ?? 0;

export const BENCHMARKS_DOC = join(__dirname, "..", "docs", "benchmarks.md");

export interface BenchTarget {
  readonly what: string;
  readonly met: boolean;
}

/** Everything a section holds. */
export interface BenchRun {
  readonly bench: string;
  /** When the run ended. */
  readonly date: Date;
  /** The 1-minute load average at the start and at the end. */
  readonly loadStart: number;
  readonly loadEnd: number;
  readonly node: string;
  readonly cores: number;
  /** The arguments after `--`, if any: a run of some cases only says so. */
  readonly args: readonly string[];
  readonly targets: readonly BenchTarget[];
  /** The lines the bench printed. */
  readonly figures: readonly string[];
}

const startMarker = (bench: string): string => `<!-- bench:${bench} -->`;
const endMarker = (bench: string): string => `<!-- /bench:${bench} -->`;

/** The text between the markers. */
export function sectionBody(run: BenchRun): string {
  const date = `${run.date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const command = `npm run bench:${run.bench}${run.args.length > 0 ? ` -- ${run.args.join(" ")}` : ""}`;
  const lines = [
    `Last run: ${date}, \`${command}\`; node ${run.node}, ${run.cores} cores, load average (1 min) ` +
      `${run.loadStart.toFixed(2)} at the start and ${run.loadEnd.toFixed(2)} at the end.`,
    "",
  ];
  if (run.targets.length === 0) lines.push("Targets: none (figures only).");
  else {
    lines.push("Targets:", "");
    for (const t of run.targets) lines.push(`- ${t.what}: ${t.met ? "met" : "MISSED"}`);
  }
  // Trailing blank lines of the output would only pad the block.
  const figures = [...run.figures];
  while (figures.length > 0 && figures.at(-1)?.trim() === "") figures.pop();
  lines.push("", "```text", ...figures, "```");
  return lines.join("\n");
}

/**
 * The document with the bench's section replaced by `body`. A document without the section gets
 * one at its end, under a heading of its own; markers in the wrong order are an error.
 */
export function replaceSection(doc: string, bench: string, body: string): string {
  const start = doc.indexOf(startMarker(bench));
  const end = doc.indexOf(endMarker(bench));
  if (start < 0 && end < 0) {
    const separator = doc.endsWith("\n") ? "\n" : "\n\n";
    return `${doc}${separator}## \`bench:${bench}\`\n\n${startMarker(bench)}\n${body}\n${endMarker(bench)}\n`;
  }
  if (start < 0 || end < start) throw new Error(`the markers of bench:${bench} are missing or out of order`);
  return `${doc.slice(0, start + startMarker(bench).length)}\n${body}\n${doc.slice(end)}`;
}

/** Rewrites the bench's section of the document, through a temporary file renamed into place. */
function writeBenchSection(run: BenchRun, file: string = BENCHMARKS_DOC): void {
  const next = replaceSection(readFileSync(file, "utf8"), run.bench, sectionBody(run));
  const temporary = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, next, { flag: "wx" });
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}

export interface BenchReport {
  /** One target and whether this run met it. */
  target(what: string, met: boolean): void;
  /** Writes the section (once), and stops keeping what is printed. */
  write(): void;
}

/** Prints the machine line (as reportMachine does) and starts keeping what the bench prints. */
export function startBenchReport(bench: string, file: string = BENCHMARKS_DOC): BenchReport {
  reportMachine();
  const loadStart = oneMinuteLoad();
  const figures: string[] = [];
  const targets: BenchTarget[] = [];
  const log = console.log;
  console.log = (...values: unknown[]): void => {
    log(...values);
    figures.push(...format(...values).split("\n"));
  };
  let written = false;
  return {
    target: (what, met) => void targets.push({ what, met }),
    write: () => {
      if (written) return;
      written = true;
      console.log = log;
      if (process.exitCode !== undefined && process.exitCode !== 0) {
        console.error(`bench:${bench}: the run failed, so ${file} keeps its earlier figures`);
        return;
      }
      const run: BenchRun = {
        bench,
        date: new Date(),
        loadStart,
        loadEnd: oneMinuteLoad(),
        node: process.version,
        cores: cpus().length,
        args: process.argv.slice(2),
        targets,
        figures,
      };
      try {
        writeBenchSection(run, file);
        log(`bench:${bench}: figures written to ${file} (section bench:${bench})`);
      } catch (e) {
        console.error(`bench:${bench}: could not update ${file}: ${e instanceof Error ? e.message : String(e)}`);
        process.exitCode = 1;
      }
    },
  };
}

/** The middle value (the mean of the two middle ones for an even count): every bench's headline figure. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
