// Re-scoring a saved run against the scenario as edited: the milestones score against the text,
// a text with errors scores nothing and says where, another scenario's name is a warning.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { rescoreAgainstText } from "../../client/host/rescore.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { scenarioText } from "./fixtures.js";

const SAMPLE = join(__dirname, "..", "..", "sample-scenarios", "trajectories", "cellular_off_adapted.trajectory.jsonl");

test("an edited milestone changes the score without a new run", () => {
  const trajectory = readTrajectoryFile(SAMPLE);
  const same = rescoreAgainstText(trajectory, scenarioText("cellular_off_adapted"), "cellular_off_adapted.scenario.yaml");
  assert.ok(same.ok);
  assert.deepEqual(same.result, trajectory.evaluation);
  assert.equal(same.warning, null);
  const edited = rescoreAgainstText(
    trajectory,
    scenarioText("cellular_off_adapted").replace("cellular: false }", "cellular: false, wifi: false }"),
    "cellular_off_adapted.scenario.yaml",
  );
  assert.ok(edited.ok);
  assert.equal(edited.result.milestones.find((m) => m.id === "cellular_off")?.matched_at, null);
  assert.ok(edited.result.score < 1);
});

test("a scenario with errors scores nothing and says where the first error is", () => {
  const trajectory = readTrajectoryFile(SAMPLE);
  const text = scenarioText("cellular_off_adapted").replace("table: SETTING", "table: SETTINGS");
  const rescored = rescoreAgainstText(trajectory, text, "cellular_off_adapted.scenario.yaml");
  assert.equal(rescored.ok, false);
  const line = text.split("\n").findIndex((l) => l.includes("SETTINGS")) + 1;
  assert.ok(
    !rescored.ok && rescored.problem.startsWith(`1 error in the scenario (first at ${line}:`),
    !rescored.ok ? rescored.problem : "",
  );
});

test("scoring against a scenario of another name warns", () => {
  const trajectory = readTrajectoryFile(SAMPLE);
  const rescored = rescoreAgainstText(
    trajectory,
    scenarioText("cellular_off_adapted").replace("name: cellular_off_adapted", "name: cellular_off_v2"),
    "v2.scenario.yaml",
  );
  assert.ok(rescored.ok && rescored.warning === 'scored against "cellular_off_v2", but the run played "cellular_off_adapted"');
});
