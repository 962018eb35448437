// `eval` over several runs adds them up as `report` does (engine/reports/trial-groups.ts): per
// agent, never pooled; each scenario counted once with its trials folded; a byte-identical copy
// counted once with a note; runs of an edited scenario kept apart and named. Every trial here is a
// real run played through the runner with its own seed (played-trials.ts).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";
import { playTrial, TRIALS_NAME, TRIALS_SCENARIO, trialsScenario, type POLICIES } from "./played-trials.js";

before(requireBuild);
after(removeTempDirs);

interface GroupJson {
  key: string;
  agent: string;
  trajectories: number;
  counted: number;
  scenarios: number;
  score: number | null;
  categories: { category: string; scenarios: number; score: number }[];
  pass_hat_k: { tasks: { task: string; trials: number; successes: number }[]; pass_hat_k: { k: number; value: number }[] } | null;
}
interface EvalJson {
  trajectories: { file: string; group: string; scenario_digest: string; copy_of: string | null; score: number }[];
  groups: GroupJson[];
  duplicates: { file: string; copy_of: string }[];
  notes: string[];
}

function evalJson(args: readonly string[]): EvalJson {
  const r = runCli(["eval", "--json", ...args]);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as EvalJson;
}

function evalText(args: readonly string[]): string[] {
  const r = runCli(["eval", ...args]);
  assert.equal(r.status, 0, r.stderr);
  return lines(r.stdout);
}

/** Plays the trials into `dir`, trial k with seed k - 1 (as `run --trials` seeds them). */
async function playTrials(
  dir: string,
  agent: string,
  policies: readonly (keyof typeof POLICIES)[],
  scenario = trialsScenario(),
): Promise<string[]> {
  const files: string[] = [];
  for (const [k, policy] of policies.entries()) {
    const file = join(dir, `${scenario.name}.trial-${k + 1}.trajectory.jsonl`);
    await playTrial(file, { agent, seed: k, policy, scenario });
    files.push(file);
  }
  return files;
}

/** The fixture scenario with one text replaced, as a new file. */
function editedScenario(from: string, to: string): string {
  const text = readFileSync(TRIALS_SCENARIO, "utf8");
  assert.ok(text.includes(from), `the fixture no longer contains ${from}`);
  const file = join(tempDir("edit"), "edited.scenario.yaml");
  writeFileSync(file, text.replace(from, to));
  return file;
}

const passHatKValues = (g: GroupJson | undefined): number[] | undefined => g?.pass_hat_k?.pass_hat_k.map((p) => p.value);

test("two agents' folders give one group each, never one pooled pass^k", async () => {
  const root = tempDir("two-agents");
  await playTrials(join(root, "A"), "policy-a", ["passing", "passing"]);
  await playTrials(join(root, "B"), "policy-b", ["halfway", "halfway"]);
  const json = evalJson([join(root, "A"), join(root, "B")]);
  assert.deepEqual(
    json.groups.map((g) => [g.agent, g.trajectories, g.scenarios, g.score]),
    [
      ["policy-a", 2, 1, 1],
      ["policy-b", 2, 1, 0.5],
    ],
  );
  // Pooled, the four trials would give pass^1 0.5 and pass^2 1/6, which describes neither agent.
  assert.deepEqual(passHatKValues(json.groups[0]), [1, 1]);
  assert.deepEqual(passHatKValues(json.groups[1]), [0, 0]);
  assert.deepEqual(
    json.trajectories.map((t) => t.group),
    [...Array(2).fill(json.groups[0]!.key), ...Array(2).fill(json.groups[1]!.key)],
  );

  const out = evalText([join(root, "A"), join(root, "B")]);
  const keyA = out.indexOf("agent policy-a · user queued · prompts own · augmentation none");
  const keyB = out.indexOf("agent policy-b · user queued · prompts own · augmentation none");
  assert.ok(keyA > 0 && keyB > keyA, out.join("\n"));
  assert.deepEqual(
    out.filter((l) => /^ {2}pass\^1 /.test(l)),
    ["  pass^1 1.000  pass^2 1.000", "  pass^1 0.000  pass^2 0.000"],
  );
  assert.ok(out.slice(keyA, keyB).includes("  2 of 2 trajectories counted, 1 scenario, mean score 1.00 [n too small]"));
  assert.ok(out.slice(keyB).includes("  2 of 2 trajectories counted, 1 scenario, mean score 0.50 [n too small]"));
});

