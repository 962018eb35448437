// Issue 26's "done when", asserted figure by figure: a runs folder with a file corrupt mid-way, a
// model_error run that reached every milestone, two agents with 3 trials each and a cut-short file
// (scores-fixture.ts). `report --json` shows 2 damaged and 1 errored outside the means, and pass^k
// per agent; summary.json of a run shows its errored episode outside the score and pass^k.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runRecordOf } from "../../engine/reports/run-record.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { scenarioDigest } from "../../engine/trajectory/scenario-digest.js";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";
import { AGENT_B, writeScoresFixture } from "./scores-fixture.js";

before(requireBuild);
after(removeTempDirs);

interface Group {
  agent: string;
  runs: number;
  scored: number;
  errored: number;
  damaged: number;
  score: number | null;
  interval: { low: number; high: number } | null;
  success: { successes: number; trials: number } | null;
  pass_hat_k: { pass_hat_k: { k: number; value: number }[]; estimator: string; average_score: number } | null;
}
interface ReportJson {
  records: {
    file: string;
    status: string;
    score: number | null;
    recorded_score: number | null;
    damaged_line: number | null;
    end_reason: string | null;
  }[];
  report: { runs: number; scored: number; errored: number; damaged: number; errors_as_failures: boolean; groups: Group[] };
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const passK = (g: Group | undefined): number[] => (g?.pass_hat_k?.pass_hat_k ?? []).map((p) => round3(p.value));

function report(args: readonly string[] = []): ReportJson {
  const dir = writeScoresFixture(tempDir("scores"));
  const r = runCli(["report", dir, "--json", ...args]);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as ReportJson;
}

test("report --json: 2 damaged, 1 errored kept out of the means, and pass^k per agent, never pooled", () => {
  const { records, report: rep } = report();
  assert.deepEqual([rep.runs, rep.scored, rep.errored, rep.damaged], [15, 12, 1, 2]);
  const damaged = records.filter((r) => r.status === "damaged");
  assert.deepEqual(damaged.map((r) => [r.damaged_line, r.score]).sort(), [
    [13, null],
    [6, null],
  ]);
  const errored = records.find((r) => r.status === "errored");
  assert.deepEqual(
    { end: errored?.end_reason, recorded: errored?.recorded_score, score: errored?.score },
    { end: "model_error", recorded: 1, score: null },
  );
  const [b, a] = [rep.groups.find((g) => g.agent === AGENT_B), rep.groups.find((g) => g.agent === "scripted")];
  assert.equal(rep.groups.length, 2);
  assert.deepEqual([a?.runs, a?.scored, a?.errored, a?.damaged], [7, 6, 0, 1]);
  assert.deepEqual([b?.runs, b?.scored, b?.errored, b?.damaged], [8, 6, 1, 1]);
  // The scripted agent succeeds every trial; model-b fails one of find_temperature's three:
  // pass^k = (C(2,k)/C(3,k) + 1) / 2 = 0.833, 0.667, 0.5. Pooled, k would run to 6.
  assert.deepEqual(passK(a), [1, 1, 1]);
  assert.deepEqual(passK(b), [0.833, 0.667, 0.5]);
  assert.match(b?.pass_hat_k?.estimator ?? "", /^unbiased: C\(c, k\) \/ C\(n, k\)/);
  // Without the errored run (recorded 1): find_temperature 2/3, cellular_off 1, mean 0.833 (with it, 0.875).
  assert.equal(round3(b?.score ?? -1), 0.833);
  assert.deepEqual([b?.success?.successes, b?.success?.trials], [5, 6]);
  // Two scenarios are too few for a bootstrap interval (MIN_INTERVAL_SCENARIOS): none is given.
  assert.equal(b?.interval, null);
});

test("report --errors-as-failures scores the errored run 0 in the means and pass^k", () => {
  const { report: rep } = report(["--errors-as-failures"]);
  assert.equal(rep.errors_as_failures, true);
  const b = rep.groups.find((g) => g.agent === AGENT_B);
  // find_temperature now has 4 counted trials [1, 1, 0, 0]: pass^1 = (2/4 + 1) / 2, pass^2 = (1/6 + 1) / 2, pass^3 = (0 + 1) / 2.
  assert.deepEqual(passK(b), [0.75, 0.583, 0.5]);
  assert.equal(b?.score, 0.75);
  // One mean: pass^k's average score is the scenarios' mean too ((2/4 + 3/3) / 2), not the trials' 5/7.
  assert.equal(b?.pass_hat_k?.average_score, 0.75);
  assert.deepEqual([b?.success?.successes, b?.success?.trials], [5, 7]);
});

test("report prints each group with its counts, its score's interval and the totals line", () => {
  const dir = writeScoresFixture(tempDir("scores-text"));
  const r = runCli(["report", dir]);
  const out = lines(r.stdout);
  assert.ok(
    out.includes(`agent ${AGENT_B} · user scripted · prompts own · augmentation none: 8 runs, 6 scored, 1 errored, 1 damaged, 0 unscored`),
    r.stdout,
  );
  assert.ok(out.includes("  score 0.83 [n too small] over 2 scenarios (95% bootstrap over scenarios)"), r.stdout);
  assert.ok(out.includes("  success 5/6 = 0.83 [0.44, 0.97] (Wilson 95%; a success scores at least 1)"), r.stdout);
  // SCORE errored, TURNS 3, ROLE PLAY - (not judged), then the END column.
  assert.ok(
    out.some((l) => /find_temperature_adapted +model-b .* errored +3 +- +model_error: agent openai:model-b: /.test(l)),
    r.stdout,
  );
  assert.equal(out.at(-1), "15 runs in 2 suites, 2 groups: 12 scored, 1 errored (errored left out of the scores), 2 damaged, 0 unscored");
});

test("a run whose agent never acted has no score yet", () => {
  const sample = readFileSync("sample-scenarios/trajectories/find_temperature_adapted.trajectory.jsonl", "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { type: string; message?: { sender: string; sandbox_message_index: number }; index?: number });
  const firstAgent = sample.find((l) => l.type === "message" && l.message?.sender === "agent")!.message!.sandbox_message_index;
  const before = sample.filter(
    (l) =>
      l.type === "header" ||
      (l.type === "message" && l.message!.sandbox_message_index < firstAgent) ||
      (l.type === "world" && (l.index ?? 0) < firstAgent),
  );
  const evaluation = sample.find((l) => l.type === "evaluation")!;
  const text = [...before, { type: "end", reason: "end_conversation", message_count: firstAgent }, evaluation]
    .map((l) => JSON.stringify(l))
    .join("\n");
  const record = runRecordOf(text, "early.trajectory.jsonl", ".", 0);
  assert.deepEqual([record.status, record.score, record.error], ["unscored", null, "the agent never acted"]);
});

test("summary.json: an episode that ended in model_error is errored, outside the score and pass^k", () => {
  const suite = tempDir("suite");
  for (const name of ["find_temperature_adapted", "cellular_off_adapted"]) {
    copyFileSync(`sample-scenarios/${name}.scenario.yaml`, join(suite, `${name}.scenario.yaml`));
  }
  const out = tempDir("out");
  assert.equal(runCli(["run", suite, "--trials", "3", "--out", out]).status, 0);
  // The endpoint failed after every milestone had matched: the trajectory ends in model_error, score 1.
  const file = join(out, "find_temperature_adapted.trial-2.trajectory.jsonl");
  const changed = readFileSync(file, "utf8")
    .split("\n")
    .map((l) =>
      l.startsWith('{"type":"end"') ? l.replace('"reason":"end_conversation"', '"reason":"model_error","detail":"agent: HTTP 500"') : l,
    );
  writeFileSync(file, changed.join("\n"));
  const resumed = runCli(["run", suite, "--trials", "3", "--out", out, "--resume"]);
  assert.ok(
    lines(resumed.stdout).includes(
      "score 1.00 [n too small] over 2 scenarios (95% bootstrap); success 5/5 [0.57, 1.00] (Wilson 95%); 1 errored left out",
    ),
    resumed.stdout,
  );
  const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as {
    totals: { errored: number; scored: number };
    scenarios: { name: string; trial: number; status: string; score: number }[];
    score: { mean: number; scenarios: number };
    success: { successes: number; trials: number };
    trials: { pass_hat_k: { k: number }[]; errored_left_out: number; estimator: string };
  };
  assert.deepEqual([summary.totals.errored, summary.totals.scored], [1, 5]);
  const errored = summary.scenarios.find((s) => s.status === "errored");
  assert.deepEqual([errored?.name, errored?.trial, errored?.score], ["find_temperature_adapted", 2, 1]);
  assert.deepEqual([summary.success.successes, summary.success.trials], [5, 5]);
  // find_temperature has 2 counted trials left, so k stops at 2.
  assert.deepEqual(
    summary.trials.pass_hat_k.map((p) => p.k),
    [1, 2],
  );
  assert.equal(summary.trials.errored_left_out, 1);
});

interface ReportNotes {
  report: {
    runs: number;
    groups: (Group & { scenarios: number; pass_hat_k: { tasks: { task: string; trials: number }[] } | null })[];
    duplicates?: { file: string; copy_of: string }[];
    notes?: string[];
  };
}

test("report counts a byte-identical copy of a run once, and says so", () => {
  const dir = writeScoresFixture(tempDir("scores-copy"));
  const original = join(dir, "scripted", "cellular_off_adapted.trial-1.trajectory.jsonl");
  const copy = join(dir, "scripted", "copy", "cellular_off_adapted.trial-1.trajectory.jsonl");
  mkdirSync(join(dir, "scripted", "copy"));
  copyFileSync(original, copy);
  const r = runCli(["report", dir, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const { report: rep } = JSON.parse(r.stdout) as ReportNotes;
  // 15 runs as before: the copy is listed in the table but not counted again.
  assert.equal(rep.runs, 15);
  assert.deepEqual(rep.duplicates, [{ file: copy, copy_of: original }]);
  const a = rep.groups.find((g) => g.agent === "scripted");
  assert.deepEqual(
    a?.pass_hat_k?.tasks.map((t) => [t.task, t.trials]),
    [
      ["cellular_off_adapted", 3],
      ["find_temperature_adapted", 3],
    ],
  );
  const text = runCli(["report", dir]).stdout;
  assert.match(text, /^note: 1 file is a byte-identical copy of another run, counted once: .*copy\/cellular_off_adapted\.trial-1/m);
});

test("report keeps runs of an edited scenario apart from the original's, and says which", () => {
  const dir = writeScoresFixture(tempDir("scores-edited"));
  // A fourth trial of cellular_off played from an edited scenario (another description), scoring 0.
  const edited = readFileSync(join(dir, "scripted", "cellular_off_adapted.trial-1.trajectory.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const line = JSON.parse(l) as Record<string, Record<string, unknown>>;
      if (line.type === ("header" as unknown)) {
        // As a run of the edited scenario writes it: the header's digest is the edited scenario's.
        line.scenario = { ...line.scenario, description: "edited since" };
        (line as Record<string, unknown>).scenario_digest = scenarioDigest(line.scenario as unknown as Scenario);
      }
      if (line.type === ("evaluation" as unknown)) line.result = { ...line.result, score: 0 };
      return JSON.stringify(line);
    });
  writeFileSync(join(dir, "scripted", "cellular_off_adapted.trial-5.trajectory.jsonl"), `${edited.join("\n")}\n`);
  const r = runCli(["report", dir, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const { report: rep } = JSON.parse(r.stdout) as ReportNotes;
  const a = rep.groups.find((g) => g.agent === "scripted");
  // Three scenarios: find_temperature (1), cellular_off (1) and its edited version (0); mean 2/3,
  // where pooling the versions would give 2 scenarios and (1 + 3/4) / 2.
  assert.equal(a?.scenarios, 3);
  assert.equal(a?.score, 2 / 3);
  const tasks = a?.pass_hat_k?.tasks.map((t) => [t.task.replace(/@sha256:[0-9a-f]{16}$/, "@<digest>"), t.trials]);
  assert.deepEqual(tasks?.sort(), [
    ["cellular_off_adapted@<digest>", 1],
    ["cellular_off_adapted@<digest>", 3],
    ["find_temperature_adapted", 3],
  ]);
  assert.equal(rep.notes?.length, 1);
  assert.match(
    rep.notes?.[0] ?? "",
    /^agent scripted .*: scenario cellular_off_adapted was run from 2 versions of its file, sha256:[0-9a-f]{16} \((3|1) runs\), .*each version counts as a scenario of its own/,
  );
});

test("eval --json gives a damaged or errored run a null score, as report --json does", () => {
  const dir = writeScoresFixture(tempDir("scores-eval"));
  const r = runCli([
    "eval",
    "--json",
    join(dir, "model-b", "find_temperature_adapted.trial-4.trajectory.jsonl"),
    join(dir, "model-b", "find_temperature_adapted.trial-1.trajectory.jsonl"),
  ]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { trajectories: { file: string; status: string; score: number | null; evaluated_score: number }[] };
  const errored = out.trajectories.find((t) => t.file.endsWith("find_temperature_adapted.trial-4.trajectory.jsonl"));
  assert.deepEqual([errored?.status, errored?.score], ["errored", null]);
  assert.equal(typeof errored?.evaluated_score, "number");
  for (const t of out.trajectories) if (t.status !== "scored") assert.equal(t.score, null, t.file);
});
