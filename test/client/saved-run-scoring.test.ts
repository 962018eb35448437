// Opening a long saved run that has no evaluation line (client/host/saved-run-scoring.ts): it is
// scored in the extension's worker, off the host's event loop, with progress a user can read as a
// fraction, and the score lands in the store (and so in the panel and the inline results); the
// job can be cancelled, and a short run is still scored at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { longRunTrajectoryText } from "../../bench/long-run-trajectory.js";
import { evaluateTrajectory } from "../../engine/evaluation/evaluate.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";
import type { Trajectory } from "../../engine/trajectory/trajectory.js";
import { RunStore } from "../../client/host/run-store.js";
import { type BackgroundScoring, SavedRunScoring } from "../../client/host/saved-run-scoring.js";
import { BackgroundScorer } from "../../client/host/scoring-worker.js";
import { requireBuild } from "../cli/harness.js";

const ROOT = join(__dirname, "..", "..");
const SAMPLE = join(ROOT, "sample-scenarios", "trajectories", "cellular_off_adapted.trajectory.jsonl");
const WORKER = join(ROOT, "dist", "scoring-worker.js");
const RUN = "/runs/long.trajectory.jsonl";
const SCENARIO = "/scenarios/cellular_off_adapted.scenario.yaml";

/** The sample stretched to 3,000 messages: the generator writes no evaluation line. */
function longUnevaluatedRun(): Trajectory {
  return parseTrajectory(longRunTrajectoryText(readFileSync(SAMPLE, "utf8"), 3000, "spread"), "long.trajectory.jsonl");
}

/** The store, the scoring and the jobs it sent to the worker, and what it logged. */
function setUp(): { store: RunStore; scoring: SavedRunScoring; jobs: BackgroundScoring[]; warnings: string[] } {
  const store = new RunStore();
  const jobs: BackgroundScoring[] = [];
  const warnings: string[] = [];
  const scoring = new SavedRunScoring(
    store,
    new BackgroundScorer(WORKER),
    (line) => warnings.push(line),
    (job) => jobs.push(job),
  );
  return { store, scoring, jobs, warnings };
}

/** Opens the run as Trajectories.openSaved does: the evaluation first, then the store, then the scenario shows it. */
function open(store: RunStore, scoring: SavedRunScoring, trajectory: Trajectory): void {
  store.addSaved(RUN, "long", trajectory, scoring.evaluationOf(RUN, trajectory), "stamp");
  store.show(SCENARIO, RUN);
}

test("a long saved run without an evaluation is scored in the worker while the host's timers keep firing, with progress as a fraction", async () => {
  requireBuild();
  const trajectory = longUnevaluatedRun();
  assert.equal(trajectory.evaluation, null);
  const { store, scoring, jobs, warnings } = setUp();
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  open(store, scoring, trajectory);
  // The run opens at once, unscored; the score is on its way.
  assert.equal(store.results(SCENARIO)?.evaluation, null);
  assert.equal(jobs.length, 1);
  const job = jobs[0]!;
  assert.equal(job.messages, trajectory.messages.length);
  const reports: { text: string; fraction: number | null }[] = [];
  job.progress.onReport((text, fraction) => reports.push({ text, fraction }));
  await job.done;
  clearInterval(timer);
  // Scored in-process, the whole job would have ended before any timer had its turn.
  assert.ok(ticks > 0, "the host's timers fired while the worker scored");
  assert.deepEqual(store.results(SCENARIO)?.evaluation, evaluateTrajectory(trajectory));
  assert.deepEqual(warnings, []);
  // What the notification says: the lines read, then the milestones and minefields placed, to the last.
  const nodes = trajectory.header.scenario.milestones.length + trajectory.header.scenario.minefields.length;
  assert.ok(reports.some((r) => /^reading the run: [\d,]+ of [\d,]+ lines$/.test(r.text)));
  assert.match(reports.at(-1)!.text, new RegExp(`^placed ${nodes} of ${nodes} milestones`));
  assert.equal(reports.at(-1)!.fraction, 1);
  // A match past two seconds (a loaded machine) also reports the matcher's own line ("…; matching …"); placements are counted.
  const fractions = reports.flatMap((r) => (r.fraction === null || r.text.includes("; ") ? [] : [r.fraction]));
  assert.deepEqual(
    fractions,
    Array.from({ length: nodes }, (_, k) => (k + 1) / nodes),
    "one report per node placed",
  );
});

test("cancelling the job leaves the run unscored; opening the file again cancels the job in flight", async () => {
  requireBuild();
  const { store, scoring, jobs, warnings } = setUp();
  const first = longUnevaluatedRun();
  open(store, scoring, first);
  jobs[0]!.cancel();
  await jobs[0]!.done;
  assert.equal(store.results(SCENARIO)?.evaluation, null);
  // A second read of the file starts a new job and cancels the one before; only the new one scores.
  const second = longUnevaluatedRun();
  open(store, scoring, second);
  const third = longUnevaluatedRun();
  open(store, scoring, third);
  await Promise.all([jobs[1]!.done, jobs[2]!.done]);
  assert.equal(store.trajectory(RUN), third);
  assert.deepEqual(store.results(SCENARIO)?.evaluation, evaluateTrajectory(third));
  assert.deepEqual(warnings, []);
  scoring.dispose();
});

test("a short saved run without an evaluation is scored at once, in-process; a recorded evaluation is kept", () => {
  const { store, scoring, jobs } = setUp();
  const recorded = parseTrajectory(readFileSync(SAMPLE, "utf8"), "short.trajectory.jsonl");
  assert.notEqual(recorded.evaluation, null);
  assert.equal(scoring.evaluationOf(RUN, recorded), recorded.evaluation);
  const lines = readFileSync(SAMPLE, "utf8")
    .split("\n")
    .filter((l) => l !== "" && !l.includes('"type":"evaluation"'));
  const unevaluated = parseTrajectory(`${lines.join("\n")}\n`, "short.trajectory.jsonl");
  assert.equal(unevaluated.evaluation, null);
  open(store, scoring, unevaluated);
  assert.deepEqual(store.results(SCENARIO)?.evaluation, evaluateTrajectory(unevaluated));
  assert.equal(jobs.length, 0);
});
