// Long replays of the samples for the debugger's tests and bench:dap: a sample's own run stretched
// with traffic its milestones do not care about (bench/long-run-trajectory.ts), written to a
// folder of its own, with the sample's scenario file the line breakpoints bind to.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { longRunTrajectoryText, type TrafficPlacement } from "../../bench/long-run-trajectory.js";

const SAMPLES = resolve("sample-scenarios");

interface LongRun {
  readonly trajectory: string;
  readonly scenario: string;
  /** The scenario's text, to find the `- id:` lines of its milestones. */
  readonly source: string;
}

export function longRunFile(sample: string, messages: number, placement: TrafficPlacement): LongRun {
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-dap-long-"));
  const text = readFileSync(join(SAMPLES, "trajectories", `${sample}.trajectory.jsonl`), "utf8");
  const trajectory = join(dir, `${sample}.trajectory.jsonl`);
  writeFileSync(trajectory, longRunTrajectoryText(text, messages, placement));
  const scenario = join(SAMPLES, `${sample}.scenario.yaml`);
  return { trajectory, scenario, source: readFileSync(scenario, "utf8") };
}

/** The 1-based lines of the `- id:` of every milestone (the part of the file before `minefields:`), or of every node of `section`. */
export function milestoneLines(source: string, section: "milestones" | "minefields" = "milestones"): number[] {
  const lines = source.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`${section}:`));
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && /^\S/.test(l));
  const out: number[] = [];
  for (let i = start + 1; i < (end < 0 ? lines.length : end); i++) if (/^ {2}- id: /.test(lines[i]!)) out.push(i + 1);
  return out;
}
