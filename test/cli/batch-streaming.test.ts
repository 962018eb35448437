// `run` starts the first episodes while later scenario files are still being checked. A file with
// errors found meanwhile must leave nothing behind: the episodes under way are cancelled, their
// files removed, no result line printed, and files an earlier run left in --out stay as they were.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { requireBuild, lines, removeTempDirs, runCli, runCliAsync, tempDir } from "./harness.js";

const SAMPLES = "sample-scenarios";
const BROKEN = "test/fixtures/broken/malformed.scenario.yaml";
const samples = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".scenario.yaml"))
  .sort()
  .map((f) => join(SAMPLES, f));

let mock: MockLlm;

before(async () => {
  requireBuild();
  const scenarios = samples.map((f): Scenario => {
    const { scenario } = loadScenarioFile(f);
    assert.ok(scenario, f);
    return scenario;
  });
  // Slow enough that no episode ends (two calls at least) before every file has been checked.
  mock = await startMockLlm({ scenarios, faults: [{ kind: "latency", ms: 400 }] });
});

after(async () => {
  await mock.close();
  removeTempDirs();
});

async function runWithModels(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const roles = ["--agent", "openai:mock", "--user", "openai:mock", "--base-url", `${mock.url}/v1`];
  const { status, stdout, stderr } = await runCliAsync(["run", ...args, ...roles], { OPENAI_API_KEY: "test-key" });
  return { code: status, stdout, stderr };
}

test("a file with errors checked after the first episodes started: they are cancelled and nothing is kept", async () => {
  const out = join(tempDir("spoiled"), "out");
  const r = await runWithModels([...samples, BROKEN, "--concurrency", "8", "--out", out]);
  assert.equal(r.code, 1, r.stderr);
  assert.ok(mock.requests.length > 0, "episodes had started before the broken file was checked");
  assert.equal(r.stdout, "");
  const err = lines(r.stderr);
  for (const l of err.slice(0, -1)) assert.match(l, /^test\/fixtures\/broken\/malformed\.scenario\.yaml:\d+:\d+: error /);
  assert.equal(err.at(-1), `toolsandbox: 1 of ${samples.length + 1} scenario files has errors; nothing was run`);
  assert.equal(existsSync(out), false, "the output directory the run made is gone");
});

test("a run spoiled by a later file leaves what an earlier run wrote in --out as it was", () => {
  const out = tempDir("earlier");
  const paths = samples.slice(0, 3);
  assert.equal(runCli(["run", ...paths, "--out", out]).status, 0);
  const before = new Map(readdirSync(out).map((f) => [f, readFileSync(join(out, f))]));
  assert.equal(before.size, 4);

  const r = runCli(["run", ...paths, BROKEN, "--out", out]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, "");
  assert.deepEqual(readdirSync(out).sort(), [...before.keys()].sort());
  for (const [f, bytes] of before) assert.ok(readFileSync(join(out, f)).equals(bytes), `${f} is unchanged`);
});
