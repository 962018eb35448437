// Issue 39, item 1: compare never says "the same, message for message" beside two different scores
// without saying why: the runs were played against different versions of the scenario.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { comparisonHtml } from "../../engine/compare/compare-html.js";
import { compareRuns, savedRun } from "../../engine/compare/compare-runs.js";
import { comparisonLines } from "../../engine/compare/compare-text.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { Trajectory } from "../../engine/trajectory/trajectory.js";

const SAMPLE = join(__dirname, "..", "..", "sample-scenarios", "trajectories", "cellular_off_adapted.trajectory.jsonl");

/** The same messages, played against a scenario whose milestone was edited, recorded at 0.93. */
function editedCopy(t: Trajectory): Trajectory {
  const [first, ...rest] = t.header.scenario.milestones;
  const scenario = { ...t.header.scenario, milestones: [{ ...first!, description: "edited" }, ...rest] };
  const evaluation = { ...t.evaluation!, score: 0.93 };
  return new Trajectory({ ...t.header, scenario }, t.events, t.messages, t.end, t.world, t.warnings, evaluation, t.judgement);
}

test("same messages, different scores: compare names the difference and its cause", () => {
  const t = readTrajectoryFile(SAMPLE);
  const c = compareRuns(savedRun("a", t), savedRun("b", editedCopy(t)));
  assert.equal(c.firstDivergence, null);
  assert.match(
    c.sameMessagesNote ?? "",
    /^The messages are the same, but the scores differ \(A scored 1\.00, B 0\.93\) because the runs were played against different versions of the scenario \(A sha256:[0-9a-f]{16}, B sha256:[0-9a-f]{16}\)/,
  );
  assert.doesNotMatch(comparisonHtml(c), /The runs are the same, message for message/);
  assert.match(comparisonHtml(c), /the scores differ/);
  assert.ok(comparisonLines(c).some((l) => l.includes("different versions of the scenario")));
});

test("same messages and the same score read as the same run", () => {
  const t = readTrajectoryFile(SAMPLE);
  const c = compareRuns(savedRun("a", t), savedRun("b", t));
  assert.equal(c.sameMessagesNote, null);
  assert.match(comparisonHtml(c), /The runs are the same, message for message\./);
});
