// Suites at scale (issue 29) through the real CLI: shards that merge into the unsharded summary,
// a cache that answers a second run without a single request, a damaged cache entry that is only
// a miss, and `--concurrency auto` backing off on an endpoint's 429s and still finishing every episode.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { after, before, test } from "node:test";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { requireBuild, removeTempDirs, runCli, runCliAsync, tempDir } from "./harness.js";

const SAMPLES = "sample-scenarios";
const sampleFiles = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".scenario.yaml"))
  .sort();
const FEW = sampleFiles.slice(0, 6).map((f) => join(SAMPLES, f));
let scenarios: Scenario[];

before(() => {
  requireBuild();
  scenarios = sampleFiles.map((f) => {
    const { scenario } = loadScenarioFile(join(SAMPLES, f));
    assert.ok(scenario, f);
    return scenario;
  });
});
after(removeTempDirs);

interface Summary {
  scenarios: {
    name: string;
    trial?: number;
    trajectory: string;
    plan_index?: number;
    failed?: boolean;
    telemetry?: Record<string, number>;
  }[];
  totals: { scenarios: number; telemetry?: Record<string, number> };
  shard?: { index: number; count: number };
}
const readSummary = (dir: string): Summary => JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Summary;
/** The summary with each trajectory named by its file alone (shards and the merge live in other folders). */
const comparable = (s: Summary): string =>
  JSON.stringify({ ...s, scenarios: s.scenarios.map((r) => ({ ...r, trajectory: basename(r.trajectory) })) });

test("four shards and their merge give the unsharded run's summary, scenario by scenario", () => {
  const root = tempDir("shards");
  const whole = runCli(["run", SAMPLES, "--trials", "2", "--out", join(root, "whole")]);
  assert.equal(whole.status, 0, whole.stderr);
  const played = new Set<string>();
  for (let i = 1; i <= 4; i++) {
    const part = runCli(["run", SAMPLES, "--trials", "2", "--shard", `${i}/4`, "--out", join(root, `part${i}`)]);
    assert.equal(part.status, 0, part.stderr);
    const summary = readSummary(join(root, `part${i}`));
    assert.deepEqual(summary.shard, { index: i, count: 4 });
    for (const s of summary.scenarios) {
      assert.ok(!played.has(s.trajectory), `${s.trajectory} played by two shards`);
      played.add(s.trajectory);
    }
  }
  assert.equal(played.size, sampleFiles.length * 2, "every episode played by exactly one shard");
  const merge = runCli(["report", "--merge", ...[1, 2, 3, 4].map((i) => join(root, `part${i}`)), "--out", join(root, "merged")]);
  assert.equal(merge.status, 0, merge.stderr);
  assert.match(merge.stdout, /4 shards, 58 episodes, 0 failed/);
  const merged = readSummary(join(root, "merged"));
  assert.equal(comparable(merged), comparable(readSummary(join(root, "whole"))));
  assert.equal(merged.shard, undefined);
  assert.ok(merged.scenarios.every((s) => s.plan_index === undefined));
  // Its trajectory paths lead from the merged folder to the shards' files.
  for (const s of merged.scenarios) assert.ok(readFileSync(join(root, "merged", s.trajectory), "utf8").length > 0, s.trajectory);
});

