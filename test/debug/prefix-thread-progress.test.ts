// The debugger's scoring thread (dist/prefix-scoring-worker.js) says how far the matcher has come
// on a prefix while it scores it: one report per milestone and minefield placed, in order, before
// the prefix's answer, so the adapter's progress shows a fraction of a long prefix.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { FromScoringThread, ScoringJob, ScoringThreadData } from "../../engine/debug/prefix-scores.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { requireBuild } from "../cli/harness.js";
import { longRunFile } from "./long-runs.js";

const THREAD = join(__dirname, "..", "..", "dist", "prefix-scoring-worker.js");

test("scoring a long prefix, the thread reports each milestone and minefield placed, then the prefix's answer", async () => {
  requireBuild();
  const run = longRunFile("find_days_till_holiday_wifi_off_adapted", 2000, "spread");
  const trajectory = readTrajectoryFile(run.trajectory);
  const last = trajectory.messages.length - 1;
  const nodes = trajectory.header.scenario.milestones.length + trajectory.header.scenario.minefields.length;
  const data: ScoringThreadData = { role: "toolsandbox-prefix-scoring", trajectoryPath: run.trajectory, cancel: new SharedArrayBuffer(4) };
  const worker = new Worker(THREAD, { workerData: data });
  const messages: FromScoringThread[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      worker.on("message", (message: FromScoringThread) => {
        messages.push(message);
        if (message.kind === "done") resolve();
      });
      worker.once("error", reject);
      const job: ScoringJob = { id: 1, indices: [last], full: [] };
      worker.postMessage(job);
    });
  } finally {
    await worker.terminate();
  }
  // A match past two seconds (a loaded machine) also sends the matcher's own lines; the placements are what is counted.
  const placements = messages.filter((m) => m.kind !== "progress" || m.step.line === null);
  assert.deepEqual(
    placements.map((m) => (m.kind === "progress" ? `${m.index}: ${m.step.placed}/${m.step.of}` : m.kind)),
    [...Array.from({ length: nodes }, (_, k) => `${last}: ${k + 1}/${nodes}`), "scored", "done"],
  );
});
