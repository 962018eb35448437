// A run played for the editor: the lines the panel receives are the lines of the file, in order;
// the run is scored and the evaluation is the last line; cancelling still leaves a readable file.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { lineContaining, playScripted, removeTempDirs, resolveScenario, scenarioText, tempDir } from "./fixtures.js";

after(removeTempDirs);

test("the panel receives exactly the lines written to the file, header first and evaluation last", async () => {
  const file = join(tempDir(), "cellular_off_adapted.run-1.trajectory.jsonl");
  const run = await playScripted(resolveScenario(scenarioText("cellular_off_adapted")), file);
  const written = readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as unknown);
  assert.deepEqual(run.lines, written);
  assert.equal(run.lines[0]?.type, "header");
  assert.equal(run.lines.at(-1)?.type, "evaluation");
  assert.equal(run.lines.at(-2)?.type, "end");
  assert.equal(run.evaluation?.score, 1);
  assert.equal(run.end?.reason, "end_conversation");
  // The file is a trajectory like any other: the reader accepts it and finds the same evaluation.
  const saved = readTrajectoryFile(file);
  assert.deepEqual(saved.evaluation, run.evaluation);
  assert.equal(saved.messages.length, run.messageCount);
  assert.deepEqual(saved.header.run, { agent: "scripted", user: "scripted", seed: 0, options: {} });
});

test("a minefield the run steps on is in the evaluation with the message it matched", async () => {
  const text = scenarioText("find_current_city_insufficient_information").replace(
    /reference:\n[\s\S]*$/,
    [
      "reference:",
      "  - calls:",
      "      - tool: search_lat_lon",
      "        arguments: { latitude: 37.33, longitude: -122.03 }",
      "  - agent: You seem to be in Cupertino.",
      "  - end_conversation: true",
      "",
    ].join("\n"),
  );
  assert.ok(lineContaining(text, "search_lat_lon") > 0);
  const run = await playScripted(resolveScenario(text), join(tempDir(), "hit.trajectory.jsonl"));
  const minefield = run.evaluation?.minefields[0];
  assert.equal(minefield?.id, "guessed_coordinates");
  assert.notEqual(minefield?.matched_at, null);
  assert.equal(run.evaluation?.score, 0);
});

test("a cancelled run ends as cancelled and its file still reads", async () => {
  const file = join(tempDir(), "cancelled.trajectory.jsonl");
  const abort = new AbortController();
  abort.abort();
  const run = await playScripted(resolveScenario(scenarioText("cellular_off_adapted")), file, abort.signal);
  assert.equal(run.end?.reason, "cancelled");
  assert.equal(readTrajectoryFile(file).end?.reason, "cancelled");
});

test("while it plays, the run reports the milestones matched so far; none of it reaches the file", async () => {
  const scenario = resolveScenario(scenarioText("cellular_off_adapted"));
  const file = join(tempDir(), "cellular_off_adapted.run-2.trajectory.jsonl");
  const progress: { messages: number; matched: number }[] = [];
  const { createScriptedRoles } = await import("../../engine/roles/scripted.js");
  const { playToFile } = await import("../../client/host/live-run.js");
  const outcome = await playToFile({
    scenario,
    ...createScriptedRoles(scenario),
    seed: 0,
    file,
    signal: new AbortController().signal,
    onLine: () => undefined,
    onProgress: (e) => progress.push({ messages: e.turn_count, matched: e.milestones.filter((m) => m.matched_at !== null).length }),
  });
  assert.ok(progress.length >= 2, `${progress.length} progress reports`);
  const matched = progress.map((p) => p.matched);
  assert.deepEqual(
    [...matched].sort((a, b) => a - b),
    matched,
    "matches only grow as the run goes",
  );
  assert.ok(matched[0]! < outcome.evaluation!.milestones.length, "the first report comes before every milestone matched");
  assert.ok(matched.at(-1)! > 0, "milestones show up as they match");
  const evaluations = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.startsWith('{"type":"evaluation"'));
  assert.equal(evaluations.length, 1, "only the final evaluation is written");
});
