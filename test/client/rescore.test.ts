// Re-scoring a saved run against the scenario as edited: the store keeps one evaluation per run,
// every view of the run gets the new evaluation line, and a text with errors keeps the previous
// results with a note saying why.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { TrajectoryFeed, type FeedMessage } from "../../client/host/feed.js";
import { rescoreAgainstText } from "../../client/host/rescore.js";
import { RunStore } from "../../client/host/run-store.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { scenarioText } from "./fixtures.js";

const SAMPLE = join(__dirname, "..", "..", "sample-scenarios", "trajectories", "cellular_off.trajectory.jsonl");

test("an edited milestone changes the score without a new run", () => {
  const trajectory = readTrajectoryFile(SAMPLE);
  const same = rescoreAgainstText(trajectory, scenarioText("cellular_off"), "cellular_off.scenario.yaml");
  assert.ok(same.ok);
  assert.deepEqual(same.result, trajectory.evaluation);
  assert.equal(same.warning, null);
  const edited = rescoreAgainstText(trajectory, scenarioText("cellular_off").replace("cellular: false }", "cellular: false, wifi: false }"), "cellular_off.scenario.yaml");
  assert.ok(edited.ok);
  assert.equal(edited.result.milestones.find((m) => m.id === "cellular_off")?.matched_at, null);
  assert.ok(edited.result.score < 1);
});

test("a scenario with errors scores nothing and says where the first error is", () => {
  const trajectory = readTrajectoryFile(SAMPLE);
  const text = scenarioText("cellular_off").replace("table: SETTING", "table: SETTINGS");
  const rescored = rescoreAgainstText(trajectory, text, "cellular_off.scenario.yaml");
  assert.equal(rescored.ok, false);
  const line = text.split("\n").findIndex((l) => l.includes("SETTINGS")) + 1;
  assert.ok(!rescored.ok && rescored.problem.startsWith(`1 error in the scenario (first at ${line}:`), !rescored.ok ? rescored.problem : "");
});

test("scoring against a scenario of another name warns", () => {
  const trajectory = readTrajectoryFile(SAMPLE);
  const rescored = rescoreAgainstText(trajectory, scenarioText("cellular_off").replace("name: cellular_off", "name: cellular_off_v2"), "v2.scenario.yaml");
  assert.ok(rescored.ok && rescored.warning === 'scored against "cellular_off_v2", but the run played "cellular_off"');
});

test("a new evaluation reaches every view of the run and replaces the old one for views that open later", () => {
  const trajectory = readTrajectoryFile(SAMPLE);
  const store = new RunStore();
  const changed: string[] = [];
  store.onDidChange((scenario) => changed.push(scenario));
  const feed = store.addSaved(SAMPLE, "cellular_off", trajectory, null, "1:1");
  store.show("/w/cellular_off.scenario.yaml", SAMPLE);
  const seen: FeedMessage[] = [];
  feed.subscribe((m) => seen.push(m));

  const edited = rescoreAgainstText(trajectory, scenarioText("cellular_off").replace("cellular: false }", "cellular: false, wifi: false }"), "x");
  assert.ok(edited.ok);
  store.setEvaluation(SAMPLE, edited.result);
  assert.deepEqual(seen, [{ type: "evaluation", result: edited.result }]);
  assert.deepEqual(store.results("/w/cellular_off.scenario.yaml"), {
    scenarioPath: "/w/cellular_off.scenario.yaml",
    trajectoryPath: SAMPLE,
    evaluation: edited.result,
    note: null,
  });
  // A view opening now gets the file's lines with only the new evaluation at the end.
  const [batch] = feed.snapshot();
  assert.ok(batch?.type === "lines");
  const evaluations = batch.lines.filter((l) => l.type === "evaluation");
  assert.deepEqual(evaluations, [{ type: "evaluation", result: edited.result }]);
  assert.equal(batch.lines.length, trajectory.events.length + 2);

  store.setNote("/w/cellular_off.scenario.yaml", { stale: true, text: "results from before the last edit: 1 error" });
  assert.equal(store.results("/w/cellular_off.scenario.yaml")?.evaluation, edited.result);
  assert.equal(store.results("/w/cellular_off.scenario.yaml")?.note?.stale, true);
  assert.ok(changed.length >= 3);
  assert.equal(store.scenarioOf(SAMPLE), "/w/cellular_off.scenario.yaml");
});

test("a file read again keeps its feed, so the views showing it get the new lines", () => {
  const trajectory = readTrajectoryFile(SAMPLE);
  const store = new RunStore();
  const feed = store.addSaved(SAMPLE, "cellular_off", trajectory, null, "1:1");
  const seen: FeedMessage[] = [];
  feed.subscribe((m) => seen.push(m));
  assert.equal(store.addSaved(SAMPLE, "cellular_off", trajectory, null, "2:2"), feed);
  assert.equal(store.stampOf(SAMPLE), "2:2");
  assert.equal(seen.length, 1);
  assert.ok(seen[0]?.type === "lines" && seen[0].lines[0]?.type === "header" && seen[0].lines.length === trajectory.events.length + 2);
});

test("a live feed streams each line to views that are open and gives late views everything so far", () => {
  const feed = new TrajectoryFeed("/runs/x.trajectory.jsonl", "x");
  const early: FeedMessage[] = [];
  feed.subscribe((m) => early.push(m));
  const trajectory = readTrajectoryFile(SAMPLE);
  feed.setLive("running");
  feed.append(trajectory.header);
  feed.append(trajectory.events[0]!);
  assert.deepEqual(early, [{ type: "live", state: "running" }, trajectory.header, trajectory.events[0]]);
  assert.deepEqual(feed.snapshot(), [
    { type: "lines", lines: [trajectory.header, trajectory.events[0]] },
    { type: "live", state: "running" },
  ]);
  const actions: string[] = [];
  assert.equal(feed.control("pause"), false);
  feed.setController((a) => actions.push(a));
  assert.equal(feed.control("step"), true);
  feed.setLive("finished");
  assert.equal(feed.control("continue"), false);
  assert.deepEqual(actions, ["step"]);
});
