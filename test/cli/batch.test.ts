// `run --concurrency N --trials K`: the files do not depend on N; trials get their own files,
// seeds and pass^k; the category table averages a scenario's trials.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

before(requireBuild);
after(removeTempDirs);

const CELLULAR = "sample-scenarios/cellular_off_adapted.scenario.yaml";

function sameFiles(a: string, b: string): void {
  const files = readdirSync(a).sort();
  assert.deepEqual(readdirSync(b).sort(), files);
  for (const f of files) assert.ok(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), `${f} differs`);
}

test("episodes played 8 at a time write the same bytes as one at a time", () => {
  const sequential = tempDir("seq");
  const parallel = tempDir("par");
  const one = runCli(["run", "sample-scenarios", "--trials", "2", "--out", sequential]);
  assert.equal(one.status, 0, one.stderr);
  const eight = runCli(["run", "sample-scenarios", "--trials", "2", "--concurrency", "8", "--out", parallel]);
  assert.equal(eight.status, 0, eight.stderr);
  const samples = readdirSync("sample-scenarios").filter((f) => f.endsWith(".scenario.yaml")).length;
  assert.equal(readdirSync(parallel).length, samples * 2 + 1);
  sameFiles(sequential, parallel);
  // The result lines may come in another order, but each episode has exactly one.
  const rows = (text: string): string[] =>
    lines(text)
      .slice(1, 1 + samples * 2)
      .sort();
  assert.deepEqual(rows(eight.stdout), rows(one.stdout));
});

/** A copy of the cellular sample whose confirmation its reference does not quite give (it scores below 1). */
function halfScoringScenario(dir: string): string {
  const text = readFileSync(CELLULAR, "utf8")
    .replace("name: cellular_off_adapted", "name: cellular_half")
    .replace("content: Cellular service is now turned off. }", "content: Cellular is off and the sky is green. }");
  const file = join(dir, "cellular_half.scenario.yaml");
  writeFileSync(file, text);
  return file;
}

interface Summary {
  run: { seed: number };
  scenarios: { name: string; trial?: number; score: number; trajectory: string }[];
  categories: { category: string; scenarios: number; score: number }[];
  totals: { scenarios: number };
  trials: {
    per_scenario: number;
    success_threshold: number;
    pass_hat_k: { k: number; value: number }[];
    scenarios: { name: string; scores: number[]; successes: number }[];
  };
}

test("--trials 3 plays each scenario three times with seeds 5, 6, 7 and reports pass^k", () => {
  const dir = tempDir("trials");
  const out = join(dir, "out");
  const half = halfScoringScenario(dir);
  const r = runCli(["run", CELLULAR, half, "--trials", "3", "--seed", "5", "--concurrency", "2", "--out", out]);
  assert.equal(r.status, 0, r.stderr);

  const files = readdirSync(out).sort();
  assert.deepEqual(files, [
    "cellular_half.trial-1.trajectory.jsonl",
    "cellular_half.trial-2.trajectory.jsonl",
    "cellular_half.trial-3.trajectory.jsonl",
    "cellular_off_adapted.trial-1.trajectory.jsonl",
    "cellular_off_adapted.trial-2.trajectory.jsonl",
    "cellular_off_adapted.trial-3.trajectory.jsonl",
    "summary.json",
  ]);
  for (const k of [1, 2, 3])
    assert.equal(readTrajectoryFile(join(out, `cellular_off_adapted.trial-${k}.trajectory.jsonl`)).header.run.seed, 4 + k);

  const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as Summary;
  assert.equal(summary.run.seed, 5);
  const halfScore = summary.scenarios.find((s) => s.name === "cellular_half")?.score ?? 1;
  assert.ok(halfScore > 0 && halfScore < 1, `cellular_half scores ${halfScore}`);
  // Plan order: the scenarios as given, then the trials.
  assert.deepEqual(
    summary.scenarios.map((s) => [s.name, s.trial, s.score, s.trajectory]),
    [1, 2, 3]
      .map((k) => ["cellular_off_adapted", k, 1, `cellular_off_adapted.trial-${k}.trajectory.jsonl`])
      .concat([1, 2, 3].map((k) => ["cellular_half", k, halfScore, `cellular_half.trial-${k}.trajectory.jsonl`])),
  );
  assert.equal(summary.totals.scenarios, 6);
  assert.equal(summary.trials.per_scenario, 3);
  assert.equal(summary.trials.success_threshold, 1);
  assert.deepEqual(summary.trials.scenarios, [
    { name: "cellular_off_adapted", scores: [1, 1, 1], successes: 3 },
    { name: "cellular_half", scores: [halfScore, halfScore, halfScore], successes: 0 },
  ]);
  // One scenario always succeeds, the other never: pass^k is 1/2 for every k.
  assert.deepEqual(summary.trials.pass_hat_k, [
    { k: 1, value: 0.5 },
    { k: 2, value: 0.5 },
    { k: 3, value: 0.5 },
  ]);
  // The category table counts scenarios, each averaged over its trials.
  const all = summary.categories.find((c) => c.category === "ALL_CATEGORIES");
  assert.deepEqual(all && [all.scenarios, all.score], [2, (1 + halfScore) / 2]);

  const stdout = lines(r.stdout);
  assert.ok(
    stdout.some((l) => /^cellular_off_adapted #2 +end_conversation +\d+ +\d+ +1\.00$/.test(l)),
    r.stdout,
  );
  assert.equal(stdout.at(-2), "pass^k over 3 trials, a success scoring 1: pass^1 0.500  pass^2 0.500  pass^3 0.500");
  assert.match(stdout.at(-1)!, /^2 scenarios × 3 trials: 6 episodes, 0 failed, /);
});

test("a single trial keeps the plain file names and has no trials section", () => {
  const out = tempDir("one-trial");
  const r = runCli(["run", CELLULAR, "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(readdirSync(out).sort(), ["cellular_off_adapted.trajectory.jsonl", "summary.json"]);
  const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as Record<string, unknown> & {
    scenarios: Record<string, unknown>[];
  };
  assert.equal("trials" in summary, false);
  assert.equal("trial" in summary.scenarios[0]!, false);
});

test("--concurrency and --trials take positive whole numbers", () => {
  for (const [flag, value] of [
    ["--concurrency", "0"],
    ["--trials", "1.5"],
    ["--trials", "-2"],
  ] as const) {
    const r = runCli(["run", CELLULAR, flag, value, "--out", tempDir("bad-count")]);
    assert.equal(r.status, 2, `${flag} ${value}`);
    assert.match(r.stderr, new RegExp(`^toolsandbox: ${flag}: .* must be a whole number from 1 to \\d+, got "${value}"`));
  }
});
