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
import { failureCause, type FailureCause } from "../evaluation/failure-causes.js";
import { reviewSummary, type ReviewSummary } from "../runner/failure-review.js";
import { isErroredEnd, type RunStatus } from "../evaluation/outcome.js";
import { packById } from "../packs/registry.js";
import { appsOfTools } from "../scenario/apps.js";
import type { TrajectoryHeader } from "../episode/types.js";
import type { Scenario } from "../scenario/model.js";
import { headerScenarioDigest } from "../trajectory/scenario-digest.js";
import { checkRunText, readRunFile, type CheckedRun, type RunDamage } from "../trajectory/run-damage.js";
import type { Trajectory } from "../trajectory/trajectory.js";
import { telemetryTotals, type TelemetryTotals } from "../trajectory/telemetry-totals.js";
import { TRAJECTORY_SUFFIX } from "../trajectory/writer.js";

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
  /** "own" when each scenario used its own wording, else "set:" and a digest of the prompt set's tool texts and user preamble. */
  readonly prompts: string;
  /** The tool-augmentation tags and scramblings of the scenario, joined with "+"; "none" for a plain scenario. */
  readonly augmentation: string;
  readonly seed: number | null;
  /** From `<name>.trial-<k>.trajectory.jsonl`; null for a single trial. */
  readonly trial: number | null;
  /** Whether the score counts: scored, errored (infrastructure), damaged (the file), unscored (no evaluation, or the agent never acted). */
  readonly status: RunStatus;
  /** The score that counts: the recorded evaluation's score for a scored run, else null. */
  readonly score: number | null;
  /** What the file's evaluation line says, whatever the status (an errored run may have reached every milestone). */
  readonly recorded_score: number | null;
  readonly turns: number | null;
  readonly messages: number;
  /** The end reason; null when the file has no end (the run was cut short). */
  readonly end_reason: string | null;
  /** The role-play judge's overall score (1-5); null when the run was not judged or the judgement failed. */
  readonly role_play: number | null;
  /** The end's detail for an errored or unscored run (what failed), else null. */
  readonly error: string | null;
  /** The model calls summed (all zero for scripted runs). Their latency is the run's model time. */
  readonly telemetry: TelemetryTotals;
  /** The file's modification time (ms since 1970). */
  readonly date: number;
  /** Why the file could not be read as a whole run; null when it could. */
  readonly damaged: string | null;
  /** The 1-based line where a damaged file breaks; null when it is whole or the problem is the file as a whole. */
  readonly damaged_line: number | null;
  /**
   * "sha256:" and the first 16 hex digits of the digest of the resolved scenario the run played
   * (its header's scenario_digest, or computed from the embedded scenario for older files); null
   * when the header did not read. Runs of an edited scenario have another digest under the same name.
   */
  readonly scenario_digest?: string | null;
  /** The digest of the file's bytes: a byte-identical copy of a run has the same; null when the file was not read whole. */
  readonly content_digest?: string | null;
  /** Why a failed or errored run failed, by rule (evaluation/failure-causes.ts); null for a success or a damaged or unscored file. */
  readonly cause: FailureCause | null;
  /** The failure reviewer's verdict beside `cause` (`run --review`); absent when the run was not reviewed. */
  readonly review?: ReviewSummary;
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
