// `run --mode dialogtool` without the CLI (engine/runner/dialogtool-mode.ts), on our ToolTalk-format
// fixture: the reference as the agent scores 1.0 on awareness, selection and execution with the
// plain and the asking settings; each scenario's result file and the summary are written; an
// outside agent asked DialogTool's questions is a RoleSpecError.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DIALOGTOOL_SUMMARY_FILE, runDialogToolMode } from "../../engine/runner/dialogtool-mode.js";
import { RoleSpecError } from "../../engine/runner/errors.js";
import { roleSpec } from "../../engine/runner/role-specs.js";
import { loadScenarioJobs, type ScenarioJob } from "../../engine/runner/scenario-batch.js";
import { removeTempDirs, tempDir } from "../cli/harness.js";
import { importedToolTalkFolder } from "../fixtures/tooltalk-data.js";

after(removeTempDirs);
const outFolder = (): string => tempDir("dialogtool-mode");
function fixtureJobs(): ScenarioJob[] {
  const { jobs } = loadScenarioJobs([importedToolTalkFolder()]);
  assert.ok(jobs);
  return jobs;
}
const noFailure = (job: ScenarioJob, message: string): never => assert.fail(`${job.scenario.name}: ${message}`);

test("the reference as the agent: 1.0 on every fixture scenario, one result file each and the summary", async () => {
  const out = outFolder();
  const result = await runDialogToolMode(fixtureJobs(), {
    out,
    agent: "scripted",
    seed: 0,
    signal: new AbortController().signal,
    onFailed: noFailure,
  });
  assert.equal(result.failed, 0);
  assert.equal(result.rows.length, 5);
  const { awareness, selection, execution, response } = result.aggregate;
  assert.deepEqual([awareness.accuracy, selection.accuracy, execution.accuracy, response.rouge_l], [1, 1, 1, 1]);
  assert.ok(awareness.total > 0 && selection.total > 0);
  assert.deepEqual(readdirSync(out).sort(), [...result.rows.map((r) => `${r.name}.dialogtool.json`), DIALOGTOOL_SUMMARY_FILE].sort());
  const summary = JSON.parse(readFileSync(join(out, DIALOGTOOL_SUMMARY_FILE), "utf8")) as { aggregate: unknown };
  assert.deepEqual(summary.aggregate, result.aggregate);
});

test("asked for actions and apps, the reference scores 1.0 on the actions and both selection settings", async () => {
  const result = await runDialogToolMode(fixtureJobs(), {
    out: outFolder(),
    agent: "scripted",
    seed: 0,
    awareness: "actions",
    selection: "hierarchical",
    signal: new AbortController().signal,
    onFailed: noFailure,
  });
  const { actions, selection_settings, selection } = result.aggregate;
  assert.equal(actions?.tally.accuracy, 1);
  for (const setting of [selection_settings?.flat, selection_settings?.hierarchical]) {
    assert.ok(setting);
    for (const t of [setting.app, setting.api, setting.argument]) assert.deepEqual([t.correct, t.accuracy], [selection.total, 1]);
  }
});

for (const [setting, asked] of [
  ["asked DialogTool's action question", { awareness: "actions" }],
  ["with no question (binary awareness, flat selection)", {}],
] as const) {
  test(`an outside agent cannot play teacher-forced turns ${setting}: a RoleSpecError before any scenario, nothing written`, async () => {
    // Port 9 (discard): nothing listens, so an attempt to reach the agent could only hang or fail.
    const outside = roleSpec("agent", "a2a:http://127.0.0.1:9/agent", {}, {});
    const failed: string[] = [];
    const out = outFolder();
    await assert.rejects(
      runDialogToolMode(fixtureJobs(), {
        out,
        agent: "a2a:http://127.0.0.1:9/agent",
        agentSpec: outside,
        seed: 0,
        ...asked,
        signal: new AbortController().signal,
        onFailed: (job) => failed.push(job.scenario.name),
      }),
      (e: unknown) => e instanceof RoleSpecError && /outside agent \(cmd:, a2a:\) cannot/.test(e.message),
    );
    assert.deepEqual(failed, []);
    assert.deepEqual(readdirSync(out), [], "no result file and no summary");
  });
}
