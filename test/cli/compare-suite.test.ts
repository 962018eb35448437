// `toolsandbox compare --suite A B`: two agents' runs folders paired by scenario, trials averaged
// first. The figures are checked against the fixture worked by hand (scores-fixture.ts): B's
// find_temperature trials average 2/3 against A's 1, cellular_off ties at 1.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";
import { playTrial, TRIALS_NAME, TRIALS_SCENARIO, trialsScenario } from "./played-trials.js";
import { writeScoresFixture } from "./scores-fixture.js";

before(requireBuild);
after(removeTempDirs);

test("compare --suite: wins, losses, ties, the mean difference with its paired interval, McNemar and the flipped scenario", () => {
  const dir = writeScoresFixture(tempDir("suites"));
  const r = runCli(["compare", "--suite", join(dir, "scripted"), join(dir, "model-b"), "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const c = JSON.parse(r.stdout) as {
    a: { counted: number; left_out: number };
    b: { counted: number; left_out: number };
    paired: {
      scenarios: number;
      wins: number;
      losses: number;
      ties: number;
      mean_difference: number;
      interval: { low: number; high: number } | null;
      success: { a: number; b: number; only_a: number; only_b: number; p_value: number };
    };
    flipped: { scenario: string; direction: string; file_b: string }[];
  };
  // The damaged, errored and cut-short runs are left out of both sides.
  assert.deepEqual([c.a.counted, c.a.left_out, c.b.counted, c.b.left_out], [6, 1, 6, 2]);
  const p = c.paired;
  assert.deepEqual([p.scenarios, p.wins, p.losses, p.ties], [2, 0, 1, 1]);
  // Differences -1/3 and 0: mean -1/6. Two pairs are too few for a bootstrap interval: none.
  assert.equal(Math.round(p.mean_difference * 1e6) / 1e6, Math.round((-1 / 6) * 1e6) / 1e6);
  assert.equal(p.interval, null);
  // One scenario flipped (to A): the exact McNemar p-value of 1 against 0 is 2 * 1/2 = 1.
  assert.deepEqual([p.success.a, p.success.b, p.success.only_a, p.success.only_b, p.success.p_value], [2, 1, 1, 0, 1]);
  assert.deepEqual(
    c.flipped.map((f) => [f.scenario, f.direction]),
    [["find_temperature_adapted", "to_a"]],
  );
  // The run shown for B is the trial that failed.
  assert.match(c.flipped[0]?.file_b ?? "", /find_temperature_adapted\.trial-3\.trajectory\.jsonl$/);
  const text = lines(runCli(["compare", "--suite", join(dir, "scripted"), join(dir, "model-b")]).stdout);
  assert.ok(text.includes("2 scenarios paired (trials averaged first): B wins 0, loses 1, ties 1"), text.join("\n"));
  assert.ok(text.includes("mean difference B - A -0.167 [n too small] (95% paired bootstrap over scenarios)"));
  assert.ok(text.includes("success (mean score at least 1): A 2, B 1; flipped to B 0, to A 1; exact McNemar p = 1.00"));
});

test("compare --suite refuses a side holding two agents' runs, and a missing B", () => {
  const dir = writeScoresFixture(tempDir("suites-mixed"));
  const mixed = runCli(["compare", "--suite", dir, join(dir, "model-b")]);
  assert.equal(mixed.status, 2);
  assert.match(mixed.stderr, /holds runs of 2 groups .*; give one folder per agent$/m);
  const alone = runCli(["compare", "--suite", dir]);
  assert.equal(alone.status, 2);
  assert.match(alone.stderr, /--suite compares two runs folders/);
});

test("compare --suite refuses a side with another agent's errored run, with or without --errors-as-failures", () => {
  const dir = writeScoresFixture(tempDir("suites-foreign"));
  // model-b's model_error run, copied into the scripted side: foreign whether or not it counts.
  copyFileSync(
    join(dir, "model-b", "find_temperature_adapted.trial-4.trajectory.jsonl"),
    join(dir, "scripted", "foreign.trajectory.jsonl"),
  );
  for (const extra of [[], ["--errors-as-failures"]]) {
    const r = runCli(["compare", "--suite", join(dir, "scripted"), join(dir, "model-b"), ...extra]);
    assert.equal(r.status, 2, `${extra.join(" ")}: ${r.stdout}`);
    assert.match(r.stderr, /scripted holds runs of 2 groups .*; give one folder per agent$/m);
  }
});

/** The trials fixture's scenario with its description reworded: another version under the same name. */
function rewordedScenario(): string {
  const text = readFileSync(TRIALS_SCENARIO, "utf8");
  assert.ok(text.includes("description: Cellular is off;"));
  const file = join(tempDir("suites-edit"), "edited.scenario.yaml");
  writeFileSync(file, text.replace("description: Cellular is off;", "description: The phone's cellular is off;"));
  return file;
}

const headerDigest = (file: string): string =>
  (JSON.parse(readFileSync(file, "utf8").split("\n")[0]!) as { scenario_digest: string }).scenario_digest;

test("compare --suite does not pair a scenario the sides played from different versions, and says which", async () => {
  const dir = tempDir("suites-versions");
  const a = join(dir, "A", `${TRIALS_NAME}.trajectory.jsonl`);
  const b = join(dir, "B", `${TRIALS_NAME}.trajectory.jsonl`);
  await playTrial(a, { agent: "policy-a", seed: 0, policy: "passing" });
  await playTrial(b, { agent: "policy-b", seed: 0, policy: "halfway", scenario: trialsScenario(rewordedScenario()) });
  assert.notEqual(headerDigest(a), headerDigest(b));
  const json = runCli(["compare", "--suite", join(dir, "A"), join(dir, "B"), "--json"]);
  assert.equal(json.status, 0, json.stderr);
  const c = JSON.parse(json.stdout) as { edited: string[]; paired: unknown };
  assert.deepEqual([c.edited, c.paired], [[TRIALS_NAME], null]);
  const text = lines(runCli(["compare", "--suite", join(dir, "A"), join(dir, "B")]).stdout);
  assert.ok(text.includes(`played from different versions of the scenario in A and B (not paired): ${TRIALS_NAME}`), text.join("\n"));
});

test("compare --suite refuses a side holding two versions of a scenario, naming both digests", async () => {
  const dir = tempDir("suites-two-versions");
  const first = join(dir, "A", `${TRIALS_NAME}.trial-1.trajectory.jsonl`);
  const second = join(dir, "A", `${TRIALS_NAME}.trial-2.trajectory.jsonl`);
  await playTrial(first, { agent: "policy-a", seed: 0, policy: "passing" });
  await playTrial(second, { agent: "policy-a", seed: 1, policy: "passing", scenario: trialsScenario(rewordedScenario()) });
  await playTrial(join(dir, "B", `${TRIALS_NAME}.trajectory.jsonl`), { agent: "policy-b", seed: 0, policy: "passing" });
  const r = runCli(["compare", "--suite", join(dir, "A"), join(dir, "B")]);
  assert.equal(r.status, 2);
  assert.deepEqual(lines(r.stderr), [
    `toolsandbox: ${join(dir, "A")} holds runs of 2 versions of scenario ${TRIALS_NAME} (${headerDigest(first)}, ${headerDigest(second)}); give one folder per version`,
  ]);
});
