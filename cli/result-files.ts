// The files a peer mode's `eval` reads: given files as they are, folders searched (in sorted order,
// hidden folders and node_modules left out) for files with one of the wanted suffixes; and the
// scenario `--scenario` names.
import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { formatDiagnostic } from "../engine/base/diagnostics.js";
import { JsonInputError } from "../engine/base/json-reader.js";
import type { Scenario } from "../engine/scenario/model.js";
import { TRAJECTORY_SUFFIX } from "../engine/trajectory/writer.js";
import { ExitError, EXIT, fsError } from "../engine/runner/errors.js";
import { problemLine, type CliIO } from "./io.js";
import { hasErrors, isDirectory, loadScenario } from "../engine/runner/scenario-files.js";

function filesUnder(dir: string, suffixes: readonly string[]): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    throw fsError(e, dir);
  }
  return entries
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .filter((entry) => !entry.name.startsWith(".") && entry.name !== "node_modules")
    .flatMap((entry) =>
      entry.isDirectory()
        ? filesUnder(join(dir, entry.name), suffixes)
        : entry.isFile() && suffixes.some((s) => entry.name.endsWith(s))
          ? [join(dir, entry.name)]
          : [],
    );
}

/** Each path's files, once each; a folder with none of them is an error naming the suffixes. */
function collectResultFiles(paths: readonly string[], suffixes: readonly string[]): string[] {
  const files = paths.flatMap((path) => {
    if (!isDirectory(path)) return [path];
    const found = filesUnder(path, suffixes);
    if (found.length === 0)
      throw new ExitError(`${path}: no ${suffixes.map((s) => `*${s}`).join(" or ")} files in this directory`, EXIT.io);
    return found;
  });
  return [...new Set(files)];
}

/** What a peer mode's `eval` reads: its run files beside trajectories, and the summary its `run` writes. */
interface ModeFileSpec {
  /** "dialogtool", "tooltalk": as in `--mode`. */
  readonly mode: string;
  readonly runSuffix: string;
  readonly summaryFile: string;
  /** What the run files hold, for the skip line: "scenarios", "conversations". */
  readonly items: string;
}

/**
 * The files to score: run files and trajectories under `paths`. The summary the mode's `run` writes
 * beside its run files (a shell glob brings it along) holds no run: said once, and left out.
 */
export function modeResultFiles(paths: readonly string[], spec: ModeFileSpec, io: CliIO): string[] {
  const files = collectResultFiles(paths, [TRAJECTORY_SUFFIX, spec.runSuffix]).filter((file) => {
    if (basename(file) !== spec.summaryFile) return true;
    io.err(
      problemLine(
        `${file}: skipped: this is the summary \`run --mode ${spec.mode}\` writes; the ${spec.items} are the *${spec.runSuffix} files beside it`,
      ),
    );
    return false;
  });
  if (files.length === 0) throw new ExitError(`nothing to score: give *${spec.runSuffix} or *${TRAJECTORY_SUFFIX} files`, EXIT.usage);
  return files;
}

/** `eval --scenario FILE`: the scenario every trajectory is scored against; one with errors stops the command. */
export function loadOverrideScenario(file: string, io: CliIO): Scenario {
  const loaded = loadScenario(file);
  for (const d of loaded.diagnostics) io.err(formatDiagnostic(d));
  if (hasErrors(loaded.diagnostics) || !loaded.scenario) throw new ExitError(`${file} has errors; nothing was scored`, EXIT.failed);
  return loaded.scenario;
}

/** A mode's run file read and parsed by `parse`; unreadable is exit 3, malformed exit 4, each one line. */
export function readModeRunFile<T>(file: string, parse: (text: string, file: string) => T): T {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw fsError(e, file);
  }
  try {
    return parse(text, file);
  } catch (e) {
    if (e instanceof JsonInputError) throw new ExitError(e.message, EXIT.malformedTrajectory);
    throw e;
  }
}

/**
 * Entries grouped by the agent that played them, in the order each agent first appears: the
 * peer modes add up per agent, never across agents (docs/statistics.md).
 */
export function byAgent<T extends { readonly agent: string }>(entries: readonly T[]): [agent: string, entries: T[]][] {
  const groups = new Map<string, T[]>();
  for (const e of entries) {
    const group = groups.get(e.agent);
    if (group) group.push(e);
    else groups.set(e.agent, [e]);
  }
  return [...groups];
}
