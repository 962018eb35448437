// `run --agent cmd:'<command line>'`: a program plays each episode over MCP. The fixture agent
// (test/fixtures/agents/reference-agent.mjs) connects with the MCP SDK's client to the endpoint in
// TOOLSANDBOX_MCP_URL and plays the reference; the batch machinery (concurrency, trials, resume)
// works as for any agent, a command that hangs is killed at its time limit, and its output is kept.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { requireBuild, removeTempDirs, runCli, runCliAsync, tempDir } from "../cli/harness.js";
// @ts-expect-error: a plain JavaScript fixture
import { playKey } from "../fixtures/agents/reference-agent.mjs";
import { agentToolNames, loadSample, REFERENCE_AGENT, referencePlay, runKilledAfterFirstEpisode, SAMPLES, sampleFiles } from "./helpers.js";

before(requireBuild);
after(removeTempDirs);

/** Every sample's reference as the fixture looks it up. */
function writePlays(dir: string): string {
  const plays: Record<string, unknown> = {};
  for (const file of sampleFiles()) {
    const scenario = loadSample(file);
    const key = playKey(scenario.user.opening, agentToolNames(scenario)) as string;
    assert.ok(!(key in plays), `two samples share the opening and tools of ${file}`);
    plays[key] = referencePlay(scenario);
  }
  const path = join(dir, "plays.json");
  writeFileSync(path, JSON.stringify(plays));
  return path;
}

const agentFlag = (plays: string): string => `cmd:node '${REFERENCE_AGENT}' '${plays}'`;

interface Summary {
  readonly totals: { readonly failed: number };
  readonly scenarios: readonly {
    readonly name: string;
    readonly trial?: number;
    readonly score: number | null;
    readonly status?: string;
    readonly end_reason: string | null;
    readonly detail: string | null;
    readonly trajectory: string;
  }[];
}
const readSummary = (dir: string): Summary => JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Summary;

test("every sample, 4 at a time, 2 trials: each scores 1.0 with the scripted run's messages and world changes, the agent's output kept beside", () => {
  const dir = tempDir("cmd-all");
  const plays = writePlays(dir);
  const out = join(dir, "out");
  const scripted = join(dir, "scripted");
  const run = runCli([
    "run",
    SAMPLES,
    "--agent",
    agentFlag(plays),
    "--concurrency",
    "4",
    "--trials",
    "2",
    "--batch-window",
    "100",
    "--out",
    out,
  ]);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(runCli(["run", SAMPLES, "--trials", "2", "--out", scripted]).status, 0);
  const summary = readSummary(out);
  assert.equal(summary.scenarios.length, sampleFiles().length * 2);
  assert.equal(summary.totals.failed, 0);
  for (const s of summary.scenarios) {
    assert.equal(s.score, 1, `${s.name} #${s.trial}: score`);
    assert.equal(s.end_reason, "end_conversation");
    const served = readTrajectoryFile(join(out, s.trajectory));
    const reference = readTrajectoryFile(join(scripted, s.trajectory));
    assert.deepEqual(served.messages, reference.messages, `${s.trajectory}: the same messages`);
    assert.deepEqual(
      served.events.filter((e) => e.type === "world"),
      reference.events.filter((e) => e.type === "world"),
      `${s.trajectory}: the same world changes`,
    );
    const stem = s.trajectory.replace(/\.trajectory\.jsonl$/, "");
    assert.match(readFileSync(join(out, `${stem}.agent-stdout.log`), "utf8"), /played \d+ steps: ended/);
    assert.ok(existsSync(join(out, `${stem}.agent-stderr.log`)));
  }
});

test("a command that hangs is killed at its time limit, with its whole process group, and the episode is recorded as timed out", () => {
  const out = tempDir("cmd-hang");
  const started = Date.now();
  const run = runCli([
    "run",
    join(SAMPLES, "cellular_off_adapted.scenario.yaml"),
    "--agent",
    `cmd:node '${REFERENCE_AGENT}' --hang`,
    "--time-limit",
    "2",
    "--out",
    out,
  ]);
  // Not played to its end: exit 1 and counted failed, as a model_error is (docs/cli.md).
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stdout, /, 1 failed, /);
  assert.ok(Date.now() - started < 20_000, "the run did not wait for the command");
  const [result] = readSummary(out).scenarios;
  assert.equal(result?.end_reason, "timed_out");
  assert.equal(result?.status, "errored", "a run ended by its time limit is errored, not scored");
  const trajectory = readTrajectoryFile(join(out, "cellular_off_adapted.trajectory.jsonl"));
  assert.equal(trajectory.end?.reason, "timed_out");
  const pid = Number(/pid (\d+)/.exec(readFileSync(join(out, "cellular_off_adapted.agent-stdout.log"), "utf8"))?.[1]);
  assert.ok(pid > 0, "the command said its pid");
  assert.throws(() => process.kill(pid, 0), /ESRCH/, "the command is gone");
});

test("--resume after the run was killed plays what is left, and every episode scores 1.0", async () => {
  const dir = tempDir("cmd-resume");
  const plays = writePlays(dir);
  const out = join(dir, "out");
  const files = sampleFiles().slice(0, 6);
  const args = ["run", ...files, "--agent", agentFlag(plays), "--concurrency", "2", "--out", out];
  await runKilledAfterFirstEpisode(args, out, files.length);
  const resumed = await runCliAsync([...args, "--resume"]);
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.match(resumed.stderr, /resuming: \d+ of 6 episodes already complete/);
  const summary = readSummary(out);
  assert.equal(summary.scenarios.length, files.length);
  for (const s of summary.scenarios) assert.equal(s.score, 1, `${s.name}: score`);
});

test("a command that cannot be started fails its episode with one line saying so", () => {
  const out = tempDir("cmd-missing");
  const run = runCli([
    "run",
    join(SAMPLES, "cellular_off_adapted.scenario.yaml"),
    "--agent",
    "cmd:/nonexistent/agent --flag",
    "--out",
    out,
  ]);
  assert.equal(run.status, 1, run.stderr);
  const [result] = readSummary(out).scenarios;
  assert.equal(result?.end_reason, "role_error");
  // An infrastructure error: errored, never a score (docs/agents.md).
  assert.equal(result?.status, "errored");
  assert.match(result?.detail ?? "", /could not start \/nonexistent\/agent: spawn \/nonexistent\/agent ENOENT/);
});

test("a command line with an open quote is a usage error", () => {
  const run = runCli(["run", SAMPLES, "--agent", "cmd:node 'agent.mjs", "--out", tempDir("cmd-quote")]);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /^toolsandbox: --agent: cmd:: a single quote is not closed/);
});
