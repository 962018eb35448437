// Turning command-line paths into scenario and trajectory files, and loading scenarios. Directories are searched
// recursively; the order is by code unit (not locale), so every machine runs the same order.
import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "../base/diagnostics.js";
import type { Scenario } from "../scenario/model.js";
import { readScenarioFileText, type ScenarioFileText } from "../scenario/file-text.js";
import { checkFileText, type LoadOptions } from "../scenario/load.js";
import { TRAJECTORY_SUFFIX } from "../trajectory/writer.js";
import { ExitError, EXIT, fsError } from "./errors.js";

const SCENARIO_SUFFIXES = [".scenario.yaml", ".scenario.yml"];

export const isScenarioFileName = (name: string): boolean => SCENARIO_SUFFIXES.some((s) => name.endsWith(s));

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Files named on the command line as they are; directories expanded to the scenario files under them. */
export function collectScenarioFiles(paths: readonly string[]): string[] {
  return collectFiles(paths, isScenarioFileName, "*.scenario.yaml");
}

/** The same for saved runs: directories expanded to the *.trajectory.jsonl files under them. */
export function collectTrajectoryFiles(paths: readonly string[]): string[] {
  return collectFiles(paths, (name) => name.endsWith(TRAJECTORY_SUFFIX), `*${TRAJECTORY_SUFFIX}`);
}

function collectFiles(paths: readonly string[], wanted: (name: string) => boolean, pattern: string): string[] {
  const files: string[] = [];
  for (const path of paths) {
    if (isDirectory(path)) {
      const found = filesUnder(path, wanted);
      if (found.length === 0) throw new ExitError(`${path}: no ${pattern} files in this directory`, EXIT.io);
      files.push(...found);
    } else {
      files.push(path);
    }
  }
  return [...new Set(files)];
}

/** True for a directory with no scenario files under it but saved runs (a `run --out` folder). */
export function isRunFolder(path: string): boolean {
  let directory = false;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    return false; // Not there: the caller's own loading reports it.
  }
  return (
    directory && filesUnder(path, isScenarioFileName).length === 0 && filesUnder(path, (n) => n.endsWith(TRAJECTORY_SUFFIX)).length > 0
  );
}

/** Whether a path is a directory; a path that cannot be read is a one-line ExitError. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (e) {
    throw fsError(e, path);
  }
}

function filesUnder(dir: string, wanted: (name: string) => boolean): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    throw fsError(e, dir);
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => byCodeUnit(a.name, b.name))) {
    // Dot directories and node_modules hold tooling, never a suite.
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path, wanted));
    else if (entry.isFile() && wanted(entry.name)) out.push(path);
  }
  return out;
}

interface LoadedScenario {
  readonly file: string;
  /** The file's text, for locating findings made after the check (validate's reference scoring). */
  readonly text: string;
  readonly scenario: Scenario | null;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Loads and checks one file. The CLI reads the file itself so that a file it cannot read is an
 * input error (exit 3), not a diagnostic in the file (exit 1).
 */
export function loadScenario(file: string, options: LoadOptions = {}): LoadedScenario {
  let read: ScenarioFileText;
  try {
    read = readScenarioFileText(file);
  } catch (e) {
    throw fsError(e, file);
  }
  const text = read.ok ? read.text : "";
  const result = checkFileText(read, file, options);
  const diagnostics = [...result.diagnostics].sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
  return { file, text, scenario: result.scenario, diagnostics };
}

export const hasErrors = (diagnostics: readonly Diagnostic[]): boolean => diagnostics.some((d) => d.severity === "error");
