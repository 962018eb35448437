// The imported ToolTalk scenarios (our ToolTalk-format fixture) under ToolTalk's own evaluation:
// `run --mode tooltalk` (the per-turn, teacher-forced simulation) and `eval --mode tooltalk`
// (ToolTalk's metrics of those results and of ordinary trajectories), run as a user runs them. The
// published 78 conversations: test/conformance/tooltalk/cli/tooltalk-mode.test.ts.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";
import { importedToolTalkFolder } from "../fixtures/tooltalk-data.js";

const SCENARIOS = importedToolTalkFolder();
const names = readdirSync(SCENARIOS)
  .filter((f) => f.endsWith(".scenario.yaml"))
  .map((f) => f.slice(0, -".scenario.yaml".length))
  .sort();

interface Metrics {
  predictions: number;
  ground_truths: number;
  matches: number;
  actions: number;
  valid_actions: number;
  bad_actions: number;
  precision: number;
  recall: number;
  action_precision: number;
  bad_action_rate: number;
  success: boolean;
  soft_success: number;
}
interface EvalJson {
  mode: string;
  similarity: { name: string; strict_threshold: number; loose_threshold: number };
  conversations: { file: string; scenario: string; agent: string; source: string; metrics: Metrics; error_types: Record<string, number> }[];
  aggregate: { episodes: number; micro: Omit<Metrics, "success" | "soft_success">; success_rate: number; soft_success_rate: number };
}

let runDir = "";
before(() => {
  requireBuild();
  runDir = tempDir("tooltalk-mode");
  const r = runCli(["run", SCENARIOS, "--mode", "tooltalk", "--concurrency", "4", "--out", runDir]);
  assert.equal(r.status, 0, r.stderr);
});
after(removeTempDirs);

test("run --mode tooltalk with the scripted agent: every conversation has precision = recall = 1 and success", () => {
  const files = readdirSync(runDir)
    .filter((f) => f.endsWith(".tooltalk.json"))
    .sort();
  assert.deepEqual(
    files,
    names.map((n) => `${n}.tooltalk.json`),
  );
  for (const file of files) {
    const run = JSON.parse(readFileSync(join(runDir, file), "utf8")) as { agent: string; metrics: Metrics; turns: unknown[] };
    assert.equal(run.agent, "scripted");
    assert.ok(run.turns.length > 0, file);
    assert.deepEqual([run.metrics.precision, run.metrics.recall, run.metrics.success], [1, 1, true], file);
  }
  const summary = JSON.parse(readFileSync(join(runDir, "tooltalk-summary.json"), "utf8")) as { aggregate: EvalJson["aggregate"] };
  assert.equal(summary.aggregate.episodes, 5);
  assert.equal(summary.aggregate.success_rate, 1);
});

test("eval --mode tooltalk --json prints each conversation's metrics and the micro/macro aggregate", () => {
  const r = runCli(["eval", "--mode", "tooltalk", "--json", runDir]);
  assert.equal(r.status, 0, r.stderr);
  const output = JSON.parse(r.stdout) as EvalJson;
  assert.deepEqual(Object.keys(output), ["mode", "similarity", "conversations", "aggregate", "by_agent"]);
  assert.equal(output.mode, "tooltalk");
  assert.deepEqual(output.similarity, { name: "rouge-l", strict_threshold: 0.6, loose_threshold: 0.4 });
  assert.equal(output.conversations.length, 5);
  const first = output.conversations[0];
  assert.ok(first);
  assert.deepEqual(Object.keys(first), ["file", "scenario", "agent", "source", "metrics", "error_types"]);
  assert.equal(first.agent, "scripted");
  assert.deepEqual(Object.keys(first.metrics).sort(), [
    "action_precision",
    "actions",
    "bad_action_rate",
    "bad_actions",
    "ground_truths",
    "matches",
    "precision",
    "predictions",
    "recall",
    "soft_success",
    "success",
    "valid_actions",
  ]);
  assert.deepEqual(first.error_types, { "over-trigger": 0, "bad planning": 0, "bad call": 0 });
  assert.ok(output.conversations.every((c) => c.source === "tooltalk-run" && c.metrics.success));
  const { micro } = output.aggregate;
  assert.equal(output.aggregate.episodes, 5);
  assert.equal(
    micro.predictions,
    output.conversations.reduce((n, c) => n + c.metrics.predictions, 0),
  );
  assert.deepEqual([micro.precision, micro.recall, output.aggregate.success_rate], [1, 1, 1]);
});

