// Re-scoring a long run in the extension's worker (client/host/scoring-worker.ts, built as
// dist/scoring-worker.js): the score is the one the host would compute itself, the host's event
// loop runs while the worker scores, and cancelling drops the job and stops the worker.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { longRunTrajectoryText } from "../../bench/long-run-trajectory.js";
import { rescoreAgainstText } from "../../client/host/rescore.js";
import { BackgroundScorer, WORKER_FROM_MESSAGES } from "../../client/host/scoring-worker.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";
import { requireBuild } from "../cli/harness.js";
import { scenarioText } from "./fixtures.js";

const ROOT = join(__dirname, "..", "..");
const SAMPLE = join(ROOT, "sample-scenarios", "trajectories", "cellular_off_adapted.trajectory.jsonl");
const WORKER = join(ROOT, "dist", "scoring-worker.js");
const SCENARIO_FILE = "cellular_off_adapted.scenario.yaml";

/** The sample run stretched to 3,000 messages, the milestone's call spread through the traffic. */
function longRun(): ReturnType<typeof parseTrajectory> {
  return parseTrajectory(longRunTrajectoryText(readFileSync(SAMPLE, "utf8"), 3000, "spread"), "long.trajectory.jsonl");
}

test("a long run scored in the worker gets the score the host computes itself, and the host's event loop runs meanwhile", async () => {
  requireBuild();
  const trajectory = longRun();
  assert.ok(trajectory.messages.length >= WORKER_FROM_MESSAGES);
  const scorer = new BackgroundScorer(WORKER);
  assert.ok(scorer.inWorker(trajectory.messages.length), "the worker bundle is there");
  const text = scenarioText("cellular_off_adapted");
  let ticked = false;
  setImmediate(() => {
    ticked = true;
  });
  const outcome = await scorer.score(trajectory, text, SCENARIO_FILE, new AbortController().signal);
  // In-process, the scoring would have finished before the immediate had its turn.
  assert.ok(ticked, "the host's event loop ran while the worker scored");
  assert.deepEqual(outcome, rescoreAgainstText(trajectory, text, SCENARIO_FILE));
  assert.ok(outcome.ok && outcome.result.milestones.length > 0);
  // A text with errors is refused in the worker just as in-process, with the line it is at.
  const broken = text.replace("table: SETTING", "table: SETTINGS");
  const refused = await scorer.score(trajectory, broken, SCENARIO_FILE, new AbortController().signal);
  assert.deepEqual(refused, rescoreAgainstText(trajectory, broken, SCENARIO_FILE));
  assert.ok(!refused.ok && /^1 error in the scenario \(first at \d+:/.test(refused.problem));
});

test("cancelling a job in the worker drops it at once; a short run and a missing worker score in-process", async () => {
  requireBuild();
  const trajectory = longRun();
  const text = scenarioText("cellular_off_adapted");
  const job = new AbortController();
  const scoring = new BackgroundScorer(WORKER).score(trajectory, text, SCENARIO_FILE, job.signal);
  job.abort();
  assert.deepEqual(await scoring, { ok: false, cancelled: true, problem: "re-scoring was cancelled" });
  const cancelledFirst = new AbortController();
  cancelledFirst.abort();
  assert.deepEqual(await new BackgroundScorer(WORKER).score(trajectory, text, SCENARIO_FILE, cancelledFirst.signal), {
    ok: false,
    cancelled: true,
    problem: "re-scoring was cancelled",
  });

  const short = parseTrajectory(readFileSync(SAMPLE, "utf8"), "short.trajectory.jsonl");
  assert.equal(new BackgroundScorer(WORKER).inWorker(short.messages.length), false);
  const missing = new BackgroundScorer(join(ROOT, "dist", "no-such-worker.js"));
  assert.equal(missing.inWorker(trajectory.messages.length), false);
  assert.deepEqual(
    await missing.score(trajectory, text, SCENARIO_FILE, new AbortController().signal),
    rescoreAgainstText(trajectory, text, SCENARIO_FILE),
  );
});
