// Issue 39, items 2 and 10: the status bar says what the run is doing and how it ended. "running…"
// only while turns play, "paused" while the run waits for Continue or Step, "errored" and never a
// score for an errored run, and a re-score labelled with the recorded score.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { statusText } from "../../client/host/status-text.js";
import { erroredReason } from "../../client/host/node-results.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";

const SAMPLE = join(__dirname, "..", "..", "sample-scenarios", "trajectories", "cellular_off_adapted.trajectory.jsonl");
const trajectory = readTrajectoryFile(SAMPLE);
const shown = {
  trajectoryPath: "/runs/cellular_off_adapted.run-1.trajectory.jsonl",
  evaluation: trajectory.evaluation,
  note: null,
  end: trajectory.end,
  finished: true,
  rescored: null,
};

test("a paused run reads paused, not running; a playing one running", () => {
  const paused = statusText({ ...shown, evaluation: null, end: null, finished: false }, "paused");
  assert.equal(paused.text, "$(debug-pause) paused before the next message");
  assert.doesNotMatch(paused.text, /running/);
  assert.equal(statusText({ ...shown, evaluation: null, end: null, finished: false }, "running").text, "$(sync~spin) running…");
});

test("a finished run shows its score; a re-scored one says so beside it", () => {
  assert.match(statusText(shown, "finished").text, /^\$\(beaker\) score 1\.00 · \d+ turns$/);
  assert.match(
    statusText({ ...shown, rescored: { recorded: 0.93 } }, null).text,
    /^\$\(warning\) re-scored against the scenario as it is now: 1\.00; recorded 0\.93 · \d+ turns$/,
  );
});

test("an errored run reads errored with its reason, never a score", () => {
  const end = {
    type: "end" as const,
    reason: "role_error" as const,
    detail: "the command exited (code 127) before the conversation ended; its stderr is in /runs/a.agent-stderr.log",
    message_count: 3,
  };
  const errored = statusText({ ...shown, end }, "finished");
  assert.equal(errored.text, "$(error) errored (role_error)");
  assert.equal(errored.errored, true);
  assert.doesNotMatch(errored.text, /score|0\.00/);
  assert.match(errored.tooltip, /its stderr is in \/runs\/a\.agent-stderr\.log/);
  assert.equal(erroredReason({ reason: "model_error", detail: "HTTP 500" }), "errored (model_error): HTTP 500");
  assert.equal(erroredReason({ reason: "end_conversation" }), null);
  assert.equal(erroredReason(null), "errored: the run did not finish");
});
