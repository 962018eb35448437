// Batch runs with both roles model-backed, answered by the mock server with latency, so that
// episodes really overlap (waiting on the network) and are in flight when a signal arrives:
// the files do not depend on --concurrency; Ctrl-C (SIGINT) cancels the running episodes, which
// still close their trajectories, writes the summary and exits 130; `kill -9` leaves episodes
// cut short, and `--resume` completes the run with exactly one complete trajectory per scenario.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { requireBuild, CLI, removeTempDirs, tempDir } from "./harness.js";

const SAMPLES = "sample-scenarios";
const LATENCY_MS = 100;

const sampleFiles = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".scenario.yaml"))
  .sort();
const names = sampleFiles.map((f) => f.slice(0, -".scenario.yaml".length));

let mock: MockLlm;
/** Answers after 5 ms, or 40 ms for a seeded third of the requests, so episodes finish out of order. */
let unevenMock: MockLlm;

before(async () => {
  requireBuild();
  const scenarios = sampleFiles.map((f): Scenario => {
    const { scenario } = loadScenarioFile(join(SAMPLES, f));
    assert.ok(scenario, f);
    return scenario;
  });
  mock = await startMockLlm({ scenarios, faults: [{ kind: "latency", ms: LATENCY_MS }] });
  unevenMock = await startMockLlm({
    scenarios,
    faults: [
      { kind: "latency", ms: 5 },
      { kind: "latency", ms: 35, rate: 0.3, seed: 1 },
    ],
  });
});

after(async () => {
  await Promise.all([mock.close(), unevenMock.close()]);
  removeTempDirs();
});

interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface RunSetup {
  readonly extra?: readonly string[];
  readonly server?: MockLlm;
  /** Scenario files or directories; all the samples by default. */
  readonly paths?: readonly string[];
}

/** Starts `toolsandbox run` with both roles played by the mock server's models, 4 at a time unless `extra` says otherwise. */
function startRun(out: string, setup: RunSetup = {}): { kill(signal: NodeJS.Signals): void; finished: Promise<Finished> } {
  const { extra = [], server = mock, paths = [SAMPLES] } = setup;
  const roles = ["--agent", "openai:mock", "--user", "openai:mock", "--base-url", `${server.url}/v1`];
  const args = ["run", ...paths, ...roles, "--concurrency", "4", "--out", out, ...extra];
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? "", OPENAI_API_KEY: "test-key" } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const finished = new Promise<Finished>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { kill: (signal) => void child.kill(signal), finished };
}

const trajectories = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".trajectory.jsonl"))
    .sort();