test("eval --mode tooltalk scores the turns again: a prediction edited in a result file no longer matches", () => {
  const dir = tempDir("tooltalk-edited");
  const file = "tooltalk_add_alarm_easy.tooltalk.json";
  const run = JSON.parse(readFileSync(join(runDir, file), "utf8")) as {
    turns: { predictions: { role: string; request?: { parameters: Record<string, unknown> } }[] }[];
  };
  const call = run.turns[0]?.predictions.find((p) => p.role === "api");
  assert.ok(call?.request);
  call.request.parameters["time"] = "05:00:00";
  writeFileSync(join(dir, file), JSON.stringify(run));
  const r = runCli(["eval", "--mode", "tooltalk", "--json", join(dir, file)]);
  assert.equal(r.status, 0, r.stderr);
  const [scored] = (JSON.parse(r.stdout) as EvalJson).conversations;
  // The call still succeeded and is an action, so it is a bad one.
  assert.deepEqual([scored?.metrics.recall, scored?.metrics.bad_actions, scored?.metrics.success], [0, 1, false]);
  const text = runCli(["eval", "--mode", "tooltalk", join(dir, file)]);
  assert.match(lines(text.stdout)[1] ?? "", /^tooltalk_add_alarm_easy +0\.000 +0\.000 +0\.000 +1\.000 +no +0\.000$/);
});

test("eval --mode tooltalk given the run folder's tooltalk-summary.json says what it is and skips it", () => {
  const summary = join(runDir, "tooltalk-summary.json");
  const skipLine = `toolsandbox: ${summary}: skipped: this is the summary \`run --mode tooltalk\` writes; the conversations are the *.tooltalk.json files beside it`;
  const alone = runCli(["eval", "--mode", "tooltalk", summary]);
  assert.equal(alone.status, 2);
  assert.deepEqual(lines(alone.stderr), [skipLine, "toolsandbox: nothing to score: give *.tooltalk.json or *.trajectory.jsonl files"]);
  // As a shell glob gives it: the summary among the run files.
  const withRuns = runCli(["eval", "--mode", "tooltalk", "--json", summary, join(runDir, "tooltalk_add_alarm_easy.tooltalk.json")]);
  assert.equal(withRuns.status, 0, withRuns.stderr);
  assert.deepEqual(lines(withRuns.stderr), [skipLine]);
  assert.equal((JSON.parse(withRuns.stdout) as EvalJson).conversations.length, 1);
});

test("ordinary trajectories of the imported scenarios, scored in the ToolTalk mode, match their reference calls", () => {
  const out = tempDir("tooltalk-episodes");
  const played = runCli(["run", SCENARIOS, "--concurrency", "4", "--out", out]);
  assert.equal(played.status, 0, played.stderr);
  const r = runCli(["eval", "--mode", "tooltalk", "--json", out]);
  assert.equal(r.status, 0, r.stderr);
  const output = JSON.parse(r.stdout) as EvalJson;
  assert.equal(output.conversations.length, 5);
  for (const c of output.conversations) {
    assert.equal(c.source, "trajectory");
    assert.deepEqual([c.metrics.precision, c.metrics.recall, c.metrics.success], [1, 1, true], c.scenario);
  }
});

test("options that belong to milestone runs are refused in the ToolTalk mode, and so are other packs' scenarios", () => {
  const out = tempDir("tooltalk-refused");
  const user = runCli(["run", SCENARIOS, "--mode", "tooltalk", "--user", "openai:gpt-4o", "--out", out], { OPENAI_API_KEY: "x" });
  assert.equal(user.status, 2);
  assert.deepEqual(lines(user.stderr), [
    "toolsandbox: --user does not apply to --mode tooltalk: ToolTalk replays the user's turns and never simulates the user",
  ]);
  const sandbox = runCli(["run", "sample-scenarios/cellular_off_adapted.scenario.yaml", "--mode", "tooltalk", "--out", out]);
  assert.equal(sandbox.status, 1);
  assert.deepEqual(lines(sandbox.stderr), [
    "toolsandbox: sample-scenarios/cellular_off_adapted.scenario.yaml: --mode tooltalk runs ToolTalk scenarios only; this one uses the toolsandbox pack",
  ]);
  assert.deepEqual(readdirSync(out), []);
});

test("a malformed result file is exit 4 with one line naming the file and the JSON path", () => {
  const dir = tempDir("tooltalk-malformed");
  const file = join(dir, "broken.tooltalk.json");
  const text = JSON.stringify({ format: "toolsandbox-tooltalk-run", scenario: "x", agent: "scripted", turns: [{ position: "one" }] });
  writeFileSync(file, text);
  const r = runCli(["eval", "--mode", "tooltalk", file]);
  assert.equal(r.status, 4);
  const column = text.indexOf('"one"') + 1;
  assert.deepEqual(lines(r.stderr), [`toolsandbox: ${file}:1:${column}: $.turns[0].position: expected an integer`]);
});
