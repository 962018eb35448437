// `run --mode dialogtool --awareness actions --selection hierarchical` as a user runs it: the
// reference scores 1.0 on the actions, confirmation and both selection settings over the samples
// and our ToolTalk-format fixture (the published 78 conversations: test/conformance/tooltalk/); a
// model behind the real openai client (mock-llm answering the action and app questions with the
// reference over HTTP) does too, and each question's request is in the result file with its
// telemetry. `eval` of the files gives the same figures.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { importedToolTalkFolder } from "../fixtures/tooltalk-data.js";
import { requireBuild, removeTempDirs, runCli, runCliAsync, tempDir } from "./harness.js";

const SAMPLES = "sample-scenarios";
const NAME = "send_message_with_contact_content_cellular_off_multiple_user_turn_adapted";
const ASKING = ["--awareness", "actions", "--selection", "hierarchical"];

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

interface Tally {
  correct: number;
  total: number;
  accuracy: number | null;
}
interface Aggregate {
  selection: Tally;
  actions: { tally: Tally; confusion: Record<string, Record<string, number>> };
  confirmation: Tally;
  selection_settings: { flat: Record<"app" | "api" | "argument", Tally>; hierarchical: Record<"app" | "api" | "argument", Tally> };
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"));

function assertPerfect(aggregate: Aggregate, what: string): void {
  assert.equal(aggregate.actions.tally.accuracy, 1, what);
  for (const [truth, row] of Object.entries(aggregate.actions.confusion)) assert.deepEqual(Object.keys(row), [truth], what);
  assert.equal(aggregate.confirmation.correct, aggregate.confirmation.total, what);
  assert.ok(aggregate.confirmation.total > 0, what);
  for (const setting of [aggregate.selection_settings.flat, aggregate.selection_settings.hierarchical]) {
    for (const t of [setting.app, setting.api, setting.argument])
      assert.deepEqual([t.correct, t.accuracy], [aggregate.selection.total, 1], what);
  }
}

test("the reference as the agent, asked for actions and apps: 1.0 on every sample, the table says so, eval agrees", () => {
  const out = tempDir("dialogtool-asking");
  const r = runCli(["run", SAMPLES, "--mode", "dialogtool", ...ASKING, "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^actions 1\.000 \(\d+\/\d+\)$/m);
  assert.match(
    r.stdout,
    /^selection settings {2}flat: app 1\.000 api 1\.000 argument 1\.000 {2}\| {2}hierarchical: app 1\.000 api 1\.000 argument 1\.000$/m,
  );
  assert.match(r.stdout, /^errors {2}awareness: false negatives 0\.0% \(0\/\d+\), false positives 0\.0% \(0\/\d+\)$/m);
  const summary = readJson(join(out, "dialogtool-summary.json")) as { awareness: string; selection: string; aggregate: Aggregate };
  assert.deepEqual([summary.awareness, summary.selection], ["actions", "hierarchical"]);
  assertPerfect(summary.aggregate, "samples");
  const again = runCli(["eval", out, "--mode", "dialogtool", "--json"]);
  assert.equal(again.status, 0, again.stderr);
  assert.deepEqual((JSON.parse(again.stdout) as { aggregate: Aggregate }).aggregate, summary.aggregate);
});

test("ToolTalk-format conversations (our fixture): the reference scores 1.0 on actions, confirmation and both selection settings", () => {
  const out = tempDir("dialogtool-asking-tooltalk");
  const r = runCli(["run", importedToolTalkFolder(), "--mode", "dialogtool", ...ASKING, "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  const summary = readJson(join(out, "dialogtool-summary.json")) as { scenarios: unknown[]; aggregate: Aggregate };
  assert.equal(summary.scenarios.length, 5);
  assertPerfect(summary.aggregate, "tooltalk");
});

test("a model over HTTP answers the action and app questions (mock-llm plays the reference); each request is recorded with telemetry", async () => {
  const out = tempDir("dialogtool-asking-model");
  const r = await runCliAsync(
    [
      "run",
      join(SAMPLES, `${NAME}.scenario.yaml`),
      "--mode",
      "dialogtool",
      ...ASKING,
      "--agent",
      "openai:mock",
      "--base-url",
      `${mock.url}/v1`,
      "--out",
      out,
    ],
    { OPENAI_API_KEY: "test-key" },
  );
  assert.equal(r.status, 0, r.stderr);
  const summary = readJson(join(out, "dialogtool-summary.json")) as { aggregate: Aggregate };
  assert.equal(summary.aggregate.actions.tally.accuracy, 1);
  assert.equal(summary.aggregate.selection_settings.hierarchical.app.accuracy, 1);
  interface Call {
    model: string;
    usage: { prompt_tokens: number } | null;
    request?: { messages: { role: string; content: string | null }[]; tools?: { function: { name: string } }[] };
  }
  const run = readJson(join(out, `${NAME}.dialogtool.json`)) as {
    turns: {
      truth_action: string;
      action_choice: { chosen: string; answer: string; model_call: Call };
      hierarchical: { apps: string[]; model_calls: Call[] };
    }[];
  };
  assert.equal(run.turns.length, 8);
  for (const turn of run.turns) {
    assert.equal(turn.action_choice.chosen, turn.truth_action);
    assert.equal(turn.action_choice.model_call.model, "mock");
    assert.ok((turn.action_choice.model_call.usage?.prompt_tokens ?? 0) > 0);
    const question = turn.action_choice.model_call.request?.messages.at(-1);
    assert.match(question?.content ?? "", /^DialogTool action choice\./);
    // The app question, then the turn with only that app's tools.
    assert.ok(turn.hierarchical.model_calls.length === 2, JSON.stringify(turn.hierarchical));
    const [appCall, toolsCall] = turn.hierarchical.model_calls;
    assert.match(appCall?.request?.messages.at(-1)?.content ?? "", /^DialogTool app choice\.[\s\S]*- Contacts: /);
    const offered = (toolsCall?.request?.tools ?? []).map((t) => t.function.name);
    if (turn.hierarchical.apps.length === 0) assert.deepEqual(offered, []);
    else assert.ok(offered.length > 0 && offered.length < 4, offered.join(","));
  }
  const questions = mock.requests.filter((q) => JSON.stringify(q.body).includes("DialogTool action choice."));
  assert.equal(questions.length, 8);
  assert.ok(questions.every((q) => q.status === 200 && q.scenario === NAME));
});
