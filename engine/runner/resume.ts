// `run --resume`: what a previous run of the same command left in the output directory. A job
// whose trajectory is complete (its header is the one this run would write, it parses cleanly,
// and it has its end event and its evaluation) is kept and read back into the summary. Anything
// else under the job's name (a run killed mid-episode, an episode cancelled by Ctrl-C, an engine
// failure) is deleted and played again from the start, never appended to. A file of an edited
// scenario is refused, named by the two scenario digests of the headers.
import { reviewSummary } from "./review-summary.js";
import { failureCause } from "../evaluation/failure-causes.js";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { TrajectoryHeader } from "../episode/types.js";
import { isJsonObject, type JsonObject } from "../base/json.js";
import { parseTrajectory } from "../trajectory/reader.js";
import { TrajectoryError } from "../trajectory/errors.js";
import { telemetryTotals } from "../trajectory/telemetry-totals.js";
import type { Trajectory } from "../trajectory/trajectory.js";
import { serializeLine } from "../trajectory/writer.js";
import type { BatchJob } from "./jobs.js";
import { isSymbolicLink } from "../base/output-files.js";
import { fsError } from "./errors.js";
import { jobResult } from "./play.js";
import { episodePeers, summarizePeers, type ScenarioResult } from "./summary.js";

type SavedJob =
  | { readonly kind: "missing" }
  /** A symbolic link under the job's name: never read as a finished run, never replaced; playing the job fails on it. */
  | { readonly kind: "link" }
  | { readonly kind: "complete"; readonly result: ScenarioResult }
  /** Left by an episode that did not finish; `reason` says how it falls short. */
  | { readonly kind: "incomplete"; readonly reason: string }
  /** Written by a run with other options or another version of the scenario: not this run's to replace. */
  | { readonly kind: "foreign"; readonly reason: string };

/**
 * Reads the job's trajectory in `outDir`, if there is one, and says what resuming does with it.
 * `judged`: the run has a role-play judge, so an episode of a scenario with a persona is finished
 * only with its judgement (a kill may fall between the evaluation and the verdict). `reviewed`: the
 * run has a failure reviewer, so a failed or errored episode is finished only with its review.
 */
export function inspectSavedJob(job: BatchJob, outDir: string, expected: TrajectoryHeader, judged = false, reviewed = false): SavedJob {
  const path = join(outDir, job.trajectory);
  if (isSymbolicLink(path)) return { kind: "link" };
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if (isErrno(e, "ENOENT")) return { kind: "missing" };
    throw fsError(e, path);
  }
  const firstLine = text.slice(0, text.indexOf("\n") + 1);
  if (firstLine !== serializeLine(expected)) {
    // A header cut short by a kill is this run's own; a whole header that differs is not.
    const saved = parseHeaderLine(firstLine);
    if (saved === null) return { kind: "incomplete", reason: "its header line is cut short" };
    // A file written before headers carried the scenario's digest is this run's if all else is.
    const { scenario_digest: _digest, ...undigested } = expected;
    const older = saved.scenario_digest === undefined && firstLine === serializeLine(undigested);
    if (!older) return { kind: "foreign", reason: headerDifference(saved, expected) };
  }
  let trajectory: Trajectory;
  try {
    trajectory = parseTrajectory(text, path);
  } catch (e) {
    if (e instanceof TrajectoryError) return { kind: "incomplete", reason: e.reason };
    throw e;
  }
  const why =
    incompleteness(trajectory) ??
    (judged && job.scenario.agent.persona && trajectory.judgement === null ? "it has no role-play judgement" : null) ??
    (reviewed && trajectory.review === null && needsReview(trajectory) ? "it failed and has no failure review" : null);
  if (why !== null) return { kind: "incomplete", reason: why };
  const { end, evaluation } = trajectory;
  if (end === null || evaluation === null) throw new Error("unreachable: a complete trajectory has its end and evaluation");
  const result = jobResult(job, {
    end: { reason: end.reason, detail: end.detail ?? null },
    evaluation,
    peers: summarizePeers(episodePeers(job.scenario, trajectory.messages)),
    messageCount: trajectory.messages.length,
    turnCount: evaluation.turn_count,
    engineError: null,
    telemetry: telemetryTotals(trajectory.modelCalls),
    ...(trajectory.judgement ? { rolePlay: trajectory.judgement.overall } : {}),
    ...(trajectory.review ? { review: reviewSummary(trajectory.review) } : {}),
    messages: trajectory.messages,
  });
  return { kind: "complete", result };
}

/** Null when the trajectory is a finished, scored episode; otherwise why it is not. */
function incompleteness(trajectory: Trajectory): string | null {
  const [warning] = trajectory.warnings;
  if (warning) return warning.message;
  if (trajectory.end === null) return "it has no end event";
  if (trajectory.end.reason === "cancelled") return "its episode was cancelled";
  if (trajectory.evaluation === null) return "it has no evaluation";
  return null;
}

/** Deletes what an unfinished job left, so it is played again into a fresh file. */
export function discardSavedJob(job: BatchJob, outDir: string): void {
  const path = join(outDir, job.trajectory);
  try {
    rmSync(path, { force: true });
  } catch (e) {
    throw fsError(e, path);
  }
}

function parseHeaderLine(line: string): JsonObject | null {
  if (!line.endsWith("\n")) return null;
  try {
    const value: unknown = JSON.parse(line);
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** What differs between a saved header and this run's, in a few words. */
function headerDifference(saved: JsonObject, expected: TrajectoryHeader): string {
  if (saved.type !== "header" || saved.format !== expected.format) return "it is not a trajectory this run wrote";
  const run: JsonObject = isJsonObject(saved.run) ? saved.run : {};
  const wanted = new Map<string, unknown>(Object.entries(expected.run));
  const json = (v: unknown): string => JSON.stringify(v ?? null);
  // The run settings first (seed, roles, model settings, options), then the scenario itself.
  for (const key of new Set([...wanted.keys(), ...Object.keys(run)])) {
    const [was, is] = [run[key], wanted.get(key)];
    if (json(was) === json(is)) continue;
    const scalar = (v: unknown): boolean => v === undefined || v === null || typeof v !== "object";
    return scalar(was) && scalar(is)
      ? `it was played with ${key} ${json(was)}, this run uses ${json(is)}`
      : `it was played with other ${key}`;
  }
  // The header's digest names the two versions; a file from before it was recorded has none to name.
  if (typeof saved.scenario_digest === "string" && saved.scenario_digest !== expected.scenario_digest)
    return `it was played from another version of the scenario (${saved.scenario_digest}; this run's is ${expected.scenario_digest ?? "unknown"})`;
  return "it was played from another version of the scenario";
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && "code" in error && (error as { code: unknown }).code === code;
}

/** Whether `run --review` reviews this finished run: it failed or errored by the rules, and was not cancelled. */
function needsReview(trajectory: Trajectory): boolean {
  if (trajectory.endReason === "cancelled") return false;
  return (
    failureCause({
      scenario: trajectory.header.scenario,
      messages: trajectory.messages,
      endReason: trajectory.endReason,
      endDetail: trajectory.end?.detail ?? null,
      evaluation: trajectory.evaluation,
    }) !== null
  );
}
