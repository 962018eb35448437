// Where runs go: one trajectory per run in the runs folder, named after the scenario and a run
// number (`cellular_off.run-3.trajectory.jsonl`), never overwritten. The number is one past the
// highest in the folder, and the file is claimed with an exclusive create, so two runs started
// at once (a run from the palette while the Testing view runs) still get two files.
import { openSync, closeSync, readdirSync } from "node:fs";
import { makeDirectories } from "../base/output-files.js";
import { isAbsolute, join } from "node:path";
import { TRAJECTORY_SUFFIX } from "./writer.js";

export const DEFAULT_RUNS_FOLDER = ".toolsandbox/runs";

/** A scenario name with anything unsafe in a file name replaced (`toolsandbox run` and the extension agree). */
export const safeFileStem = (scenarioName: string): string => scenarioName.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\./, "_");

/**
 * The trajectory's file name: `<name>.trajectory.jsonl` for a single trial,
 * `<name>.trial-<k>.trajectory.jsonl` (k from 1) when the run has several.
 */
export function trajectoryFileName(scenarioName: string, trial: number | null = null): string {
  return `${safeFileStem(scenarioName)}${trial === null ? "" : `.trial-${trial}`}${TRAJECTORY_SUFFIX}`;
}

export function runFileName(scenarioName: string, run: number): string {
  return `${safeFileStem(scenarioName)}.run-${run}${TRAJECTORY_SUFFIX}`;
}

/** The run number of `fileName` if it is a run of this scenario, else null. */
export function runNumberOf(fileName: string, scenarioName: string): number | null {
  const prefix = `${safeFileStem(scenarioName)}.run-`;
  if (!fileName.startsWith(prefix) || !fileName.endsWith(TRAJECTORY_SUFFIX)) return null;
  const digits = fileName.slice(prefix.length, -TRAJECTORY_SUFFIX.length);
  if (!/^[1-9][0-9]{0,8}$/.test(digits)) return null;
  return Number(digits);
}

/** The file of the highest-numbered run of the scenario among `fileNames`, or null. */
export function latestRunFile(fileNames: readonly string[], scenarioName: string): string | null {
  let best: { name: string; run: number } | null = null;
  for (const name of fileNames) {
    const run = runNumberOf(name, scenarioName);
    if (run !== null && (best === null || run > best.run)) best = { name, run };
  }
  return best?.name ?? null;
}

export function nextRunNumber(fileNames: readonly string[], scenarioName: string): number {
  const latest = latestRunFile(fileNames, scenarioName);
  return latest === null ? 1 : (runNumberOf(latest, scenarioName) ?? 0) + 1;
}

/**
 * The runs folder as a path: the setting as it is when absolute, else under the workspace folder
 * that holds the scenario (or beside the scenario when it is in none).
 */
export function resolveRunsFolder(setting: string, workspaceFolder: string | null, scenarioDir: string): string {
  const folder = setting.trim() === "" ? DEFAULT_RUNS_FOLDER : setting.trim();
  return isAbsolute(folder) ? folder : join(workspaceFolder ?? scenarioDir, folder);
}

/** Names in the folder, or none when it does not exist yet. */
export function listRunsFolder(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

/** Creates the folder if needed and claims the next run's file (empty); returns its path. */
export function claimRunFile(folder: string, scenarioName: string): string {
  makeDirectories(folder);
  let run = nextRunNumber(listRunsFolder(folder), scenarioName);
  for (;;) {
    const path = join(folder, runFileName(scenarioName, run));
    try {
      closeSync(openSync(path, "wx"));
      return path;
    } catch (e) {
      if (!(e instanceof Error && "code" in e && e.code === "EEXIST")) throw e;
      run++;
    }
  }
}