test("the category table counts scenarios, each with its trials folded into one mean", async () => {
  const dir = tempDir("folded");
  // Three trials of one scenario (1, 1, 0.5) and one trial of another of the same categories (1).
  await playTrials(dir, "queued", ["passing", "passing", "halfway"]);
  const other = trialsScenario(editedScenario(`name: ${TRIALS_NAME}`, "name: text_again"));
  await playTrials(dir, "queued", ["passing"], other);
  const [group, ...rest] = evalJson([dir]).groups;
  assert.equal(rest.length, 0);
  // Per scenario: (1 + 1 + 0.5) / 3 and 1; their mean is 11/12, where the mean over trials would be 3.5/4.
  assert.deepEqual([group?.trajectories, group?.counted, group?.scenarios], [4, 4, 2]);
  assert.equal(group?.score, (2.5 / 3 + 1) / 2);
  const all = group?.categories.find((c) => c.category === "ALL_CATEGORIES");
  assert.deepEqual([all?.scenarios, all?.score], [2, (2.5 / 3 + 1) / 2]);
  assert.deepEqual(
    group?.categories.map((c) => c.scenarios),
    group?.categories.map(() => 2),
  );

  const out = evalText([dir]);
  const table = out.findIndex((l) => /^ {2}CATEGORY +SCENARIOS +SCORE +95% CI +TURNS$/.test(l));
  assert.ok(table > 0, out.join("\n"));
  assert.deepEqual(out[table + 4]?.split(/ +/), ["", "ALL_CATEGORIES", "2", "0.92", "[n", "too", "small]", "4.7"]);
  assert.equal(out[table + 5], "  4 of 4 trajectories counted, 2 scenarios, mean score 0.92 [n too small]");
});

test("a byte-identical copy of a trajectory counts once, with a note naming it, as report says", async () => {
  const dir = tempDir("copies");
  const [first, second] = await playTrials(dir, "queued", ["passing", "halfway"]);
  const copy = join(dir, "zz-copy.trajectory.jsonl");
  copyFileSync(second!, copy);
  const json = evalJson([dir]);
  assert.deepEqual(json.duplicates, [{ file: copy, copy_of: second }]);
  assert.deepEqual(
    json.trajectories.map((t) => [t.file, t.copy_of]),
    [
      [first, null],
      [second, null],
      [copy, second],
    ],
  );
  // Two trials (1 and 0.5), not three: the copy is the same run.
  assert.deepEqual(json.groups[0]?.pass_hat_k?.tasks, [{ task: TRIALS_NAME, trials: 2, successes: 1 }]);
  assert.deepEqual([json.groups[0]?.trajectories, json.groups[0]?.score], [2, 0.75]);
  const note = `1 file is a byte-identical copy of another run, counted once: ${copy} (copy of ${second})`;
  assert.deepEqual(json.notes, [note]);

  const out = evalText([dir]);
  assert.ok(out.includes(`note: ${note}`), out.join("\n"));
  assert.ok(out.includes(`  copy of ${second}: the same run, counted once`), out.join("\n"));
  // `report` reads the same folder the same way.
  const report = JSON.parse(runCli(["report", "--json", dir]).stdout) as { report: { notes: string[] } };
  assert.deepEqual(report.report.notes, json.notes);
});

test("runs of an edited scenario are a scenario of their own, named by the digest in their header", async () => {
  const dir = tempDir("edited");
  const original = await playTrials(join(dir, "v1"), "queued", ["passing", "passing"]);
  const edited = trialsScenario(editedScenario("description: Cellular is off;", "description: The phone's cellular is off;"));
  const [late] = await playTrials(join(dir, "v2"), "queued", ["halfway"], edited);
  const digestOf = (file: string): string =>
    (JSON.parse(readFileSync(file, "utf8").split("\n")[0]!) as { scenario_digest: string }).scenario_digest;
  const [v1, v2] = [digestOf(original[0]!), digestOf(late!)];
  assert.match(v1, /^sha256:[0-9a-f]{16}$/);
  assert.notEqual(v1, v2);
  // A file from before headers carried the digest still reads, and its digest is computed the same.
  const text = readFileSync(original[1]!, "utf8");
  writeFileSync(original[1]!, text.replace(`"scenario_digest":"${v1}",`, ""));
  assert.ok(!readFileSync(original[1]!, "utf8").includes("scenario_digest"));

  const json = evalJson([dir]);
  assert.deepEqual(
    json.trajectories.map((t) => t.scenario_digest),
    [v1, v1, v2],
  );
  const [group] = json.groups;
  assert.deepEqual(group?.pass_hat_k?.tasks, [
    { task: `${TRIALS_NAME}@${v1}`, trials: 2, successes: 2 },
    { task: `${TRIALS_NAME}@${v2}`, trials: 1, successes: 0 },
  ]);
  assert.equal(group?.scenarios, 2);
  const note = `agent queued · user queued · prompts own · augmentation none: scenario ${TRIALS_NAME} was run from 2 versions of its file, ${v1} (2 runs), ${v2} (1 runs); each version counts as a scenario of its own, named ${TRIALS_NAME}@<digest>`;
  assert.deepEqual(json.notes, [note]);
  assert.ok(evalText([dir]).includes(`note: ${note}`));
  const report = JSON.parse(runCli(["report", "--json", dir]).stdout) as { report: { notes: string[] } };
  assert.deepEqual(report.report.notes, [note]);
});
