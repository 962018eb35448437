// One row of the runs view and of `toolsandbox report`: what a trajectory file says about its run
// (scenario, categories, roles, prompt set, augmentation, seed, trial, status, score, turns, end,
// model time, tokens, date). Every line is checked as `replay` checks it (run-damage.ts): a file
// that breaks anywhere is a row too, marked damaged with the line and the reason and never
// scored, so a broken run is neither silently missing nor counted. Errored runs (outcome.ts) keep
// their recorded score beside a null one.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { AUGMENTATION_CATEGORIES } from "../evaluation/categories.js";
import { failureCause } from "../evaluation/failure-causes.js";
import { reviewSummary } from "../runner/review-summary.js";
import { isErroredEnd, type RunStatus } from "../evaluation/outcome.js";
import { packById } from "../packs/registry.js";
import { appsOfTools } from "../scenario/apps.js";
import type { TrajectoryHeader } from "../episode/types.js";
import type { Scenario } from "../scenario/model.js";
import { headerScenarioDigest } from "../trajectory/scenario-digest.js";
import { checkRunText, readRunFile, type CheckedRun, type RunDamage } from "../trajectory/run-damage.js";
import type { Trajectory } from "../trajectory/trajectory.js";
import { telemetryTotals } from "../trajectory/telemetry-totals.js";
import { TRAJECTORY_SUFFIX } from "../trajectory/writer.js";
import type { RunRecord } from "./types.js";

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
  const checked = readRunFile(file);
  // A file over the size limit was not read, so it has no content digest.
  const digest = checked.trajectory === null && checked.damage?.line === null ? null : contentDigest(readFileSync(file, "utf8"));
  return recordOfChecked(checked, file, root, date, digest);
}

/** The record of a file's text (pure but for the clock-free parse; `date` is its modification time). */
export function runRecordOf(text: string, file: string, root: string, date: number): RunRecord {
  return recordOfChecked(checkRunText(text, file), file, root, date, contentDigest(text));
}

/** The digest of a run file's text: byte-identical copies of a run share it. */
export const contentDigest = (text: string): string => `sha256:${createHash("sha256").update(text).digest("hex")}`;

/** What a run's header says about the group it belongs to (trial-groups.ts) and the version of the scenario it played. */
export function groupFieldsOf(
  header: TrajectoryHeader,
): Pick<RunRecord, "agent" | "user" | "prompts" | "augmentation"> & { readonly scenario_digest: string } {
  return {
    agent: header.run.agent,
    user: header.run.user,
    prompts: promptSetOf(header.scenario),
    augmentation: augmentationOf(header.scenario),
    scenario_digest: headerScenarioDigest(header),
  };
}

/** Every line of the file was checked (run-damage.ts); a damaged file keeps what it could read but never a score. */
function recordOfChecked(
  { trajectory, damage }: CheckedRun,
  file: string,
  root: string,
  date: number,
  content_digest: string | null,
): RunRecord {
  const trialMatch = TRIAL.exec(basename(file));
  const base = {
    content_digest,
    file,
    suite: relative(root, dirname(file)).split("\\").join("/"),
    trial: trialMatch ? Number(trialMatch[1]) : null,
    date,
    damaged: damage === null ? null : damage.reason,
    damaged_line: damage?.line ?? null,
  };
  if (trajectory === null) {
    return {
      ...base,
      scenario: basename(file).replace(TRAJECTORY_SUFFIX, ""),
      categories: [],
      apps: [],
      agent: "",
      user: "",
      prompts: "own",
      augmentation: "none",
      seed: null,
      scenario_digest: null,
      status: "damaged",
      score: null,
      recorded_score: null,
      turns: null,
      messages: 0,
      end_reason: null,
      role_play: null,
      error: null,
      telemetry: telemetryTotals([]),
      cause: null,
    };
  }
  const { header, evaluation } = trajectory;
  const scenario = header.scenario;
  const endReason = trajectory.endReason;
  const recorded = evaluation?.score ?? null;
  const { status, error } = runStatus(trajectory, damage);
  return {
    ...base,
    scenario: scenario.name,
    categories: scenario.categories,
    apps: referenceApps(scenario),
    ...groupFieldsOf(header),
    seed: header.run.seed,
    status,
    score: status === "scored" ? recorded : null,
    recorded_score: recorded,
    turns: evaluation?.turn_count ?? null,
    messages: trajectory.messages.length,
    end_reason: endReason,
    role_play: trajectory.judgement?.overall ?? null,
    error,
    telemetry: telemetryTotals(trajectory.modelCalls),
    cause:
      status === "scored" || status === "errored"
        ? failureCause({
            scenario: header.scenario,
            messages: trajectory.messages,
            endReason,
            endDetail: trajectory.end?.detail ?? null,
            evaluation,
          })
        : null,
    ...(trajectory.review === null ? {} : { review: reviewSummary(trajectory.review) }),
  };
}

/**
 * Whether a checked run's score counts (outcome.ts), and for an errored or unscored run what went
 * wrong: damage first, then an errored end, then a run with no evaluation or whose agent never acted.
 */
export function runStatus(
  trajectory: Trajectory,
  damage: RunDamage | null,
  /** `rescored`: the caller scores the run itself (eval), so a missing recorded evaluation does not matter. */
  { rescored = false }: { readonly rescored?: boolean } = {},
): { status: RunStatus; error: string | null } {
  if (damage !== null) return { status: "damaged", error: null };
  const reason = trajectory.endReason;
  if (isErroredEnd(reason)) return { status: "errored", error: trajectory.end?.detail ?? reason ?? "the engine failed" };
  if (!rescored && trajectory.evaluation === null) return { status: "unscored", error: "no evaluation was recorded" };
  // The setup's demonstration chat (scripted) holds agent messages too: they are not the agent acting.
  if (!trajectory.messages.some((m) => m.sender === "agent" && m.scripted !== true))
    return { status: "unscored", error: "the agent never acted" };
  return { status: "scored", error: null };
}

/** The apps of the tools the scenario's reference calls. */
function referenceApps(scenario: Scenario): string[] {
  const tools = scenario.reference.flatMap((step) => (step.kind === "agent_calls" ? step.calls.map((c) => c.tool) : []));
  return appsOfTools(packById(scenario.world.pack), tools);
}

/** Runs made with one prompt set share its tool texts and user preamble; without one, each scenario has its own wording. */
function promptSetOf(scenario: Scenario): string {
  const descriptions = scenario.tools.descriptions;
  if (descriptions === undefined) return "own";
  const sorted = Object.fromEntries(Object.entries(descriptions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const digest = createHash("sha256")
    .update(JSON.stringify([sorted, scenario.user.preamble ?? null]))
    .digest("hex");
  return `set:${digest.slice(0, 8)}`;
}

function augmentationOf(scenario: Scenario): string {
  const tags = [...scenario.categories.filter((c) => AUGMENTATION_CATEGORIES.includes(c)), ...(scenario.options.augmentations ?? [])];
  return tags.length === 0 ? "none" : [...new Set(tags)].join("+");
}
