// Regression tests of the failures a reviewer found by attacking the CLI (issue 16), one test per
// failure, run as a user runs them: the built CLI in its own process, with a time limit (a hang
// fails the test instead of stalling the suite) and a heap cap (a file that would need gigabytes
// fails it too).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, requireBuild, lines, removeTempDirs, tempDir, type CliResult } from "./harness.js";
import { BASE_SCENARIO, deepBlockNesting, deepFlowNesting, longLine, manyMilestones } from "../fixtures/hostile-documents.js";

const CELLULAR = "sample-scenarios/cellular_off_adapted.scenario.yaml";
const CITY = "sample-scenarios/find_current_city_low_battery_mode_adapted.scenario.yaml";
/** A heap this small fails any command that would take the 1.5 GB the reviewer measured. */
const HEAP_MB = 256;
const TIME_LIMIT_MS = 60_000;

/** The CLI with a heap cap and a time limit; a run killed by either fails with one line saying so. */
function cli(args: readonly string[], env: Readonly<Record<string, string>> = {}): CliResult {
  const result = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, CLI, ...args], {
    encoding: "utf8",
    timeout: TIME_LIMIT_MS,
    maxBuffer: 64 * 1024 * 1024,
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  if (result.signal !== null)
    assert.fail(`toolsandbox ${args.join(" ")} was killed by ${result.signal} (over ${TIME_LIMIT_MS / 1000} s, or out of memory)`);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The diagnostic lines of validate's output (the summary line left out). */
const problems = (r: CliResult): string[] => lines(r.stdout).filter((l) => !/ checked: /.test(l));

let dir = "";
before(() => {
  requireBuild();
  dir = tempDir("hardening");
});
after(removeTempDirs);

function scenarioFile(name: string, text: string | Buffer): string {
  const path = join(dir, `${name}.scenario.yaml`);
  writeFileSync(path, text);
  return path;
}

test("1. run --out under /proc fails at once with one line (exit 3), as under /sys", () => {
  const r = cli(["run", CELLULAR, "--out", "/proc/toolsandbox-out"]);
  assert.equal(r.status, 3);
  assert.deepEqual(lines(r.stderr), ["toolsandbox: /proc/toolsandbox-out: no such file or directory"]);
});

test("2. validate of a file with 200,000 milestones ends with one line naming the size limit, in bounded memory", () => {
  const file = scenarioFile("milestones-200k", manyMilestones(200_000));
  const r = cli(["validate", file]);
  assert.equal(r.status, 1);
  const [only, ...rest] = problems(r);
  assert.deepEqual(rest, []);
  assert.match(
    only ?? "",
    /:1:1: error limit-file-size: The file is [\d,]+ bytes, over the limit of 2,097,152 bytes \(scenario file size\); raise it with TOOLSANDBOX_MAX_SCENARIO_BYTES=<n>\.$/,
  );
  // Under the size limit, the milestone limit stops the check as soon as the list is read.
  const smaller = cli(["validate", scenarioFile("milestones-10k", manyMilestones(10_000))]);
  assert.equal(smaller.status, 1);
  assert.equal(problems(smaller).length, 1);
  assert.match(
    problems(smaller)[0] ?? "",
    /error too-many-milestones: This list has 10,002 milestones, over the limit of 64 .*TOOLSANDBOX_MAX_MILESTONES=<n>\.$/,
  );
});

test("2. validate of a 20 MB one-line value ends with one line, in bounded memory", () => {
  const r = cli(["validate", scenarioFile("line-20mb", longLine(20_000_000))]);
  assert.equal(r.status, 1);
  assert.equal(problems(r).length, 1);
  assert.match(problems(r)[0] ?? "", /error limit-file-size: The file is 20,00[\d,]+ bytes/);
});

/** A reference call whose latitude no float can hold. */
const INFINITE = readFileSync(CITY, "utf8")
  .replace("name: find_current_city_low_battery_mode_adapted", "name: infinite_latitude")
  .replace("latitude: 37.334606", "latitude: 1e400");

test("3. validate names a number too large for a float, with file:line:col", () => {
  const file = scenarioFile("infinite", INFINITE);
  const r = cli(["validate", file]);
  const line = INFINITE.split("\n").findIndex((l) => l.includes("1e400")) + 1;
  const column = (INFINITE.split("\n")[line - 1] ?? "").indexOf("1e400") + 1;
  assert.ok(
    problems(r).includes(
      `${file}:${line}:${column}: warning number-not-finite: 1e400 is too large for a 64-bit float: a trajectory cannot hold it, so a run of this scenario fails. Write a smaller number, or quote it to keep it as text.`,
    ),
    r.stdout,
  );
});

test("3. a scenario holding 1e400 fails alone: the batch's valid scenarios are written, exit 1 at the end", () => {
  const file = scenarioFile("infinite-run", INFINITE);
  const out = join(dir, "infinite-out");
  const r = cli(["run", CELLULAR, file, CITY, "--out", out]);
  assert.equal(r.status, 1, r.stderr);
  assert.ok(existsSync(join(out, "cellular_off_adapted.trajectory.jsonl")));
  assert.ok(existsSync(join(out, "find_current_city_low_battery_mode_adapted.trajectory.jsonl")));
  assert.ok(!existsSync(join(out, "infinite_latitude.trajectory.jsonl")));
  assert.ok(
    lines(r.stderr).some((l) => l.includes('infinite_latitude ended with error: the scenario holds Infinity (property "latitude")')),
    r.stderr,
  );
  const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as { scenarios: { name: string; failed: boolean }[] };
  assert.deepEqual(
    summary.scenarios.map((s) => [s.name, s.failed]),
    [
      ["cellular_off_adapted", false],
      ["infinite_latitude", true],
      ["find_current_city_low_battery_mode_adapted", false],
    ],
  );
});

test("4. a trajectory that is a symbolic link is never written through; the other scenarios run (exit 1)", () => {
  const out = join(dir, "link-out");
  cli(["run", CITY, "--out", out]);
  const target = join(dir, "precious.txt");
  writeFileSync(target, "keep me\n");
  symlinkSync(target, join(out, "cellular_off_adapted.trajectory.jsonl"));
  const r = cli(["run", CELLULAR, CITY, "--out", out]);
  assert.equal(r.status, 1);
  assert.equal(readFileSync(target, "utf8"), "keep me\n");
  assert.ok(
    lines(r.stderr).some((l) =>
      l.endsWith(
        `cellular_off_adapted ended with error: ${join(out, "cellular_off_adapted.trajectory.jsonl")} is a symbolic link; output is never written through one`,
      ),
    ),
    r.stderr,
  );
});

test("4. --resume does not take a symbolic link to a finished trajectory as done", () => {
  const finished = join(dir, "finished");
  assert.equal(cli(["run", CELLULAR, "--out", finished]).status, 0);
  const before = readFileSync(join(finished, "cellular_off_adapted.trajectory.jsonl"), "utf8");
  const out = join(dir, "resume-link");
  assert.equal(cli(["run", CELLULAR, "--out", out]).status, 0);
  const saved = join(out, "cellular_off_adapted.trajectory.jsonl");
  rmSync(saved);
  symlinkSync(join(finished, "cellular_off_adapted.trajectory.jsonl"), saved);
  const r = cli(["run", CELLULAR, "--out", out, "--resume"]);
  assert.equal(r.status, 1);
  assert.ok(lines(r.stderr).includes("toolsandbox: resuming: 0 of 1 episode already complete, 1 to play"), r.stderr);
  assert.equal(readFileSync(join(finished, "cellular_off_adapted.trajectory.jsonl"), "utf8"), before, "the link's target is untouched");
});

test("5. clock.now out of the years 1 to 9999 is an error at the value", () => {
  for (const now of ["1e23", "-1e23"]) {
    const file = scenarioFile("clock", BASE_SCENARIO.replace("now: 2026-01-15T09:00:00", `now: ${now}`));
    const r = cli(["validate", file]);
    assert.equal(r.status, 1);
    assert.deepEqual(problems(r), [
      `${file}:8:8: error clock-out-of-range: The clock must be between the years 1 and 9999: write a date such as 2026-01-15T09:00:00, or a timestamp in that range.`,
    ]);
  }
});

test("6. nesting of 800 levels is reported in our words, at its place; raising the limit lets 70 levels through", () => {
  for (const text of [deepFlowNesting(800), deepBlockNesting(800)]) {
    const r = cli(["validate", scenarioFile("deep", text)]);
    assert.equal(r.status, 1);
    assert.equal(problems(r).length, 1, r.stdout);
    assert.match(
      problems(r)[0] ?? "",
      /:\d+:\d+: error limit-nesting-depth: .*over the limit of 64 levels \(nesting depth\); raise it with TOOLSANDBOX_MAX_NESTING_DEPTH=<n>\.$/,
    );
    assert.doesNotMatch(r.stdout, /call stack/);
  }
  const seventy = scenarioFile("seventy", deepFlowNesting(70));
  assert.match(problems(cli(["validate", seventy]))[0] ?? "", /limit-nesting-depth/);
  const raised = cli(["validate", seventy], { TOOLSANDBOX_MAX_NESTING_DEPTH: "100" });
  assert.ok(!raised.stdout.includes("limit-nesting-depth"), raised.stdout);
  assert.match(raised.stdout, /schema-unknown-key: Unknown key "extra"/);
});

test("6. a trajectory that starts with a BOM is read, as a scenario with one is", () => {
  const saved = readFileSync("sample-scenarios/trajectories/cellular_off_adapted.trajectory.jsonl", "utf8");
  const file = join(dir, "bom.trajectory.jsonl");
  writeFileSync(file, `\uFEFF${saved}`);
  const r = cli(["replay", file]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(cli(["validate", scenarioFile("bom", `\uFEFF${BASE_SCENARIO}`)]).status, 0);
});

test('6. `!!int "abc"` is an error, not text', () => {
  const file = scenarioFile("tagged", BASE_SCENARIO.replace("name: cellular_off_adapted", 'name: !!int "abc"'));
  const r = cli(["validate", file]);
  assert.equal(r.status, 1);
  assert.deepEqual(problems(r), [
    `${file}:2:7: error yaml-tag: The tag !!int does not fit this value: it is not a whole number. Remove the tag or fix the value.`,
  ]);
});

test("6. invalid UTF-8 in a scenario is an error at the bad byte", () => {
  const [head, tail] = BASE_SCENARIO.split("cellular off.");
  const text = Buffer.concat([Buffer.from(head ?? ""), Buffer.from([0xff]), Buffer.from(` off.${tail ?? ""}`)]);
  const file = scenarioFile("latin1", text);
  const r = cli(["validate", file]);
  assert.equal(r.status, 1);
  const line = BASE_SCENARIO.split("\n").findIndex((l) => l.includes("Switch my cellular off.")) + 1;
  const column = "  opening: Switch my ".length + 1;
  const offset = BASE_SCENARIO.indexOf("Switch my cellular off.") + "Switch my ".length;
  assert.deepEqual(problems(r), [
    `${file}:${line}:${column}: error invalid-utf8: The file is not valid UTF-8: byte 0xFF (at byte ${offset.toLocaleString("en-US")}) is not part of a character. Save the file as UTF-8.`,
  ]);
});

test("limits: a trajectory with more messages than the limit is refused with one line (exit 4)", () => {
  const r = cli(["replay", "sample-scenarios/trajectories/cellular_off_adapted.trajectory.jsonl"], {
    TOOLSANDBOX_MAX_TRAJECTORY_MESSAGES: "3",
  });
  assert.equal(r.status, 4);
  assert.equal(lines(r.stderr).length, 1);
  assert.match(
    lines(r.stderr)[0] ?? "",
    /cellular_off_adapted\.trajectory\.jsonl:\d+: more than 3 messages, over the limit of 3 messages \(messages per trajectory\); raise it with TOOLSANDBOX_MAX_TRAJECTORY_MESSAGES=<n>\.$/,
  );
  const scenario = scenarioFile("max-messages", BASE_SCENARIO.replace("tools:", "max_messages: 200000\ntools:"));
  assert.match(
    problems(cli(["validate", scenario]))[0] ?? "",
    /error limit-messages: max_messages is 200,000, over the limit of 100,000 messages/,
  );
});

test("3. an infinite tolerance (`atol: .inf`) is meant, and is not reported as a number no float holds", () => {
  const text = readFileSync(CITY, "utf8").replace(
    "extractor: lat_lon_dict\n",
    "extractor: lat_lon_dict\n        measures:\n          tool_trace: { kind: tool_trace, atol: { latitude: .inf } }\n",
  );
  const r = cli(["validate", scenarioFile("tolerance", text)]);
  assert.ok(text.includes("atol: { latitude: .inf }"));
  assert.ok(!r.stdout.includes("number-not-finite"), r.stdout);
});
