// The runs the extension holds: a new evaluation reaches every view of its run and the scenarios
// showing it, a file read again keeps its views attached, a live feed gives late views everything
// so far, and old runs nothing needs are forgotten.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { TrajectoryFeed, type FeedMessage } from "../../client/host/feed.js";
import { rescoreAgainstText } from "../../client/host/rescore.js";
import { RunStore } from "../../client/host/run-store.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { scenarioText } from "./fixtures.js";

const SAMPLE = join(__dirname, "..", "..", "sample-scenarios", "trajectories", "cellular_off_adapted.trajectory.jsonl");

test("a new evaluation reaches every view of the run and replaces the old one for views that open later", () => {
  const trajectory = readTrajectoryFile(SAMPLE);
  const store = new RunStore();
  const changed: string[] = [];
  store.onDidChange((scenario) => changed.push(scenario));
  const feed = store.addSaved(SAMPLE, "cellular_off_adapted", trajectory, null, "1:1");
  store.show("/w/cellular_off_adapted.scenario.yaml", SAMPLE);
  const seen: FeedMessage[] = [];
  feed.subscribe((m) => seen.push(m));

  const edited = rescoreAgainstText(
    trajectory,
    scenarioText("cellular_off_adapted").replace("cellular: false }", "cellular: false, wifi: false }"),
    "x",
  );
  assert.ok(edited.ok);
  store.setEvaluation(SAMPLE, edited.result);
  assert.deepEqual(seen, [{ type: "evaluation", result: edited.result }]);
  assert.deepEqual(store.results("/w/cellular_off_adapted.scenario.yaml"), {
    scenarioPath: "/w/cellular_off_adapted.scenario.yaml",
    trajectoryPath: SAMPLE,
    evaluation: edited.result,
    note: null,
    end: trajectory.end,
    finished: true,
    rescored: null,
  });
  // A view opening now gets the file's lines with only the new evaluation at the end.
  const [batch] = feed.snapshot();
  assert.ok(batch?.type === "lines");
  const evaluations = batch.lines.filter((l) => l.type === "evaluation");
  assert.deepEqual(evaluations, [{ type: "evaluation", result: edited.result }]);
  assert.equal(batch.lines.length, trajectory.events.length + 2);

  store.setNote("/w/cellular_off_adapted.scenario.yaml", { stale: true, text: "results from before the last edit: 1 error" });
  assert.equal(store.results("/w/cellular_off_adapted.scenario.yaml")?.evaluation, edited.result);
  assert.equal(store.results("/w/cellular_off_adapted.scenario.yaml")?.note?.stale, true);
  assert.ok(changed.length >= 3);
  assert.equal(store.scenarioOf(SAMPLE), "/w/cellular_off_adapted.scenario.yaml");
});

test("a file read again keeps its feed, so the views showing it get the new lines, then their DialogTool scores", () => {
  const trajectory = readTrajectoryFile(SAMPLE);
  const store = new RunStore();
  const feed = store.addSaved(SAMPLE, "cellular_off_adapted", trajectory, null, "1:1");
  const seen: FeedMessage[] = [];
  feed.subscribe((m) => seen.push(m));
  assert.equal(store.addSaved(SAMPLE, "cellular_off_adapted", trajectory, null, "2:2"), feed);
  assert.equal(store.stampOf(SAMPLE), "2:2");
  assert.deepEqual(
    seen.map((m) => m.type),
    ["lines", "dialogtool"],
  );
  assert.ok(seen[0]?.type === "lines" && seen[0].lines[0]?.type === "header" && seen[0].lines.length === trajectory.events.length + 2);
});

test("old runs nothing shows are forgotten; shown, viewed and running ones are kept", () => {
  const trajectory = readTrajectoryFile(SAMPLE);
  const store = new RunStore((path) => path === "/runs/viewed.trajectory.jsonl");
  store.addSaved("/runs/shown.trajectory.jsonl", "shown", trajectory, null, "s");
  store.show("/w/a.scenario.yaml", "/runs/shown.trajectory.jsonl");
  store.addSaved("/runs/viewed.trajectory.jsonl", "viewed", trajectory, null, "v");
  store.addLive("/runs/live.trajectory.jsonl", "live", "/w/b.scenario.yaml").setLive("running");
  for (let i = 0; i < 40; i++) store.addSaved(`/runs/old-${i}.trajectory.jsonl`, "old", trajectory, null, "o");
  for (const kept of ["shown", "viewed", "live", "old-39", "old-24"])
    assert.notEqual(store.feed(`/runs/${kept}.trajectory.jsonl`), null, kept);
  assert.equal(store.feed("/runs/old-0.trajectory.jsonl"), null);
  assert.equal(store.feed("/runs/old-23.trajectory.jsonl"), null);
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
