import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { checkLine } from "../../engine/trajectory/schema.js";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

before(requireBuild);
after(removeTempDirs);

const SUITE = "test/fixtures/scenarios/suite";

/** Every line of every trajectory in `dir` matches the schema and the file reads without warnings. */
function assertValidTrajectories(dir: string): string[] {
  const files = readdirSync(dir).filter((f) => f.endsWith(".trajectory.jsonl"));
  for (const f of files) {
    const path = join(dir, f);
    for (const [i, line] of readFileSync(path, "utf8").trimEnd().split("\n").entries()) {
      const check = checkLine(JSON.parse(line));
      assert.ok(check.ok, `${f}:${i + 1}: ${check.ok ? "" : check.error}`);
    }
    assert.deepEqual(readTrajectoryFile(path).warnings, [], f);
  }
  return files;
}

test("run writes one trajectory per scenario and a summary, one stdout line per scenario", () => {
  const out = tempDir("run");
  const r = runCli(["run", SUITE, "--agent", "scripted", "--user", "scripted", "--out", out, "--seed", "3"]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, "");
  const stdout = lines(r.stdout);
  assert.match(stdout[0]!, /^SCENARIO +END +MESSAGES +TURNS +SCORE$/);
  assert.match(stdout[1]!, /^reminder_and_contacts +end_conversation +\d+ +\d+ +1\.00$/);
  assert.match(stdout[2]!, /^text_with_cellular_off +end_conversation +\d+ +\d+ +1\.00$/);
  // Then the per-category table (each tag, then ALL_CATEGORIES) and the totals.
  assert.match(stdout[3]!, /^CATEGORY +SCENARIOS +SCORE +95% CI +TURNS$/);
  // Two scenarios are too few for a bootstrap interval (docs/statistics.md).
  assert.match(stdout[4]!, /^MULTIPLE_TOOL_CALL +2 +1\.00 +\[n too small\] +9\.0$/);
  assert.ok(
    stdout.some((l) => /^ALL_CATEGORIES +2 +1\.00 +\[n too small\] +9\.0$/.test(l)),
    "the category table ends with ALL_CATEGORIES",
  );
  // Then the per-app table: each app the references use.
  assert.match(stdout[stdout.findIndex((l) => /^ALL_CATEGORIES /.test(l)) + 1]!, /^APP +SCENARIOS +SCORE +95% CI +TURNS$/);
  assert.match(stdout.at(-1)!, /^2 scenarios, 0 failed, \d+ messages, \d+ turns; summary in .*summary\.json$/);

  const files = assertValidTrajectories(out);
  assert.deepEqual(files.sort(), ["reminder_and_contacts.trajectory.jsonl", "text_with_cellular_off.trajectory.jsonl"]);
  const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as {
    run: { agent: string; user: string; seed: number };
    scenarios: { name: string; categories: string[]; end_reason: string; message_count: number; turn_count: number; trajectory: string }[];
    totals: { scenarios: number; failed: number; messages: number; turns: number };
  };
  assert.deepEqual(summary.run, { agent: "scripted", user: "scripted", seed: 3 });
  const text = summary.scenarios.find((s) => s.name === "text_with_cellular_off")!;
  assert.deepEqual(text.categories, ["STATE_DEPENDENCY", "MULTIPLE_TOOL_CALL", "SINGLE_USER_TURN"]);
  assert.equal(text.end_reason, "end_conversation");
  assert.equal(text.trajectory, "text_with_cellular_off.trajectory.jsonl");
  const trajectory = readTrajectoryFile(join(out, text.trajectory));
  assert.equal(text.message_count, trajectory.messages.length);
  // Turns: 3 agent calls + 3 results + the agent's text; scripted rows and end_conversation do not count.
  assert.equal(text.turn_count, 7);
  assert.equal(summary.totals.scenarios, 2);
  assert.equal(summary.totals.failed, 0);
  assert.equal(
    summary.totals.messages,
    summary.scenarios.reduce((n, s) => n + s.message_count, 0),
  );
  assert.equal(trajectory.header.run.seed, 3);
});

test("the same run under different machine timezones writes byte-identical files", () => {
  const a = tempDir("tz-utc");
  const b = tempDir("tz-kolkata");
  assert.equal(runCli(["run", SUITE, "--out", a], { TZ: "UTC" }).status, 0);
  assert.equal(runCli(["run", SUITE, "--out", b], { TZ: "Asia/Kolkata" }).status, 0);
  const files = readdirSync(a).sort();
  assert.deepEqual(readdirSync(b).sort(), files);
  assert.ok(files.length === 3);
  for (const f of files)
    assert.ok(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), `${f} differs between TZ=UTC and TZ=Asia/Kolkata`);
  // No machine path (the output directory, the working directory) leaks into what was written.
  for (const f of files) {
    const text = readFileSync(join(a, f), "utf8");
    for (const path of [a, process.cwd()]) assert.ok(!text.includes(path), `${f} mentions ${path}`);
  }
});

test("a scenario file with errors stops the run before anything is written", () => {
  const out = join(tempDir("broken"), "out");
  const r = runCli(["run", SUITE, "test/fixtures/broken/malformed.scenario.yaml", "--out", out]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, "");
  const err = lines(r.stderr);
  assert.ok(err.length >= 2);
  for (const l of err.slice(0, -1)) assert.match(l, /^test\/fixtures\/broken\/malformed\.scenario\.yaml:\d+:\d+: error /);
  assert.equal(err.at(-1), "toolsandbox: 1 of 3 scenario files has errors; nothing was run");
  assert.equal(existsSync(out), false);
});

test("a missing scenario file is exit 3 with one line", () => {
  const r = runCli(["run", "missing.scenario.yaml", "--out", tempDir("missing")]);
  assert.equal(r.status, 3);
  assert.deepEqual(lines(r.stderr), ["toolsandbox: missing.scenario.yaml: no such file or directory"]);
});

test("every sample scenario runs to the end of its conversation", () => {
  const out = tempDir("samples");
  const r = runCli(["run", "sample-scenarios", "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  const files = assertValidTrajectories(out);
  const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as { scenarios: { name: string; end_reason: string }[] };
  assert.equal(files.length, summary.scenarios.length);
  for (const s of summary.scenarios) assert.equal(s.end_reason, "end_conversation", s.name);
});

test("an output directory that cannot be created is exit 3 with one line", () => {
  const r = runCli(["run", SUITE, "--out", "package.json/runs"]);
  assert.equal(r.status, 3);
  assert.deepEqual(lines(r.stderr), ["toolsandbox: package.json/runs: not a directory"]);
});
