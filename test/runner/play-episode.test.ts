// The one episode loop (engine/runner/play-episode.ts), driven directly: what it writes and when,
// the hooks a live panel and the debugger use, and every way an episode ends without a throw.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RoleName } from "../../engine/episode/types.js";
import type { EvaluationResult } from "../../engine/evaluation/evaluate.js";
import { createScriptedRoles } from "../../engine/roles/scripted.js";
import { playEpisode } from "../../engine/runner/play-episode.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";

function sample(name: string): Scenario {
  const checked = loadScenarioFile(join("sample-scenarios", `${name}.scenario.yaml`));
  assert.ok(checked.scenario, `${name} loads`);
  return checked.scenario;
}

const folder = (): string => mkdtempSync(join(tmpdir(), "play-episode-"));

const fileLines = (file: string): unknown[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as unknown);

test("the reference played into a file: header first, each line on disk before the hook sees it, the evaluation last", async () => {
  const scenario = sample("remove_contact_by_phone_adapted");
  const file = join(folder(), "run.trajectory.jsonl");
  const seen: unknown[] = [];
  const onDiskWhenSeen: boolean[] = [];
  const played = await playEpisode({
    scenario,
    ...createScriptedRoles(scenario),
    seed: 3,
    file,
    signal: new AbortController().signal,
    onLine: (line) => {
      seen.push(line);
      onDiskWhenSeen.push(fileLines(file).length === seen.length);
    },
  });
  assert.equal(played.engineError, null);
  assert.equal(played.writeError, null);
  assert.equal(played.evaluation?.score, 1);
  const lines = fileLines(file);
  assert.deepEqual(seen, lines, "the hook sees exactly what a reader of the file sees");
  assert.ok(onDiskWhenSeen.every(Boolean), "every line is flushed before it is announced");
  assert.equal((lines[0] as { type: string }).type, "header");
  assert.equal((lines.at(-1) as { type: string }).type, "evaluation");
  const read = readTrajectoryFile(file);
  assert.equal(read.messages.length, played.messages.length);
  assert.equal(read.header.run.seed, 3);
});

test("beforeTurn is told each speaker in turn at the next message's index; progress only grows", async () => {
  const scenario = sample("remove_contact_by_phone_adapted");
  const turns: [RoleName, number][] = [];
  const progress: EvaluationResult[] = [];
  const played = await playEpisode({
    scenario,
    ...createScriptedRoles(scenario),
    seed: 0,
    file: join(folder(), "run.trajectory.jsonl"),
    signal: new AbortController().signal,
    beforeTurn: (speaker, next) => {
      turns.push([speaker, next]);
    },
    onProgress: (evaluation) => progress.push(evaluation),
  });
  assert.ok(turns.length >= 3, "at least the user, the agent and the user again");
  for (let i = 1; i < turns.length; i++) assert.ok(turns[i]![1] > turns[i - 1]![1], `message indices grow: ${JSON.stringify(turns)}`);
  assert.ok(turns.every(([speaker]) => speaker === "user" || speaker === "agent" || speaker === "execution_environment"));
  const matched = progress.map((e) => e.milestones.filter((m) => m.matched_at !== null).length);
  for (let i = 1; i < matched.length; i++) assert.ok(matched[i]! >= matched[i - 1]!, `matched milestones never drop: ${matched}`);
  assert.ok(progress.length > 0, "progress is reported once the conversation has started");
  assert.equal(played.evaluation?.score, 1);
});

test("a stop during the episode ends it as cancelled, still scored, the file closed with its evaluation", async () => {
  const scenario = sample("remove_contact_by_phone_adapted");
  const file = join(folder(), "run.trajectory.jsonl");
  const stop = new AbortController();
  let turns = 0;
  const played = await playEpisode({
    scenario,
    ...createScriptedRoles(scenario),
    seed: 0,
    file,
    signal: stop.signal,
    beforeTurn: () => {
      if (++turns === 2) stop.abort();
    },
  });
  assert.equal(played.end?.reason, "cancelled");
  assert.ok(played.evaluation !== null);
  assert.ok(played.evaluation.score < 1);
  assert.equal((fileLines(file).at(-1) as { type: string }).type, "evaluation");
});

test("a file that cannot be created plays nothing and says so; the engine failing is an outcome, not a throw", async () => {
  const scenario = sample("cellular_off_adapted");
  const unwritable = await playEpisode({
    scenario,
    ...createScriptedRoles(scenario),
    seed: 0,
    file: join(folder(), "no-such-folder", "run.trajectory.jsonl"),
    signal: new AbortController().signal,
  });
  assert.equal(unwritable.writeError?.atStart, true);
  assert.deepEqual(unwritable.messages, []);
  assert.equal(unwritable.evaluation, null);

  const file = join(folder(), "run.trajectory.jsonl");
  const failing = await playEpisode({
    scenario,
    ...createScriptedRoles(scenario),
    seed: 0,
    file,
    signal: new AbortController().signal,
    around: async () => {
      throw new Error("the agent's server would not start");
    },
  });
  assert.ok(failing.engineError !== null);
  assert.match(String(failing.engineError.error), /would not start/);
  assert.equal(failing.end, null);
  assert.equal(failing.evaluation, null);
  assert.equal((fileLines(file)[0] as { type: string }).type, "header", "the header is kept: the file says the run was begun");
});

test("around's release runs once the episode has ended, before it is scored", async () => {
  const scenario = sample("cellular_off_adapted");
  const order: string[] = [];
  const played = await playEpisode({
    scenario,
    ...createScriptedRoles(scenario),
    seed: 0,
    file: join(folder(), "run.trajectory.jsonl"),
    signal: new AbortController().signal,
    around: async () => {
      order.push("started");
      return async () => {
        order.push("released");
      };
    },
    onLine: (line) => {
      if (line.type === "evaluation") order.push("scored");
    },
  });
  assert.equal(played.evaluation?.score, 1);
  assert.deepEqual(order, ["started", "released", "scored"]);
});
