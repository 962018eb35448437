// What `run --resume` makes of a job's saved file (engine/runner/resume.ts), and the plan of jobs
// it resumes (jobs.ts): a finished run is kept, anything a kill or a stop left is played again, a
// file another run wrote is not this run's to replace.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScriptedRoles } from "../../engine/roles/scripted.js";
import { planJobs } from "../../engine/runner/jobs.js";
import { episodeHeader, playEpisode } from "../../engine/runner/play-episode.js";
import { inspectSavedJob } from "../../engine/runner/resume.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";

const FILE = join("sample-scenarios", "cellular_off_adapted.scenario.yaml");
const checked = loadScenarioFile(FILE);
assert.ok(checked.scenario);
const scenario = checked.scenario;

test("jobs: every scenario times every trial, trial k playing with seed + k - 1, named by trial", () => {
  const jobs = planJobs([{ file: FILE, scenario }], 3, 10, 4);
  assert.deepEqual(
    jobs.map((j) => [j.index, j.trial, j.seed, j.trajectory]),
    [
      [4, 1, 10, "cellular_off_adapted.trial-1.trajectory.jsonl"],
      [5, 2, 11, "cellular_off_adapted.trial-2.trajectory.jsonl"],
      [6, 3, 12, "cellular_off_adapted.trial-3.trajectory.jsonl"],
    ],
  );
  assert.equal(new Set(jobs.map((j) => j.trajectory)).size, 3, "each trial has its own file");
  const single = planJobs([{ file: FILE, scenario }], 1, 10);
  assert.equal(single[0]?.trial, null);
  assert.equal(single[0]?.seed, 10);
  assert.equal(single[0]?.trajectory, "cellular_off_adapted.trajectory.jsonl");
});

test("a saved job is kept when finished, played again when cut short or cancelled, left alone when another run wrote it", async () => {
  const out = mkdtempSync(join(tmpdir(), "resume-"));
  const [job] = planJobs([{ file: FILE, scenario }], 1, 0);
  assert.ok(job);
  const roles = createScriptedRoles(scenario);
  const expected = episodeHeader(scenario, roles.agent, roles.user, job.seed);
  const path = join(out, job.trajectory);

  assert.equal(inspectSavedJob(job, out, expected).kind, "missing");

  await playEpisode({ scenario, ...roles, seed: job.seed, file: path, signal: new AbortController().signal });
  const kept = inspectSavedJob(job, out, expected);
  assert.equal(kept.kind, "complete");
  assert.equal(kept.kind === "complete" ? kept.result.score : null, 1);

  const whole = readFileSync(path, "utf8");
  const lines = whole.split("\n");
  writeFileSync(path, `${lines.slice(0, 3).join("\n")}\n${lines[3]!.slice(0, 10)}`);
  assert.equal(inspectSavedJob(job, out, expected).kind, "incomplete", "a kill mid-line");

  writeFileSync(path, whole.slice(0, 20));
  const cutHeader = inspectSavedJob(job, out, expected);
  assert.deepEqual(cutHeader, { kind: "incomplete", reason: "its header line is cut short" });

  const otherSeed = episodeHeader(scenario, roles.agent, roles.user, job.seed + 1);
  writeFileSync(path, whole);
  const foreign = inspectSavedJob(job, out, otherSeed);
  assert.equal(foreign.kind, "foreign");
  assert.match(foreign.kind === "foreign" ? foreign.reason : "", /seed/);

  const stop = new AbortController();
  stop.abort();
  await playEpisode({ scenario, ...roles, seed: job.seed, file: path, signal: stop.signal });
  const cancelled = inspectSavedJob(job, out, expected);
  assert.deepEqual(cancelled, { kind: "incomplete", reason: "its episode was cancelled" });

  const linked = mkdtempSync(join(tmpdir(), "resume-link-"));
  symlinkSync(path, join(linked, job.trajectory));
  assert.equal(inspectSavedJob(job, linked, expected).kind, "link", "a link is never read as a finished run");
});
