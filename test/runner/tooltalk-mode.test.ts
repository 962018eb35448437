// `run --mode tooltalk` without the CLI (engine/runner/tooltalk-mode.ts), on our ToolTalk-format
// fixture: the scripted agent replays the ground truth, so every conversation succeeds; each one's
// result file and the summary are written; scenarios of another pack are picked out for refusal.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RoleSpecError } from "../../engine/runner/errors.js";
import { loadScenarioJobs, type ScenarioJob } from "../../engine/runner/scenario-batch.js";
import { TOOLTALK_SUMMARY_FILE, foreignToToolTalk, runToolTalkMode } from "../../engine/runner/tooltalk-mode.js";
import { removeTempDirs, tempDir } from "../cli/harness.js";
import { importedToolTalkFolder } from "../fixtures/tooltalk-data.js";

const SAMPLE = "sample-scenarios/cellular_off_adapted.scenario.yaml";
after(removeTempDirs);
const outFolder = (): string => tempDir("tooltalk-mode");
function jobsOf(...paths: string[]): ScenarioJob[] {
  const { jobs } = loadScenarioJobs(paths);
  assert.ok(jobs);
  return jobs;
}
const noFailure = (job: ScenarioJob, message: string): never => assert.fail(`${job.scenario.name}: ${message}`);

test("the scripted agent: every fixture conversation has precision = recall = 1 and success; files and summary written", async () => {
  const out = outFolder();
  const result = await runToolTalkMode(jobsOf(importedToolTalkFolder()), {
    out,
    agent: "scripted",
    concurrency: 2,
    signal: new AbortController().signal,
    onFailed: noFailure,
  });
  assert.equal(result.failed, 0);
  assert.deepEqual(
    result.rows.map((r) => [r.name, r.metrics.precision, r.metrics.recall, r.metrics.success]),
    [
      ["tooltalk_account_tools_email_calendar_send_email_0", 1, 1, true],
      ["tooltalk_add_alarm_easy", 1, 1, true],
      ["tooltalk_alarm_reminder_weather_add_reminder_0", 1, 1, true],
      ["tooltalk_current_weather_easy", 1, 1, true],
      ["tooltalk_send_message_easy", 1, 1, true],
    ],
  );
  // The fixture's 8 ground-truth calls, 6 of them actions.
  assert.deepEqual(
    [result.aggregate.episodes, result.aggregate.micro.predictions, result.aggregate.micro.actions, result.aggregate.success_rate],
    [5, 8, 6, 1],
  );
  assert.deepEqual(readdirSync(out).sort(), [...result.rows.map((r) => `${r.name}.tooltalk.json`), TOOLTALK_SUMMARY_FILE].sort());
  const summary = JSON.parse(readFileSync(join(out, TOOLTALK_SUMMARY_FILE), "utf8")) as { agent: string; aggregate: unknown };
  assert.equal(summary.agent, "scripted");
  assert.deepEqual(summary.aggregate, result.aggregate);
});

test("the same run twice writes the same bytes", async () => {
  const [a, b] = [outFolder(), outFolder()];
  for (const out of [a, b])
    await runToolTalkMode(jobsOf(importedToolTalkFolder()), {
      out,
      agent: "scripted",
      signal: new AbortController().signal,
      onFailed: noFailure,
    });
  for (const file of readdirSync(a)) assert.equal(readFileSync(join(a, file), "utf8"), readFileSync(join(b, file), "utf8"), file);
});

test("scenarios of another pack are the ones to refuse; an agent without model settings is a RoleSpecError", async () => {
  const mixed = jobsOf(SAMPLE, importedToolTalkFolder());
  assert.deepEqual(
    foreignToToolTalk(mixed).map((j) => j.file),
    [SAMPLE],
  );
  const out = outFolder();
  await assert.rejects(
    runToolTalkMode(jobsOf(importedToolTalkFolder()), {
      out,
      agent: "openai:gpt-4o",
      signal: new AbortController().signal,
      onFailed: noFailure,
    }),
    (e: unknown) => e instanceof RoleSpecError && e.message === '--mode tooltalk: the agent "openai:gpt-4o" has no model settings',
  );
  assert.deepEqual(readdirSync(out), [], "nothing written");
});