/** Resolves once `condition` holds; polls every 20 ms, fails after `ms`. */
async function waitUntil(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const isComplete = (path: string): boolean => {
  try {
    const t = readTrajectoryFile(path);
    return t.warnings.length === 0 && t.end !== null && t.evaluation !== null;
  } catch {
    return false;
  }
};

interface Summary {
  scenarios: { name: string; end_reason: string; trajectory: string }[];
  totals: { scenarios: number };
  interrupted?: { episodes_not_started: number };
}

const readSummary = (dir: string): Summary => JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Summary;

/** Every sample has exactly one trajectory, complete and ended by the user; the summary lists each once, in order. */
function assertComplete(out: string): void {
  assert.deepEqual(readdirSync(out).sort(), [...names.map((n) => `${n}.trajectory.jsonl`), "summary.json"].sort());
  for (const f of trajectories(out)) {
    const t = readTrajectoryFile(join(out, f));
    assert.deepEqual(t.warnings, [], f);
    assert.equal(t.endReason, "end_conversation", f);
    assert.ok(t.evaluation, `${f} has its evaluation`);
  }
  const summary = readSummary(out);
  assert.deepEqual(
    summary.scenarios.map((s) => s.name),
    names,
  );
  assert.equal(summary.totals.scenarios, names.length);
  assert.equal(summary.interrupted, undefined);
}

/**
 * A file's text without what the clock decides: model_call lines (latency, and request ids the
 * mock numbers in arrival order) and the summary's telemetry sums. Everything else must match.
 */
function withoutTelemetry(file: string, text: string): string {
  if (file.endsWith(".trajectory.jsonl"))
    return text
      .split("\n")
      .filter((line) => !line.startsWith('{"type":"model_call"'))
      .join("\n");
  const summary = JSON.parse(text) as { scenarios: { telemetry?: unknown }[]; totals: { telemetry?: unknown } };
  for (const s of summary.scenarios) {
    assert.ok(s.telemetry, "each model-backed episode has its telemetry");
    delete s.telemetry;
  }
  assert.ok(summary.totals.telemetry, "the run has its telemetry totals");
  delete summary.totals.telemetry;
  return JSON.stringify(summary);
}

test("model-backed episodes played 8 at a time write the same bytes as one at a time (telemetry aside)", async () => {
  const sequential = tempDir("models-seq");
  const parallel = tempDir("models-par");
  const paths = sampleFiles.slice(0, 12).map((f) => join(SAMPLES, f));
  const one = await startRun(sequential, { extra: ["--concurrency", "1"], server: unevenMock, paths }).finished;
  assert.equal(one.code, 0, one.stderr);
  const eight = await startRun(parallel, { extra: ["--concurrency", "8"], server: unevenMock, paths }).finished;
  assert.equal(eight.code, 0, eight.stderr);
  const files = readdirSync(sequential).sort();
  assert.equal(files.length, 13);
  assert.deepEqual(readdirSync(parallel).sort(), files);
  for (const f of files) {
    const [a, b] = [sequential, parallel].map((dir) => readFileSync(join(dir, f), "utf8"));
    assert.ok(a!.includes("latency_ms"), `${f} records telemetry`);
    assert.equal(withoutTelemetry(f, a!), withoutTelemetry(f, b!), `${f} differs`);
  }
});

test("kill -9 in the middle of a run, then --resume: one complete trajectory per scenario, no duplicate, no corrupt file", async () => {
  const out = tempDir("kill9");
  const first = startRun(out);
  await waitUntil(() => trajectories(out).filter((f) => isComplete(join(out, f))).length >= 6, 60_000, "6 complete trajectories");
  first.kill("SIGKILL");
  const killed = await first.finished;
  assert.equal(killed.signal, "SIGKILL");

  const left = trajectories(out);
  const complete = left.filter((f) => isComplete(join(out, f)));
  const unfinished = left.filter((f) => !complete.includes(f));
  assert.ok(unfinished.length >= 1, `episodes were in flight at the kill (${left.length} files, ${complete.length} complete)`);
  assert.ok(left.length < names.length, "the run was stopped before its end");
  const kept = new Map(complete.map((f) => [f, readFileSync(join(out, f))]));

  const resumed = await startRun(out, { extra: ["--resume", "--concurrency", "8"] }).finished;
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(
    resumed.stderr,
    new RegExp(
      `resuming: ${complete.length} of ${names.length} episodes already complete, ${names.length - complete.length} to play \\(${unfinished.length} of them unfinished`,
    ),
  );
  assertComplete(out);
  for (const [f, bytes] of kept) assert.ok(readFileSync(join(out, f)).equals(bytes), `${f} was kept as it was`);
  // Only the episodes that were not complete were played (one result line each).
  const played = resumed.stdout.split("\n").filter((l) => / end_conversation /.test(l)).length;
  assert.equal(played, names.length - complete.length);
});

test("Ctrl-C cancels the episodes in flight, closes their trajectories, writes the summary and exits 130", async () => {
  const out = tempDir("sigint");
  const run = startRun(out);
  await waitUntil(() => trajectories(out).filter((f) => isComplete(join(out, f))).length >= 4, 60_000, "4 complete trajectories");
  run.kill("SIGINT");
  const stopped = await run.finished;
  assert.equal(stopped.code, 130, stopped.stderr);

  const last = stopped.stderr.trimEnd().split("\n").at(-1) ?? "";
  const counts = /^toolsandbox: interrupted: (\d+) of (\d+) episodes finished, (\d+) cancelled, (\d+) not started$/.exec(last);
  assert.ok(counts, last);
  const [finished, total, cancelled, notStarted] = counts.slice(1).map(Number) as [number, number, number, number];
  assert.equal(total, names.length);
  assert.ok(cancelled >= 1, "the episodes in flight were cancelled");
  assert.ok(notStarted >= 1, "no new episode started after Ctrl-C");
  assert.equal(finished + cancelled + notStarted, total);

  const summary = readSummary(out);
  assert.deepEqual(summary.interrupted, { episodes_not_started: notStarted });
  assert.equal(summary.scenarios.length, finished + cancelled);
  assert.deepEqual(trajectories(out), summary.scenarios.map((s) => s.trajectory).sort());
  for (const s of summary.scenarios) {
    // Every trajectory, cancelled or not, is closed: its end event, then its evaluation.
    const t = readTrajectoryFile(join(out, s.trajectory));
    assert.deepEqual(t.warnings, [], s.trajectory);
    assert.equal(t.endReason, s.end_reason, s.trajectory);
    assert.ok(t.evaluation, `${s.trajectory} has its evaluation`);
  }
  assert.equal(summary.scenarios.filter((s) => s.end_reason === "cancelled").length, cancelled);

  // --resume plays the cancelled and the never-started episodes.
  const resumed = await startRun(out, { extra: ["--resume", "--concurrency", "8"] }).finished;
  assert.equal(resumed.code, 0, resumed.stderr);
  assertComplete(out);
});

test("SIGTERM stops a run the same way as Ctrl-C", async () => {
  const out = tempDir("sigterm");
  const run = startRun(out);
  await waitUntil(() => trajectories(out).filter((f) => isComplete(join(out, f))).length >= 2, 60_000, "2 complete trajectories");
  run.kill("SIGTERM");
  const stopped = await run.finished;
  assert.equal(stopped.code, 130, stopped.stderr);
  const summary = readSummary(out);
  assert.ok(summary.interrupted && summary.interrupted.episodes_not_started > 0);
  assert.ok(summary.scenarios.some((s) => s.end_reason === "cancelled"));
  for (const f of trajectories(out)) assert.ok(isComplete(join(out, f)), `${f} is closed`);
});
