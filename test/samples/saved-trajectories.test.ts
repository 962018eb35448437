// The saved trajectories in sample-scenarios/trajectories are what `run` writes today, byte for
// byte, in a different timezone than the one they were written in. A change that alters any
// episode, id, world diff or score shows up here; if it is intended, `npm run samples:update`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, removeTempDirs, runCli, tempDir } from "../cli/harness.js";
import { checkLine } from "../../engine/trajectory/schema.js";

const SAVED = "sample-scenarios/trajectories";
const scenarioNames = readdirSync("sample-scenarios")
  .filter((f) => f.endsWith(".scenario.yaml"))
  .map((f) => f.slice(0, -".scenario.yaml".length));

before(requireBuild);
after(removeTempDirs);

test("every sample has a saved trajectory that passes the trajectory schema", () => {
  const saved = readdirSync(SAVED).filter((f) => f.endsWith(".trajectory.jsonl"));
  assert.deepEqual(saved.map((f) => f.slice(0, -".trajectory.jsonl".length)).sort(), [...scenarioNames].sort());
  for (const file of saved) {
    const lines = readFileSync(join(SAVED, file), "utf8").trimEnd().split("\n");
    for (const [i, line] of lines.entries()) {
      const checked = checkLine(JSON.parse(line));
      assert.ok(checked.ok, `${file}:${i + 1}: ${checked.ok ? "" : checked.error}`);
    }
  }
});

test("re-running the samples in another timezone reproduces the saved files byte for byte", () => {
  const out = tempDir("samples");
  const r = runCli(["run", "sample-scenarios", "--agent", "scripted", "--user", "scripted", "--out", out], { TZ: "Pacific/Chatham" });
  assert.equal(r.status, 0, r.stderr);
  for (const name of [...scenarioNames, "summary"]) {
    const file = name === "summary" ? "summary.json" : `${name}.trajectory.jsonl`;
    const fresh = readFileSync(join(out, file), "utf8");
    const saved = readFileSync(join(SAVED, file), "utf8");
    assert.ok(fresh === saved, `${file} differs from the saved copy (intended? run \`npm run samples:update\`)`);
  }
});
