// Done-when of issue 17's role play: a scenario whose agent has a persona, run with the agent and
// the judge played by mock-llm over HTTP through the real openai client. The trajectory ends with
// the judgement (the rubric verbatim, a score and reason per criterion); `eval` and `replay` print
// it and `eval --json` includes it. A judge that cannot be reached is a recorded failure, not a
// crash, and the judge's options are refused where they cannot apply.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { ROLE_PLAY_CRITERIA, ROLE_PLAY_RUBRIC } from "../../engine/benchmarks/dialogtool/role-play/rubric.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { requireBuild, removeTempDirs, runCli, runCliAsync as cli, tempDir } from "./harness.js";

const PERSONA_SCENARIO = "test/fixtures/role-play/cellular_off_persona.scenario.yaml";
const PLAIN_SCENARIO = "sample-scenarios/cellular_off_adapted.scenario.yaml";

let mock: MockLlm;

before(async () => {
  requireBuild();
  const scenarios = [PERSONA_SCENARIO, PLAIN_SCENARIO].map((f): Scenario => {
    const { scenario } = loadScenarioFile(f);
    assert.ok(scenario, f);
    return scenario;
  });
  mock = await startMockLlm({ scenarios });
});

after(async () => {
  await mock.close();
  removeTempDirs();
});

const base = (): string[] => ["--agent", "openai:mock", "--base-url", `${mock.url}/v1`];

