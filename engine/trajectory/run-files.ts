// Where runs go: one trajectory per run in the runs folder, named after the scenario and a run
// number (`cellular_off.run-3.trajectory.jsonl`), never overwritten. The number is one past the
// highest in the folder, and the file is claimed with an exclusive create, so two runs started
// at once (a run from the palette while the Testing view runs) still get two files.
import { openSync, closeSync, readdirSync, statSync, type Dirent } from "node:fs";
import { makeDirectories } from "../base/output-files.js";
import { isAbsolute, join } from "node:path";
import { TRAJECTORY_SUFFIX } from "./writer.js";

export const DEFAULT_RUNS_FOLDER = ".toolsandbox/runs";

/** A scenario name with anything unsafe in a file name replaced (`toolsandbox run` and the extension agree). */
const safeFileStem = (scenarioName: string): string => scenarioName.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\./, "_");

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
function listRunsFolder(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

/** A trajectory file found under a runs folder. */
interface RunFileEntry {
  readonly path: string;
  /** The file's name (its last path segment). */
  readonly name: string;
  readonly mtimeMs: number;
}

/**
 * Whether the file name is a run of the scenario: the extension's `<name>.run-N`, or `run --out`'s
 * `<name>` and `<name>.trial-K` (a run folder kept under the runs folder, e.g. one per agent).
 */
export function isRunOf(fileName: string, scenarioName: string): boolean {
  if (runNumberOf(fileName, scenarioName) !== null) return true;
  const stem = safeFileStem(scenarioName);
  if (!fileName.startsWith(stem) || !fileName.endsWith(TRAJECTORY_SUFFIX)) return false;
  const middle = fileName.slice(stem.length, -TRAJECTORY_SUFFIX.length);
  return middle === "" || /^\.trial-[1-9][0-9]{0,8}$/.test(middle);
}

/**
 * The last run of the scenario among files anywhere under the runs folder: the newest by
 * modification time (the run numbers of two folders say nothing about which came later), and of
 * runs written in the same millisecond the higher run number, then the later path.
 */
export function pickLastRun(entries: readonly RunFileEntry[], scenarioName: string): string | null {
  let best: RunFileEntry | null = null;
  const number = (e: RunFileEntry): number => runNumberOf(e.name, scenarioName) ?? 0;
  for (const e of entries) {
    if (!isRunOf(e.name, scenarioName)) continue;
    if (
      best === null ||
      e.mtimeMs > best.mtimeMs ||
      (e.mtimeMs === best.mtimeMs && (number(e) > number(best) || (number(e) === number(best) && e.path > best.path)))
    )
      best = e;
  }
  return best?.path ?? null;
}

/** How far below the runs folder runs are looked for, and how many folders at most (a bounded pause, never a hang). */
const RUN_SEARCH_DEPTH = 4;
const RUN_SEARCH_FOLDERS = 2000;

/** Every trajectory file in the folder and its subfolders (hidden ones and node_modules skipped), up to a few levels down. */
export function listRunFilesBelow(folder: string): RunFileEntry[] {
  const found: RunFileEntry[] = [];
  let folders = 0;
  const walk = (dir: string, depth: number): void => {
    if (++folders > RUN_SEARCH_FOLDERS) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < RUN_SEARCH_DEPTH && !entry.name.startsWith(".") && entry.name !== "node_modules") walk(path, depth + 1);
      } else if (entry.isFile() && entry.name.endsWith(TRAJECTORY_SUFFIX)) {
        try {
          found.push({ path, name: entry.name, mtimeMs: statSync(path).mtimeMs });
        } catch {
          // Gone since the listing: not a run to replay.
        }
      }
    }
  };
  walk(folder, 0);
  return found;
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