test("a merge with a shard missing or given twice merges nothing and says which", () => {
  const root = tempDir("shards-missing");
  for (const i of [1, 3]) assert.equal(runCli(["run", ...FEW, "--shard", `${i}/3`, "--out", join(root, `p${i}`)]).status, 0);
  const missing = runCli(["report", "--merge", join(root, "p1"), join(root, "p3"), "--out", join(root, "m")]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /missing shard 2\/3/);
  const twice = runCli(["report", "--merge", join(root, "p1"), join(root, "p1"), "--out", join(root, "m")]);
  assert.equal(twice.status, 1);
  assert.match(twice.stderr, /shard 1\/3 is also/);
  const plain = runCli(["run", ...FEW, "--out", join(root, "plain")]);
  assert.equal(plain.status, 0);
  const notShard = runCli(["report", "--merge", join(root, "plain"), "--out", join(root, "m")]);
  assert.equal(notShard.status, 1);
  assert.match(notShard.stderr, /not a shard's/);
  assert.equal(runCli(["run", ...FEW, "--shard", "5/4", "--out", join(root, "bad")]).status, 2);
});

/** Strips what legitimately differs between two plays of one episode: the calls' telemetry. */
function withoutTelemetry(text: string): string {
  return text
    .split("\n")
    .filter((line) => !line.startsWith('{"type":"model_call"'))
    .join("\n");
}

test("with --cache, a second run makes no request and writes the same trajectories; a damaged entry is a miss", async () => {
  const mock: MockLlm = await startMockLlm({ scenarios });
  try {
    const root = tempDir("cache");
    const cache = join(root, "cache");
    const run = (out: string) =>
      runCliAsync(
        [
          "run",
          ...FEW,
          "--agent",
          "openai:mock",
          "--user",
          "openai:mock",
          "--base-url",
          `${mock.url}/v1`,
          "--trials",
          "2",
          "--cache",
          cache,
          "--out",
          join(root, out),
        ],
        { OPENAI_API_KEY: "test-key" },
      );
    const first = await run("first");
    assert.equal(first.status, 0, first.stderr);
    const paid = mock.requests.length;
    assert.ok(paid > 0);
    assert.match(first.stdout, /0 model calls answered from it/);
    const second = await run("second");
    assert.equal(second.status, 0, second.stderr);
    assert.equal(mock.requests.length, paid, "the second run sent nothing");
    for (const f of readdirSync(join(root, "first")).filter((n) => n.endsWith(".trajectory.jsonl"))) {
      const a = readFileSync(join(root, "first", f), "utf8");
      const b = readFileSync(join(root, "second", f), "utf8");
      assert.equal(withoutTelemetry(b), withoutTelemetry(a), f);
      assert.match(b, /"cached":\{"usage"/, `${f} records its calls as cached`);
    }
    const totals = readSummary(join(root, "second")).totals.telemetry;
    assert.equal(totals?.calls, 0);
    assert.equal(totals?.cached_calls, paid);
    assert.ok((totals?.saved_tokens ?? 0) > 0);
    assert.match(second.stdout, new RegExp(`${paid} model calls answered from it`));

    // Trials share no answers: trial 2's requests are the same text as trial 1's, yet were paid for.
    assert.equal(readdirSync(cache, { recursive: true }).filter((n) => String(n).endsWith(".json")).length, paid);

    // Damage one entry: that one call is asked again, the rest come from the cache.
    const entries = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    const victim = entries[0];
    assert.ok(victim);
    writeFileSync(join(victim.parentPath, victim.name), '{"format":"toolsandbox-call-cache","vers');
    const third = await run("third");
    assert.equal(third.status, 0, third.stderr);
    assert.equal(mock.requests.length, paid + 1, "exactly the damaged entry's call was sent again");
  } finally {
    await mock.close();
  }
});

// How the limit backs off and recovers is the limiter's own test (test/roles/openai/endpoint-limiter.test.ts);
// here, through the CLI, that an endpoint refusing part of the requests costs no episode.
test("--concurrency auto absorbs an endpoint's 429s: the endpoint refuses, yet every episode completes", async () => {
  const mock = await startMockLlm({ scenarios, rateLimit: { perSecond: 40 } });
  try {
    const out = tempDir("auto");
    const result = await runCliAsync(
      [
        "run",
        SAMPLES,
        "--agent",
        "openai:mock",
        "--user",
        "openai:mock",
        "--base-url",
        `${mock.url}/v1`,
        "--concurrency",
        "auto:64",
        "--max-retries",
        "8",
        "--out",
        out,
      ],
      { OPENAI_API_KEY: "test-key" },
    );
    assert.equal(result.status, 0, result.stderr);
    const summary = readSummary(out);
    assert.equal(summary.totals.scenarios, sampleFiles.length);
    const refused = mock.requests.filter((r) => r.status === 429).length;
    const answered = mock.requests.filter((r) => r.status === 200).length;
    assert.ok(answered > 0);
    assert.ok(refused > 0, "the rate limit was reached");
    assert.equal(summary.scenarios.filter((r) => r.failed).length, 0, `${refused} refused, ${answered} answered: no episode may fail`);
  } finally {
    await mock.close();
  }
});

test("--concurrency takes N or auto[:MAX], and the scale-out options are refused outside milestone mode", () => {
  const out = tempDir("usage");
  const bad = runCli(["run", ...FEW, "--concurrency", "auto:0", "--out", out]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /auto:MAX takes a MAX from 1 to 1024/);
  const mode = runCli(["run", ...FEW, "--mode", "dialogtool", "--cache", out, "--out", out]);
  assert.equal(mode.status, 2);
  assert.match(mode.stderr, /--cache applies to --mode milestone only/);
  const scripted = runCli(["run", ...FEW, "--concurrency", "auto", "--out", join(out, "s")]);
  assert.equal(scripted.status, 0, scripted.stderr);
});
