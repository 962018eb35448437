// A saved file that was cut short tells its views where: the feed sends the panel a "damaged"
// message after the lines, naming the line, so a cut run is not mistaken for an agent's failure.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { panelTrajectory, TrajectoryFeed } from "../../client/host/feed.js";
import { checkRunText } from "../../engine/trajectory/run-damage.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";
import { parseHostMessage } from "../../client/webview/validate/host-messages.js";

const SAMPLE = join(
  __dirname,
  "..",
  "..",
  "sample-scenarios",
  "trajectories",
  "send_message_with_contact_content_cellular_off_adapted.trajectory.jsonl",
);

test("a file cut in the middle of a line: the feed's views learn the line it was cut at", () => {
  const text = readFileSync(SAMPLE, "utf8");
  const lines = text.split("\n");
  const cut = `${lines.slice(0, 20).join("\n")}\n${lines[20]!.slice(0, 15)}`;
  const feed = TrajectoryFeed.fromTrajectory("x.trajectory.jsonl", "x", parseTrajectory(cut, "x.trajectory.jsonl"), null);
  const damaged = feed.snapshot().find((m) => m.type === "damaged");
  assert.ok(damaged && damaged.type === "damaged");
  assert.match(damaged.problem, /^This file is cut at line 21: the last line is incomplete/);
  assert.match(damaged.problem, /not the agent's result/);
});

test("a file corrupt in the middle opens with what reads before the break, and the banner names the line", () => {
  const lines = readFileSync(SAMPLE, "utf8").split("\n");
  lines[9] = "{not json";
  const { trajectory, damage } = checkRunText(lines.join("\n"), "x.trajectory.jsonl");
  assert.ok(trajectory !== null && damage !== null);
  const feed = TrajectoryFeed.fromTrajectory("x.trajectory.jsonl", "x", panelTrajectory(trajectory, damage), null);
  const [batch, ...rest] = feed.snapshot();
  // The header and the 8 events before line 10.
  assert.ok(batch?.type === "lines");
  assert.equal(batch.lines.length, 9);
  const damaged = rest.find((m) => m.type === "damaged");
  assert.ok(damaged && damaged.type === "damaged");
  assert.match(
    damaged.problem,
    /^This file is cut at line 10: invalid JSON .*; only the 9 lines before it are shown; the score covers only/,
  );
});

test("a whole file sends no damage", () => {
  const feed = TrajectoryFeed.fromTrajectory("x.trajectory.jsonl", "x", parseTrajectory(readFileSync(SAMPLE, "utf8"), "x"), null);
  assert.equal(feed.snapshot().filter((m) => m.type === "damaged").length, 0);
});

test("a live run's progress evaluations give way to its final one: a late view gets one evaluation, the last", () => {
  const text = readFileSync(SAMPLE, "utf8");
  const trajectory = parseTrajectory(text, "x");
  const feed = new TrajectoryFeed("x.trajectory.jsonl", "x");
  const evaluation = trajectory.evaluation!;
  feed.append(trajectory.header);
  feed.setEvaluation({ ...evaluation, score: 0.25 });
  for (const e of trajectory.events) feed.append(e);
  feed.append({ type: "evaluation", result: evaluation });
  feed.setEvaluation({ ...evaluation, score: 0.75 });
  const [batch] = feed.snapshot();
  assert.ok(batch?.type === "lines");
  const evaluations = batch.lines.filter((l) => l.type === "evaluation");
  assert.equal(evaluations.length, 1);
  assert.equal(evaluations[0]?.type === "evaluation" && evaluations[0].result.score, 0.75);
});

test("a saved run's views get DialogTool's scores after its lines; the guard takes them, and refuses a malformed one with its path", () => {
  const feed = TrajectoryFeed.fromTrajectory("x.trajectory.jsonl", "x", parseTrajectory(readFileSync(SAMPLE, "utf8"), "x"), null);
  const messages = feed.snapshot();
  const last = messages[messages.length - 1];
  assert.ok(last?.type === "dialogtool", "DialogTool's message comes last");
  assert.equal(last.report.metrics.execution.accuracy, 1);
  assert.deepEqual(
    last.report.turns.map((t) => t.index),
    [17, 21, 23],
  );
  const checked = parseHostMessage(JSON.parse(JSON.stringify(last)));
  assert.ok(checked.ok && checked.value.type === "dialogtool");
  const broken = JSON.parse(JSON.stringify(last)) as { report: { turns: { truth: { kind: string } }[] } };
  broken.report.turns[1]!.truth.kind = "<script>";
  const refused = parseHostMessage(broken);
  assert.ok(!refused.ok);
  assert.match(refused.error, /\/report\/turns\/1\/truth\/kind/);
});

test("a live run's views get DialogTool's scores once it finishes, not before", () => {
  const trajectory = parseTrajectory(readFileSync(SAMPLE, "utf8"), "x");
  const feed = new TrajectoryFeed("x.trajectory.jsonl", "x");
  const seen: string[] = [];
  feed.subscribe((m) => seen.push(m.type));
  feed.append(trajectory.header);
  for (const e of trajectory.events) feed.append(e);
  feed.setLive("running");
  assert.equal(seen.includes("dialogtool"), false);
  feed.setLive("finished");
  assert.equal(seen[seen.length - 1], "dialogtool");
});
