// ToolTalk's 78 published conversations, imported, under ToolTalk's own evaluation: `run --mode
// tooltalk` with the scripted agent succeeds on every one, and ordinary trajectories of them,
// scored by `eval --mode tooltalk`, match every reference call. The mode itself (its files, its
// refusals, its errors) is tested on our own fixture by test/cli/import-tooltalk-modes.test.ts.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, removeTempDirs, runCli, tempDir } from "../../../cli/harness.js";
import { importedToolTalkFolder } from "../published-data.js";

before(requireBuild);
after(removeTempDirs);

interface Metrics {
  precision: number;
  recall: number;
  success: boolean;
}

test("run --mode tooltalk with the scripted agent: each of the 78 conversations has precision = recall = 1 and success", () => {
  const scenarios = importedToolTalkFolder();
  const out = tempDir("tooltalk-mode");
  const r = runCli(["run", scenarios, "--mode", "tooltalk", "--concurrency", "4", "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  const files = readdirSync(out).filter((f) => f.endsWith(".tooltalk.json"));
  assert.equal(files.length, 78);
  for (const file of files) {
    const run = JSON.parse(readFileSync(join(out, file), "utf8")) as { metrics: Metrics };
    assert.deepEqual([run.metrics.precision, run.metrics.recall, run.metrics.success], [1, 1, true], file);
  }
  const summary = JSON.parse(readFileSync(join(out, "tooltalk-summary.json"), "utf8")) as {
    aggregate: { episodes: number; success_rate: number };
  };
  assert.deepEqual([summary.aggregate.episodes, summary.aggregate.success_rate], [78, 1]);
});

test("ordinary trajectories of the 78 imported scenarios, scored in the ToolTalk mode, match their reference calls", () => {
  const out = tempDir("tooltalk-episodes");
  const played = runCli(["run", importedToolTalkFolder(), "--concurrency", "4", "--out", out]);
  assert.equal(played.status, 0, played.stderr);
  const r = runCli(["eval", "--mode", "tooltalk", "--json", out]);
  assert.equal(r.status, 0, r.stderr);
  const output = JSON.parse(r.stdout) as { conversations: { scenario: string; source: string; metrics: Metrics }[] };
  assert.equal(output.conversations.length, 78);
  for (const c of output.conversations) {
    assert.equal(c.source, "trajectory");
    assert.deepEqual([c.metrics.precision, c.metrics.recall, c.metrics.success], [1, 1, true], c.scenario);
  }
});
