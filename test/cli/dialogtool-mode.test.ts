// `run --mode dialogtool` and `eval --mode dialogtool` as a user runs them: the reference as the
// agent scores 1.0 on every sample; a model behind the real openai client (the mock server playing
// the references over HTTP) too, with each turn's model call recorded; `eval` of the result files
// gives the same figures; a free run's trajectory is scored turn by turn, and a planted wrong
// argument lowers execution and arguments only. Options that have no meaning here are refused.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { importedToolTalkFolder } from "../fixtures/tooltalk-data.js";
import { requireBuild, removeTempDirs, runCli, runCliAsync, tempDir } from "./harness.js";

const SAMPLES = "sample-scenarios";
const SAVED = join(SAMPLES, "trajectories");
const NAME = "send_message_with_contact_content_cellular_off_adapted";

let mock: MockLlm;

before(async () => {
  requireBuild();
  const scenarios = readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".scenario.yaml"))
    .map((f): Scenario => {
      const { scenario } = loadScenarioFile(join(SAMPLES, f));
      assert.ok(scenario, f);
      return scenario;
    });
  mock = await startMockLlm({ scenarios });
});

after(async () => {
  await mock.close();
  removeTempDirs();
});

interface Summary {
  readonly agent: string;
  readonly scenarios: readonly { scenario: string }[];
  readonly aggregate: {
    turns: number;
    awareness: { accuracy: number };
    selection: { accuracy: number };
    execution: { accuracy: number };
    response: { bleu: number; rouge_l: number };
  };
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"));

function assertPerfect(summary: Summary, scenarios: number): void {
  assert.equal(summary.scenarios.length, scenarios);
  assert.equal(summary.aggregate.awareness.accuracy, 1);
  assert.equal(summary.aggregate.selection.accuracy, 1);
  assert.equal(summary.aggregate.execution.accuracy, 1);
  assert.ok(Math.abs(summary.aggregate.response.bleu - 100) < 1e-9, `BLEU ${summary.aggregate.response.bleu}`);
  assert.equal(summary.aggregate.response.rouge_l, 1);
}

test("run --mode dialogtool with the reference as the agent: every sample 1.0, one result file each, the same figures from eval", () => {
  const out = tempDir("dialogtool-scripted");
  const r = runCli(["run", SAMPLES, "--mode", "dialogtool", "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^SCENARIO +TURNS +AWARENESS +SELECTION +EXECUTION +ARGUMENTS +BLEU +ROUGE-L$/m);
  assert.match(r.stdout, /DialogTool over 29 scenarios, \d+ agent turns: awareness 1\.000 \(\d+\/\d+\) {2}selection 1\.000/);
  const files = readdirSync(out).filter((f) => f.endsWith(".dialogtool.json"));
  assert.equal(files.length, 29);
  const summary = readJson(join(out, "dialogtool-summary.json")) as Summary;
  assertPerfect(summary, 29);
  // Every file of the folder, as a shell glob gives them: the summary among them is skipped with a line.
  const again = runCli(["eval", ...readdirSync(out).map((f) => join(out, f)), "--mode", "dialogtool", "--json"]);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stderr, /dialogtool-summary\.json: skipped/);
  const evaluated = JSON.parse(again.stdout) as { aggregate: Summary["aggregate"]; scenarios: { source: string }[] };
  assert.deepEqual(evaluated.aggregate, summary.aggregate);
  assert.ok(evaluated.scenarios.every((s) => s.source === "dialogtool-run"));
});

test("the same run is the same bytes", () => {
  const a = tempDir("dialogtool-a");
  const b = tempDir("dialogtool-b");
  for (const out of [a, b])
    assert.equal(runCli(["run", join(SAMPLES, `${NAME}.scenario.yaml`), "--mode", "dialogtool", "--out", out]).status, 0);
  assert.equal(readFileSync(join(a, `${NAME}.dialogtool.json`), "utf8"), readFileSync(join(b, `${NAME}.dialogtool.json`), "utf8"));
});

async function runAsync(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { status, stdout, stderr } = await runCliAsync(args, { OPENAI_API_KEY: "test-key" });
  return { code: status, stdout, stderr };
}

test("a model agent over HTTP (the mock server playing the references) is asked once per agent turn; each call's telemetry is in the file", async () => {
  const out = tempDir("dialogtool-model");
  const r = await runAsync([
    "run",
    SAMPLES,
    "--mode",
    "dialogtool",
    "--agent",
    "openai:mock",
    "--base-url",
    `${mock.url}/v1`,
    "--concurrency",
    "4",
    "--out",
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const summary = readJson(join(out, "dialogtool-summary.json")) as Summary;
  assert.equal(summary.agent, "openai:mock");
  assertPerfect(summary, 29);
  const run = readJson(join(out, `${NAME}.dialogtool.json`)) as {
    turns: { model_call?: { model: string; usage: { prompt_tokens: number } | null } }[];
  };
  assert.equal(run.turns.length, 3);
  for (const turn of run.turns) {
    assert.equal(turn.model_call?.model, "mock");
    assert.ok((turn.model_call?.usage?.prompt_tokens ?? 0) > 0);
  }
});

test("eval --mode dialogtool on saved free runs: the samples' runs score 1.0; a wrong argument lowers execution and arguments only", () => {
  const saved = runCli(["eval", SAVED, "--mode", "dialogtool", "--json"]);
  assert.equal(saved.status, 0, saved.stderr);
  const all = JSON.parse(saved.stdout) as { scenarios: { source: string }[]; aggregate: Summary["aggregate"] };
  assert.equal(all.scenarios.length, 29);
  assert.ok(all.scenarios.every((s) => s.source === "trajectory"));
  assert.equal(all.aggregate.awareness.accuracy, 1);
  assert.equal(all.aggregate.execution.accuracy, 1);

  const dir = tempDir("dialogtool-planted");
  const planted = join(dir, `${NAME}.trajectory.jsonl`);
  const text = readFileSync(join(SAVED, `${NAME}.trajectory.jsonl`), "utf8");
  const changed = text.replace(
    /("name":"send_message_with_phone_number","arguments":\{[^}]*"content":")How's the new album coming along/,
    "$1Is the album done yet",
  );
  assert.notEqual(changed, text, "the planted argument is in the file");
  writeFileSync(planted, changed);
  const r = runCli(["eval", planted, "--mode", "dialogtool", "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const one = JSON.parse(r.stdout) as {
    aggregate: {
      awareness: { correct: number; total: number };
      selection: { correct: number; total: number };
      execution: { correct: number; total: number };
      arguments: { correct: number; total: number };
    };
  };
  assert.deepEqual([one.aggregate.awareness.correct, one.aggregate.awareness.total], [3, 3]);
  assert.deepEqual([one.aggregate.selection.correct, one.aggregate.selection.total], [2, 2]);
  assert.deepEqual([one.aggregate.execution.correct, one.aggregate.execution.total], [1, 2]);
  assert.deepEqual([one.aggregate.arguments.correct, one.aggregate.arguments.total], [3, 4]);
  // By app: only the Messages app's turn fell; the parallel turn counts for Contacts and Settings.
  const byApp = (JSON.parse(r.stdout) as { by_app: { app: string; metrics: { execution: { correct: number; total: number } } }[] }).by_app;
  assert.deepEqual(
    byApp.map((a) => [a.app, a.metrics.execution.correct, a.metrics.execution.total]),
    [
      ["Contacts", 1, 1],
      ["Messages", 0, 1],
      ["Settings", 1, 1],
    ],
  );
});

test("options that mean nothing without episodes are refused with one line", () => {
  const out = tempDir("dialogtool-usage");
  const file = join(SAMPLES, `${NAME}.scenario.yaml`);
  for (const [flag, why] of [
    [["--user", "openai:gpt-4o"], /--user does not apply to --mode dialogtool/],
    [["--trials", "2"], /--trials does not apply to --mode dialogtool/],
    [["--augment"], /--augment does not apply to --mode dialogtool/],
  ] as const) {
    const r = runCli(["run", file, "--mode", "dialogtool", "--out", out, ...flag], { OPENAI_API_KEY: "x" });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, why);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  }
});

test("a malformed result file is one line naming the file, line, column and JSON path", () => {
  const dir = tempDir("dialogtool-bad");
  const file = join(dir, "broken.dialogtool.json");
  writeFileSync(
    file,
    '{\n  "format": "toolsandbox-dialogtool-run",\n  "scenario": "x",\n  "agent": "scripted",\n  "turns": [{ "index": 1, "dialogue_turn": 0, "truth": { "kind": "maybe" }, "prediction": { "kind": "none", "reason": "r" } }]\n}\n',
  );
  const r = runCli(["eval", file, "--mode", "dialogtool"]);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /broken\.dialogtool\.json:5:\d+: \$\.turns\[0\]\.truth\.kind: expected "calls" or "text", found "maybe"/);
  assert.doesNotMatch(r.stderr, /at .*\.js:\d+/);
});

test("ToolTalk-format conversations (our fixture), imported: the reference as the agent scores 1.0 on every task (the tasks run on either pack)", () => {
  const out = tempDir("dialogtool-tooltalk");
  const r = runCli(["run", importedToolTalkFolder(), "--mode", "dialogtool", "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  assertPerfect(readJson(join(out, "dialogtool-summary.json")) as Summary, 5);
});

test("a model that cannot be reached fails that scenario in one line, exit 1; nothing is half-written", async () => {
  const out = tempDir("dialogtool-unreachable");
  const r = await runAsync([
    "run",
    join(SAMPLES, `${NAME}.scenario.yaml`),
    "--mode",
    "dialogtool",
    "--agent",
    "openai:mock",
    "--base-url",
    "http://127.0.0.1:9/v1",
    "--max-retries",
    "0",
    "--out",
    out,
  ]);
  assert.equal(r.code, 1, r.stderr);
  const problems = r.stderr.trim().split("\n");
  assert.equal(problems.length, 1, r.stderr);
  assert.match(problems[0] ?? "", new RegExp(`${NAME}: the reference's play ended with model_error`));
  assert.deepEqual(
    readdirSync(out).filter((f) => f.endsWith(".dialogtool.json")),
    [],
  );
});
