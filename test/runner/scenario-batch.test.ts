// The peer modes' batch (engine/runner/scenario-batch.ts), called directly: every scenario file is
// loaded or none is run, and the work goes on over the others when one scenario fails, in the
// scenarios' order whatever order they finish in; an error of the whole run stops it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RoleSpecError } from "../../engine/runner/errors.js";
import { eachScenario, loadScenarioJobs, type ScenarioJob } from "../../engine/runner/scenario-batch.js";
import { importedToolTalkFolder } from "../fixtures/tooltalk-data.js";

const MALFORMED = "test/fixtures/broken/malformed.scenario.yaml";
const FIXTURE_NAMES = [
  "tooltalk_account_tools_email_calendar_send_email_0",
  "tooltalk_add_alarm_easy",
  "tooltalk_alarm_reminder_weather_add_reminder_0",
  "tooltalk_current_weather_easy",
  "tooltalk_send_message_easy",
];

function jobs(): ScenarioJob[] {
  const loaded = loadScenarioJobs([importedToolTalkFolder()]);
  assert.ok(loaded.jobs);
  return loaded.jobs;
}

test("a folder's scenarios load as jobs in file order, each with its file", () => {
  const folder = importedToolTalkFolder();
  const loaded = loadScenarioJobs([folder]);
  assert.deepEqual([loaded.files, loaded.broken], [5, 0]);
  assert.deepEqual(
    loaded.jobs?.map((j) => [j.scenario.name, j.file]),
    FIXTURE_NAMES.map((n) => [n, join(folder, `${n}.scenario.yaml`)]),
  );
  assert.equal(loaded.diagnostics.filter((d) => d.severity === "error").length, 0);
});

test("one file with errors and nothing is run: no jobs, the broken file counted, its errors kept", () => {
  const folder = mkdtempSync(join(tmpdir(), "scenario-batch-"));
  try {
    for (const f of readdirSync(importedToolTalkFolder())) copyFileSync(join(importedToolTalkFolder(), f), join(folder, f));
    copyFileSync(MALFORMED, join(folder, "zz-malformed.scenario.yaml"));
    const loaded = loadScenarioJobs([folder]);
    assert.equal(loaded.jobs, null);
    assert.deepEqual([loaded.files, loaded.broken], [6, 1]);
    const errors = loaded.diagnostics.filter((d) => d.severity === "error");
    assert.ok(errors.length > 0);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("work runs a few at a time; results come back in the jobs' order; a failed scenario is reported and the others go on", async () => {
  const all = jobs();
  const failedLines: string[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const result = await eachScenario(
    all,
    {
      concurrency: 2,
      signal: new AbortController().signal,
      onFailed: (job, message) => failedLines.push(`${job.scenario.name}: ${message}`),
    },
    async (job) => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      // The first job finishes last: the order of the results must not follow the finishing order.
      await new Promise((resolve) => setTimeout(resolve, job === all[0] ? 30 : 1));
      running--;
      if (job.scenario.name === "tooltalk_current_weather_easy") throw new Error("the model answered nothing");
      return job.scenario.name;
    },
  );
  assert.equal(mostAtOnce, 2);
  assert.deepEqual(
    result.done,
    FIXTURE_NAMES.filter((n) => n !== "tooltalk_current_weather_easy"),
  );
  assert.equal(result.failed, 1);
  assert.deepEqual(failedLines, ["tooltalk_current_weather_easy: the model answered nothing"]);
});

test("an error of the whole run (a role that cannot be made) stops the batch instead of failing one scenario", async () => {
  const failed: string[] = [];
  await assert.rejects(
    eachScenario(
      jobs(),
      { concurrency: 1, signal: new AbortController().signal, onFailed: (job) => failed.push(job.scenario.name) },
      async () => {
        throw new RoleSpecError("the agent's API key is missing");
      },
    ),
    (e: unknown) => e instanceof RoleSpecError && e.message === "the agent's API key is missing",
  );
  assert.deepEqual(failed, []);
});

test("once stopped, nothing new starts and work cut short is not reported as failed", async () => {
  const stop = new AbortController();
  const started: string[] = [];
  const failed: string[] = [];
  const result = await eachScenario(
    jobs(),
    { concurrency: 1, signal: stop.signal, onFailed: (job) => failed.push(job.scenario.name) },
    async (job) => {
      started.push(job.scenario.name);
      stop.abort();
      throw new Error("cancelled");
    },
  );
  assert.deepEqual(started, [FIXTURE_NAMES[0]]);
  assert.deepEqual([result.done, result.failed, failed], [[], 0, []]);
});
