// What the Testing view says about a run: pass at the threshold, and a failure message per
// milestone not fully matched and per minefield hit, each at its node's line.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readOutline } from "../../client/host/node-lines.js";
import { rescoreAgainstText } from "../../client/host/rescore.js";
import { passes, testReport, unscoredMessage } from "../../client/host/test-report.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { lineContaining, playScripted, removeTempDirs, resolveScenario, scenarioText, tempDir } from "./fixtures.js";

after(removeTempDirs);

const SAMPLE = join(__dirname, "..", "..", "sample-scenarios", "trajectories", "cellular_off_adapted.trajectory.jsonl");

test("a full score passes the default threshold; a lower one passes only a lower threshold", () => {
  assert.equal(passes(1, 1), true);
  assert.equal(passes(0.9999999999, 1), true);
  assert.equal(passes(0.5, 1), false);
  assert.equal(passes(0.5, 0.5), true);
  const trajectory = readTrajectoryFile(SAMPLE);
  const report = testReport(trajectory.evaluation!, 1, [], trajectory.end);
  assert.deepEqual(report, { passed: true, summary: "score 1.00 · 3 turns, passes the threshold 1.00", failures: [], endNote: null });
});

test("a failed run names each milestone it missed, at the milestone's line", () => {
  const text = scenarioText("cellular_off_adapted").replace("cellular: false }", "cellular: false, wifi: false }");
  const trajectory = readTrajectoryFile(SAMPLE);
  const rescored = rescoreAgainstText(trajectory, text, "cellular_off_adapted.scenario.yaml");
  assert.ok(rescored.ok);
  const report = testReport(rescored.result, 1, readOutline(text).nodes, trajectory.end);
  assert.equal(report.passed, false);
  assert.equal(report.summary, "score 0.50 · 3 turns, below the pass threshold 1.00");
  assert.equal(report.failures.length, 1);
  const [failure] = report.failures;
  assert.equal(failure?.line, lineContaining(text, "- id: cellular_off"));
  assert.match(
    failure?.message ?? "",
    /^Milestone "cellular_off": missed \(best similarity 0\.00\)\. no match; closest at \d+: SETTING snapshot 0\.00/,
  );
  assert.equal(testReport(rescored.result, 0.5, [], null).passed, true);
});

test("a minefield hit is a failure at the minefield's line", async () => {
  const text = scenarioText("find_current_city_insufficient_information").replace(
    /reference:\n[\s\S]*$/,
    "reference:\n  - calls:\n      - tool: search_lat_lon\n        arguments: { latitude: 37.33, longitude: -122.03 }\n  - agent: Cupertino.\n  - end_conversation: true\n",
  );
  const run = await playScripted(resolveScenario(text), join(tempDir(), "hit.trajectory.jsonl"));
  const report = testReport(run.evaluation!, 0, readOutline(text).nodes, run.end);
  // Score 0 passes a threshold of 0, but the hit is still listed.
  assert.equal(report.passed, true);
  const at = run.evaluation!.minefields[0]!.matched_at;
  assert.deepEqual(report.failures, [
    {
      kind: "minefield",
      id: "guessed_coordinates",
      line: lineContaining(text, "- id: guessed_coordinates"),
      message: `Minefield "guessed_coordinates": hit at message ${at}`,
    },
  ]);
});

test("a run that ended early says how", () => {
  const trajectory = readTrajectoryFile(SAMPLE);
  const report = testReport(trajectory.evaluation!, 1, [], { reason: "model_error", detail: "HTTP 401 from http://x" });
  assert.equal(report.endNote, "The run ended early (model_error: HTTP 401 from http://x).");
  assert.equal(unscoredMessage("boom", null), "The run failed: boom");
  assert.equal(unscoredMessage(null, null), "The run did not finish.");
});