test("run --judge: the judgement is the trajectory's last line, with the rubric and the reasons; eval and replay show it", async () => {
  const out = tempDir("role-play");
  const before = mock.requests.length;
  const run = await cli(["run", PERSONA_SCENARIO, PLAIN_SCENARIO, ...base(), "--judge", "openai:mock", "--out", out]);
  assert.equal(run.status, 0, run.stderr);
  const judged = mock.requests.slice(before).filter((r) => r.side === "judge");
  assert.equal(judged.length, 1, "only the scenario with a persona is judged");

  const file = join(out, "cellular_off_persona.trajectory.jsonl");
  const t = readTrajectoryFile(file);
  assert.equal(t.header.scenario.agent.persona?.name, "Captain Nova");
  assert.match(t.messages[0]!.content, /you are Captain Nova/, "the agent was told its persona");
  const j = t.judgement;
  assert.ok(j, "the trajectory has a judgement");
  // The overall score is a column of summary.json (the judged scenario only) and of `report`.
  const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as {
    scenarios: { name: string; role_play?: number | null }[];
  };
  assert.deepEqual(
    summary.scenarios.map((s) => [s.name, s.role_play]),
    [
      ["cellular_off_persona", j.overall],
      [summary.scenarios[1]?.name, undefined],
    ],
  );
  const report = await cli(["report", out]);
  assert.equal(report.status, 0, report.stderr);
  assert.match(report.stdout, /ROLE PLAY/);
  assert.match(
    report.stdout.split("\n").find((l) => l.startsWith("cellular_off_persona ")) ?? "",
    new RegExp(` ${j.overall?.toFixed(2)} `),
  );
  assert.equal(j.rubric, ROLE_PLAY_RUBRIC);
  assert.equal(j.judge, "openai:mock");
  assert.equal(j.settings.base_url, `${mock.url}/v1`);
  assert.deepEqual(
    j.criteria.map((c) => c.id),
    ROLE_PLAY_CRITERIA.map((c) => c.id),
  );
  assert.deepEqual(j.criteria[0], { id: "identity", score: 5, reason: "Reply 1 names the persona, Captain Nova." });
  assert.equal(j.overall, 5);
  assert.equal(j.call?.attempts, 1);
  assert.ok(t.evaluation, "the evaluation is still there, before the judgement");
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  assert.match(lines.at(-1)!, /^\{"type":"judgement"/);
  assert.equal(readTrajectoryFile(join(out, "cellular_off_adapted.trajectory.jsonl")).judgement, null);

  const evalText = runCli(["eval", file]);
  assert.equal(evalText.status, 0, evalText.stderr);
  assert.match(evalText.stdout, /role play {2}judged by openai:mock: 5\.00 of 5/);
  assert.match(evalText.stdout, /identity +5 +Reply 1 names the persona, Captain Nova\./);
  const json = JSON.parse(runCli(["eval", file, "--json"]).stdout) as {
    trajectories: { judgement?: { criteria: unknown[]; rubric: string } }[];
  };
  assert.equal(json.trajectories[0]!.judgement?.rubric, ROLE_PLAY_RUBRIC);
  assert.equal(json.trajectories[0]!.judgement?.criteria.length, ROLE_PLAY_CRITERIA.length);
  const replay = runCli(["replay", file]);
  assert.equal(replay.status, 0, replay.stderr);
  assert.match(replay.stdout, /mbti_style +5 +mock-llm does not rate this criterion/);
});

test("a judge that cannot be reached leaves a judgement with a one-line failure, and the run still succeeds", async () => {
  const out = tempDir("role-play-down");
  const run = await cli([
    "run",
    PERSONA_SCENARIO,
    ...base(),
    "--judge",
    "openai:mock",
    "--judge-base-url",
    "http://127.0.0.1:9/v1",
    "--max-retries",
    "0",
    "--out",
    out,
  ]);
  assert.equal(run.status, 0, run.stderr);
  const j = readTrajectoryFile(join(out, "cellular_off_persona.trajectory.jsonl")).judgement;
  assert.ok(j);
  assert.match(j.failure ?? "", /^judge openai:mock: cannot reach http:\/\/127\.0\.0\.1:9\/v1 \(1 attempt\)/);
  assert.deepEqual(j.criteria, []);
  assert.equal(j.overall, null);
  assert.match(
    runCli(["eval", join(out, "cellular_off_persona.trajectory.jsonl")]).stdout,
    /judged by openai:mock: no verdict: judge openai:mock: cannot reach/,
  );
});

test("the judge's options are usage errors where they cannot apply", () => {
  const out = tempDir("role-play-usage");
  const stray = runCli(["run", PERSONA_SCENARIO, "--judge-seed", "3", "--out", out]);
  assert.equal(stray.status, 2);
  assert.match(stray.stderr, /--judge-seed applies with --judge openai:<model> only/);
  const mode = runCli([
    "run",
    PERSONA_SCENARIO,
    "--mode",
    "dialogtool",
    "--judge",
    "openai:mock",
    "--base-url",
    "http://127.0.0.1:9/v1",
    "--out",
    out,
  ]);
  assert.equal(mode.status, 2);
  assert.match(mode.stderr, /--judge applies to --mode milestone only/);
  const bad = runCli(["run", PERSONA_SCENARIO, "--judge", "scripted", "--out", out]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unsupported judge "scripted"/);
});

test("--resume with a judge plays again an episode of a persona scenario that has no judgement yet", async () => {
  const out = tempDir("role-play-resume");
  const first = await cli(["run", PERSONA_SCENARIO, ...base(), "--out", out]);
  assert.equal(first.status, 0, first.stderr);
  assert.equal(readTrajectoryFile(join(out, "cellular_off_persona.trajectory.jsonl")).judgement, null);
  const resumed = await cli(["run", PERSONA_SCENARIO, ...base(), "--judge", "openai:mock", "--resume", "--out", out]);
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.equal(readTrajectoryFile(join(out, "cellular_off_persona.trajectory.jsonl")).judgement?.overall, 5);
});

test("the judge's calls are retried like the other roles': a 500 on its first request, then the verdict (attempts 2)", async () => {
  const { scenario } = loadScenarioFile(PERSONA_SCENARIO);
  assert.ok(scenario);
  const flaky = await startMockLlm({ scenarios: [scenario], faults: [{ kind: "server-error", role: "judge", first: 1 }] });
  try {
    const out = tempDir("role-play-retry");
    const run = await cli([
      "run",
      PERSONA_SCENARIO,
      "--agent",
      "openai:mock",
      "--base-url",
      `${flaky.url}/v1`,
      "--judge",
      "openai:mock",
      "--out",
      out,
    ]);
    assert.equal(run.status, 0, run.stderr);
    const j = readTrajectoryFile(join(out, "cellular_off_persona.trajectory.jsonl")).judgement;
    assert.equal(j?.overall, 5);
    assert.equal(j?.call?.attempts, 2);
    assert.deepEqual(
      flaky.requests.filter((r) => r.side === "judge").map((r) => r.status),
      [500, 200],
    );
  } finally {
    await flaky.close();
  }
});

test("run --judge --cache: a second run is judged from the cache, without a request, with the same verdict", async () => {
  const root = tempDir("role-play-cache");
  const cache = join(root, "cache");
  const run = (out: string) =>
    cli(["run", PERSONA_SCENARIO, ...base(), "--judge", "openai:mock", "--cache", cache, "--out", join(root, out)], {
      OPENAI_API_KEY: "test-key",
    });
  const before = mock.requests.length;
  const first = await run("first");
  assert.equal(first.status, 0, first.stderr);
  const paid = mock.requests.slice(before);
  assert.equal(paid.filter((r) => r.side === "judge").length, 1, "the first run asked the judge");
  const second = await run("second");
  assert.equal(second.status, 0, second.stderr);
  assert.equal(mock.requests.length, before + paid.length, "the second run sent nothing, the judge's call included");
  const judgement = (dir: string) => readTrajectoryFile(join(root, dir, "cellular_off_persona.trajectory.jsonl")).judgement;
  const [a, b] = [judgement("first"), judgement("second")];
  assert.ok(a && b);
  assert.deepEqual(b.criteria, a.criteria);
  assert.equal(b.overall, a.overall);
  assert.ok(b.call?.cached, "the judge's call is recorded as answered from the cache");
});
