// The last run of a scenario, for hover: the newest *.trajectory.jsonl whose header names the
// scenario, and its evaluation (the one `run` recorded, or the trajectory re-scored against its
// own embedded scenario for files written without one). Looked for under the workspace folders
// (hidden folders and node_modules skipped) and in the extension's runs folders: the default
// `.toolsandbox/runs` and the one `toolsandbox.runsFolder` names, resolved against each workspace
// folder as the extension resolves it (engine/trajectory/run-files.ts).
//
// The folders are scanned on demand. When the client watches trajectory files for us
// (workspace/didChangeWatchedFiles), a scan is reused until a file changes; otherwise (or when a
// runs folder lies outside the workspace, where the watcher does not reach) it is reused for a
// few seconds. Only files whose size or modification time changed are read again, and only their
// first line, so a rescan costs a directory walk and a stat per trajectory.
import { type Dirent, closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { DEFAULT_RUNS_FOLDER, resolveRunsFolder } from "../../engine/trajectory/run-files.js";
import { evaluateTrajectory } from "../../engine/evaluation/evaluate.js";
import type { EvaluationResult } from "../../engine/evaluation/result.js";
import { isJsonObject } from "../../engine/base/json.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { TRAJECTORY_SUFFIX } from "../../engine/trajectory/writer.js";

/** How long a scan is trusted when nobody tells us about file changes. */
const UNWATCHED_SCAN_TTL_MS = 3000;
/** Bounds on the walk, so a huge workspace costs a bounded pause, not a hang. */
const MAX_DEPTH = 12;
const MAX_DIRECTORIES = 5000;
/** A header line holds the resolved scenario; one far past this is not a trajectory we wrote. */
const MAX_HEADER_BYTES = 16 * 1024 * 1024;
const SKIPPED_DIRECTORIES = new Set(["node_modules"]);

interface FileStamp {
  readonly mtimeMs: number;
  readonly size: number;
}

interface HeaderEntry extends FileStamp {
  /** The scenario name in the header; null when the first line is not a trajectory header. */
  readonly scenario: string | null;
}

interface ResultEntry extends FileStamp {
  readonly result: EvaluationResult | null;
}

interface Scan {
  readonly at: number;
  /** The roots and the runs folder setting it was made for. */
  readonly key: string;
  readonly files: ReadonlyMap<string, HeaderEntry>;
  /** Every folder it listed lies inside a root, where the client's file watcher reports changes. */
  readonly watchable: boolean;
}

export class LastRuns {
  private roots: readonly string[] = [];
  private runsFolderSetting = DEFAULT_RUNS_FOLDER;
  private watched = false;
  private scan: Scan | null = null;
  private readonly headers = new Map<string, HeaderEntry>();
  private readonly results = new Map<string, ResultEntry>();

  constructor(
    private readonly log: (message: string) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The workspace folders (local paths). */
  setRoots(roots: readonly string[]): void {
    this.roots = [...roots];
    this.scan = null;
  }

  /** The `toolsandbox.runsFolder` setting as written (relative to each workspace folder, or absolute). */
  setRunsFolderSetting(setting: string): void {
    this.runsFolderSetting = setting;
    this.scan = null;
  }

  /** The client watches trajectory files and will call `filesChanged`. */
  setWatched(watched: boolean): void {
    this.watched = watched;
  }

  filesChanged(): void {
    this.scan = null;
  }

  /**
   * The evaluation of the newest trajectory of `scenario`; null when there is none or it cannot
   * be read. `fallbackRoot` is searched when there are no workspace folders (a lone file open).
   */
  forScenario(scenario: string, fallbackRoot: string | null): EvaluationResult | null {
    const roots = this.roots.length > 0 ? this.roots : fallbackRoot ? [fallbackRoot] : [];
    let newest: { path: string; entry: HeaderEntry } | null = null;
    for (const [path, entry] of this.files(roots)) {
      if (entry.scenario !== scenario) continue;
      if (!newest || entry.mtimeMs > newest.entry.mtimeMs) newest = { path, entry };
    }
    return newest ? this.resultOf(newest.path, newest.entry) : null;
  }

  private files(roots: readonly string[]): ReadonlyMap<string, HeaderEntry> {
    const key = [...roots, this.runsFolderSetting].join("\n");
    const scan = this.scan;
    if (scan && scan.key === key && ((this.watched && scan.watchable) || this.now() - scan.at < UNWATCHED_SCAN_TTL_MS)) return scan.files;
    const files = new Map<string, HeaderEntry>();
    const walk = { directories: 0 };
    for (const root of roots) this.walk(root, 0, walk, files);
    const runsFolders = this.runsFolders(roots);
    for (const folder of runsFolders) this.list(folder, files);
    // Forget files that are gone, so the caches do not grow with every run ever made.
    for (const path of this.headers.keys()) if (!files.has(path)) this.headers.delete(path);
    for (const path of this.results.keys()) if (!files.has(path)) this.results.delete(path);
    const watchable = runsFolders.every((folder) => roots.some((root) => isInside(folder, root)));
    this.scan = { at: this.now(), key, files, watchable };
    return files;
  }

  /** The runs folders of the roots: the default one and the one the setting names. */
  private runsFolders(roots: readonly string[]): string[] {
    const folders = new Set<string>();
    for (const root of roots) {
      folders.add(resolveRunsFolder(DEFAULT_RUNS_FOLDER, root, root));
      folders.add(resolveRunsFolder(this.runsFolderSetting, root, root));
    }
    return [...folders];
  }

  /** The trajectories directly in a runs folder (the extension writes them there, flat). */
  private list(folder: string, out: Map<string, HeaderEntry>): void {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return; // No run written yet.
    }
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith(TRAJECTORY_SUFFIX)) continue;
      const path = join(folder, entry.name);
      const header = this.headerOf(path);
      if (header) out.set(path, header);
    }
  }

  private walk(dir: string, depth: number, walk: { directories: number }, out: Map<string, HeaderEntry>): void {
    if (depth > MAX_DEPTH || walk.directories >= MAX_DIRECTORIES) return;
    walk.directories++;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // Unreadable or gone: nothing to find there.
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !SKIPPED_DIRECTORIES.has(entry.name)) this.walk(path, depth + 1, walk, out);
      } else if (entry.isFile() && entry.name.endsWith(TRAJECTORY_SUFFIX)) {
        const header = this.headerOf(path);
        if (header) out.set(path, header);
      }
    }
  }

  private headerOf(path: string): HeaderEntry | null {
    let stamp: FileStamp;
    try {
      const stat = statSync(path);
      stamp = { mtimeMs: stat.mtimeMs, size: stat.size };
    } catch {
      return null;
    }
    const known = this.headers.get(path);
    if (known && sameStamp(known, stamp)) return known;
    const entry: HeaderEntry = { ...stamp, scenario: scenarioNameOf(readFirstLine(path)) };
    this.headers.set(path, entry);
    return entry;
  }

  private resultOf(path: string, stamp: FileStamp): EvaluationResult | null {
    const known = this.results.get(path);
    if (known && sameStamp(known, stamp)) return known.result;
    let result: EvaluationResult | null = null;
    try {
      const trajectory = readTrajectoryFile(path);
      result = trajectory.evaluation ?? evaluateTrajectory(trajectory);
    } catch (e) {
      this.log(`cannot use the last run ${path}: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.results.set(path, { mtimeMs: stamp.mtimeMs, size: stamp.size, result });
    return result;
  }
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.mtimeMs === b.mtimeMs && a.size === b.size;
}

/** The first line of a file, read in chunks; null when unreadable or longer than a header can be. */
function readFirstLine(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    const buffer = Buffer.alloc(64 * 1024);
    while (total < MAX_HEADER_BYTES) {
      const read = readSync(fd, buffer, 0, buffer.length, total);
      if (read === 0) break;
      const newline = buffer.subarray(0, read).indexOf(0x0a);
      chunks.push(Buffer.from(buffer.subarray(0, newline < 0 ? read : newline)));
      total += read;
      if (newline >= 0) return Buffer.concat(chunks).toString("utf8");
    }
    return total > 0 && total < MAX_HEADER_BYTES ? Buffer.concat(chunks).toString("utf8") : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The scenario name in a trajectory header line, or null when the line is not one. */
export function scenarioNameOf(line: string | null): string | null {
  if (line === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isJsonObject(value) || value.type !== "header" || !isJsonObject(value.scenario)) return null;
  const name = value.scenario.name;
  return typeof name === "string" ? name : null;
}
