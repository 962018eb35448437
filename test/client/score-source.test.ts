// Issue 39, item 1: one run shows one score, or says why not. A re-score against another version
// of the scenario than the run played is labelled with the recorded score, wherever it is shown
// (the status bar, the first CodeLens, the panel's header), and the same text re-scores unlabelled.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { rescoreAgainstText } from "../../client/host/rescore.js";
import { TrajectoryFeed } from "../../client/host/feed.js";
import type { StreamedLine } from "../../client/host/live-run.js";
import { RunStore } from "../../client/host/run-store.js";
import { shownRunSummary } from "../../client/host/node-results.js";
import { rescoredLabel } from "../../engine/panel/score-source.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { scenarioText } from "./fixtures.js";

const SAMPLE = join(__dirname, "..", "..", "sample-scenarios", "trajectories", "cellular_off_adapted.trajectory.jsonl");
const EDITED = (): string => scenarioText("cellular_off_adapted").replace("cellular: false }", "cellular: false, wifi: false }");

test("the label says what the score was re-computed against and what the file records", () => {
  assert.equal(rescoredLabel(1, { recorded: 0.93 }), "re-scored against the scenario as it is now: 1.00; recorded 0.93");
  assert.equal(rescoredLabel(0.5, { recorded: null }), "re-scored against the scenario as it is now: 0.50; the file records no score");
});

test("re-scoring against the version the run played is the run's own score; an edited version is labelled with the recorded one", () => {
  const trajectory = readTrajectoryFile(SAMPLE);
  const same = rescoreAgainstText(trajectory, scenarioText("cellular_off_adapted"), "cellular_off_adapted.scenario.yaml");
  assert.ok(same.ok);
  assert.equal(same.rescored, null);
  const edited = rescoreAgainstText(trajectory, EDITED(), "cellular_off_adapted.scenario.yaml");
  assert.ok(edited.ok);
  assert.deepEqual(edited.rescored, { recorded: trajectory.evaluation?.score });
  assert.equal(
    shownRunSummary(edited.result, trajectory.end, edited.rescored),
    `re-scored against the scenario as it is now: 0.50; recorded 1.00 · ${edited.result.turn_count} turns`,
  );
  // Edited back: the label goes, the score is the recorded one again.
  const back = rescoreAgainstText(trajectory, scenarioText("cellular_off_adapted"), "cellular_off_adapted.scenario.yaml");
  assert.ok(back.ok);
  assert.equal(shownRunSummary(back.result, trajectory.end, back.rescored), `score 1.00 · ${back.result.turn_count} turns`);
});

test("the store hands the label to the scenario's results and to every panel of the run, late ones included", () => {
  const trajectory = readTrajectoryFile(SAMPLE);
  const store = new RunStore();
  const feed = store.addSaved("/runs/a.trajectory.jsonl", "a", trajectory, null, "stamp");
  store.show("/s/cellular_off_adapted.scenario.yaml", "/runs/a.trajectory.jsonl");
  const heard: unknown[] = [];
  feed.subscribe((m) => heard.push(m));
  const edited = rescoreAgainstText(trajectory, EDITED(), "cellular_off_adapted.scenario.yaml");
  assert.ok(edited.ok);
  store.setEvaluation("/runs/a.trajectory.jsonl", edited.result, null, edited.rescored);
  assert.deepEqual(store.results("/s/cellular_off_adapted.scenario.yaml")?.rescored, { recorded: 1 });
  assert.deepEqual(heard.at(-1), { type: "score-source", rescored: { recorded: 1 } });
  assert.deepEqual(feed.snapshot().at(-1), { type: "score-source", rescored: { recorded: 1 } });
  // A re-score against the run's own version clears it, in the views too.
  const back = rescoreAgainstText(trajectory, scenarioText("cellular_off_adapted"), "cellular_off_adapted.scenario.yaml");
  assert.ok(back.ok);
  store.setEvaluation("/runs/a.trajectory.jsonl", back.result, null, back.rescored);
  assert.equal(store.results("/s/cellular_off_adapted.scenario.yaml")?.rescored, null);
  assert.deepEqual(heard.at(-1), { type: "score-source", rescored: null });
  assert.equal(
    feed.snapshot().some((m) => m.type === "score-source"),
    false,
  );
});

test("a panel may open only a file its run's end names", () => {
  const feed = new TrajectoryFeed("/runs/a.trajectory.jsonl", "a");
  feed.append({
    type: "end",
    reason: "role_error",
    detail: "the command exited (code 127) before the conversation ended; its stderr is in /runs/a.agent-stderr.log",
    message_count: 3,
  } satisfies StreamedLine);
  assert.equal(feed.namesFile("/runs/a.agent-stderr.log"), true);
  assert.equal(feed.namesFile("/etc/passwd"), false);
});
