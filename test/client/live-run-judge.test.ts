// A run played for the editor with a role-play judge (toolsandbox.judge.*): as with `toolsandbox
// run --judge`, the judgement is the file's last line, after the evaluation, and the panel
// receives it too. The judge is mock-llm over HTTP.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { playToFile, type StreamedLine } from "../../client/host/live-run.js";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { RolePlayJudge } from "../../engine/benchmarks/dialogtool/role-play/role-play-judge.js";
import { modelSettings } from "../../engine/roles/openai/settings.js";
import { createScriptedRoles } from "../../engine/roles/scripted.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { removeTempDirs, tempDir } from "./fixtures.js";

let mock: MockLlm;
let scenario: Scenario;

before(async () => {
  const loaded = loadScenarioFile("test/fixtures/role-play/cellular_off_persona.scenario.yaml").scenario;
  assert.ok(loaded);
  scenario = loaded;
  mock = await startMockLlm({ scenarios: [scenario] });
});

after(async () => {
  await mock.close();
  removeTempDirs();
});

test("the judgement is the last line of the file and of what the panel receives", async () => {
  const file = join(tempDir(), "cellular_off_persona.run-1.trajectory.jsonl");
  const lines: StreamedLine[] = [];
  const judge = new RolePlayJudge({ settings: modelSettings("mock", { base_url: `${mock.url}/v1` }), apiKey: "no-key" });
  const signal = new AbortController().signal;
  await playToFile({ scenario, ...createScriptedRoles(scenario), seed: 0, file, signal, onLine: (l) => lines.push(l), judge });
  const written = readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as unknown);
  assert.deepEqual(lines, written);
  assert.deepEqual(
    lines.slice(-3).map((l) => l.type),
    ["end", "evaluation", "judgement"],
  );
  const saved = readTrajectoryFile(file);
  assert.equal(saved.judgement?.overall, 5);
  assert.equal(saved.judgement?.criteria[0]?.reason, "Reply 1 names the persona, Captain Nova.");
});
