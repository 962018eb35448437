// One row of the runs view and of `toolsandbox report`: what a trajectory file says about its run
// (scenario, categories, roles, seed, trial, score, turns, end, model time, tokens, date), read
// cheaply: the header line and the lines after the last message are parsed, model_call lines are
// summed, and the messages in between are only counted. A file that does not read is a row too,
// marked damaged with the reason, so a broken run is never silently missing from the table.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { isJsonObject, type JsonObject, type JsonValue } from "../base/json.js";
import { telemetryTotals, type TelemetryTotals } from "../trajectory/telemetry.js";
import type { ModelCall } from "../episode/types.js";
import { TRAJECTORY_SUFFIX } from "../trajectory/writer.js";
import { appsOfTools } from "../scenario/apps.js";
import { packById } from "../packs/registry.js";
import { isPackId } from "../packs/types.js";

export interface RunRecord {
  /** The file, as given or found under a given folder. */
  readonly file: string;
  /** The folder of the file relative to the folder it was found under ("" at its top): runs made together. */
  readonly suite: string;
  readonly scenario: string;
  readonly categories: readonly string[];
  /** The apps the scenario's reference uses (packs/<pack>/apps.ts); none without a reference or for an unknown pack. */
  readonly apps: readonly string[];
  readonly agent: string;
  readonly user: string;
  readonly seed: number | null;
  /** From `<name>.trial-<k>.trajectory.jsonl`; null for a single trial. */
  readonly trial: number | null;
  /** The recorded evaluation's score; null when the run was not scored (cut short, engine failure). */
  readonly score: number | null;
  readonly turns: number | null;
  readonly messages: number;
  /** The end reason; null when the file has no end (the run was cut short). */
  readonly end_reason: string | null;
  /** The role-play judge's overall score (1-5); null when the run was not judged or the judgement failed. */
  readonly role_play: number | null;
  /** The model calls summed (all zero for scripted runs). Their latency is the run's model time. */
  readonly telemetry: TelemetryTotals;
  /** The file's modification time (ms since 1970). */
  readonly date: number;
  /** Why the file could not be read as a run; null when it could. */
  readonly damaged: string | null;
}

/** The trajectory files under `paths` (files as given, folders searched), sorted within each folder. */
export function findRunFiles(paths: readonly string[]): { readonly file: string; readonly root: string }[] {
  const found: { file: string; root: string }[] = [];
  const walk = (dir: string, root: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules") walk(path, root);
      else if (entry.isFile() && entry.name.endsWith(TRAJECTORY_SUFFIX)) found.push({ file: path, root });
    }
  };
  for (const path of paths) {
    if (statSync(path).isDirectory()) walk(path, path);
    else found.push({ file: path, root: dirname(path) });
  }
  return found;
}

const TRIAL = /\.trial-(\d+)\.trajectory\.jsonl$/;

export function readRunRecord(file: string, root: string): RunRecord {
  const date = statSync(file).mtimeMs;
  return runRecordOf(readFileSync(file, "utf8"), file, root, date);
}

/** The record of a file's text (pure; `date` is its modification time). */
export function runRecordOf(text: string, file: string, root: string, date: number): RunRecord {
  const suite = relative(root, dirname(file)).split("\\").join("/");
  const trialMatch = TRIAL.exec(basename(file));
  const base = {
    file,
    suite,
    trial: trialMatch ? Number(trialMatch[1]) : null,
    date,
  };
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  const header = parse(lines[0]);
  const scenario = isJsonObject(header?.scenario ?? null) ? (header?.scenario as JsonObject) : null;
  const run = isJsonObject(header?.run ?? null) ? (header?.run as JsonObject) : null;
  if (header?.type !== "header" || scenario === null || run === null) {
    return {
      ...base,
      scenario: basename(file).replace(TRAJECTORY_SUFFIX, ""),
      categories: [],
      apps: [],
      agent: "",
      user: "",
      seed: null,
      score: null,
      turns: null,
      messages: 0,
      end_reason: null,
      role_play: null,
      telemetry: telemetryTotals([]),
      damaged: lines.length === 0 ? "the file is empty" : "the first line is not a trajectory header",
    };
  }
  let messages = 0;
  let end: JsonObject | null = null;
  let evaluation: JsonObject | null = null;
  let judgement: JsonObject | null = null;
  const calls: { call: ModelCall }[] = [];
  let damaged: string | null = null;
  for (const [i, line] of lines.entries()) {
    if (i === 0) continue;
    // Only the lines whose kind matters are parsed; a message is counted by its prefix.
    if (line.startsWith('{"type":"message"')) messages++;
    else if (line.startsWith('{"type":"model_call"')) {
      const call = parse(line)?.call;
      if (isModelCall(call)) calls.push({ call });
    } else if (line.startsWith('{"type":"end"')) end = parse(line);
    else if (line.startsWith('{"type":"evaluation"')) evaluation = parse(line);
    else if (line.startsWith('{"type":"judgement"')) judgement = parse(line);
    if (i === lines.length - 1 && parse(line) === null) damaged = `line ${i + 1} is cut short`;
  }
  const result = isJsonObject(evaluation?.result ?? null) ? (evaluation?.result as JsonObject) : null;
  if (damaged === null && end === null) damaged = "the run did not finish (no end)";
  return {
    ...base,
    scenario: str(scenario.name, basename(file)),
    categories: Array.isArray(scenario.categories) ? scenario.categories.filter((c): c is string => typeof c === "string") : [],
    apps: referenceApps(scenario),
    agent: str(run.agent, ""),
    user: str(run.user, ""),
    seed: typeof run.seed === "number" ? run.seed : null,
    score: typeof result?.score === "number" ? result.score : null,
    turns: typeof result?.turn_count === "number" ? result.turn_count : null,
    messages,
    end_reason: typeof end?.reason === "string" ? end.reason : null,
    role_play: typeof judgement?.overall === "number" ? judgement.overall : null,
    telemetry: telemetryTotals(calls),
    damaged,
  };
}

/** The apps of the tools the header's scenario's reference calls, read defensively (the file may be anyone's). */
function referenceApps(scenario: JsonObject): string[] {
  const world = scenario.world;
  const pack = isJsonObject(world) ? world.pack : undefined;
  if (typeof pack !== "string" || !isPackId(pack)) return [];
  const steps = Array.isArray(scenario.reference) ? scenario.reference : [];
  const tools = steps
    .flatMap((step) => (isJsonObject(step) && Array.isArray(step.calls) ? step.calls : []))
    .flatMap((call) => (isJsonObject(call) && typeof call.tool === "string" ? [call.tool] : []));
  return appsOfTools(packById(pack), tools);
}

function parse(line: string | undefined): JsonObject | null {
  if (line === undefined) return null;
  try {
    const value: unknown = JSON.parse(line);
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

const str = (value: JsonValue | undefined, fallback: string): string => (typeof value === "string" ? value : fallback);

function isModelCall(value: JsonValue | undefined): value is ModelCall & JsonObject {
  return (
    isJsonObject(value ?? null) && typeof (value as JsonObject).latency_ms === "number" && typeof (value as JsonObject).model === "string"
  );
}
