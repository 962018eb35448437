// Where runs land: one new file per run, named after the scenario and a run number, never
// overwriting an earlier run, in the runs folder resolved from the setting.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  claimRunFile,
  DEFAULT_RUNS_FOLDER,
  isRunOf,
  latestRunFile,
  listRunFilesBelow,
  nextRunNumber,
  pickLastRun,
  resolveRunsFolder,
  runFileName,
  runNumberOf,
} from "../../engine/trajectory/run-files.js";
import { removeTempDirs, tempDir } from "../client/fixtures.js";

after(removeTempDirs);

test("run files are named after the scenario and the run number", () => {
  assert.equal(runFileName("cellular_off", 3), "cellular_off.run-3.trajectory.jsonl");
  // Names are made safe for file systems the same way `toolsandbox run` does it.
  assert.equal(runFileName("a/b c", 1), "a_b_c.run-1.trajectory.jsonl");
  assert.equal(runNumberOf("cellular_off.run-12.trajectory.jsonl", "cellular_off"), 12);
  assert.equal(runNumberOf("cellular_off.run-12.trajectory.jsonl", "cellular"), null);
  assert.equal(runNumberOf("cellular_off.run-012.trajectory.jsonl", "cellular_off"), null);
  assert.equal(runNumberOf("cellular_off.trajectory.jsonl", "cellular_off"), null);
});

test("the next run is one past the highest, and the latest run is the highest number, not the last name", () => {
  const names = [
    "x.run-2.trajectory.jsonl",
    "x.run-10.trajectory.jsonl",
    "x.run-9.trajectory.jsonl",
    "xy.run-50.trajectory.jsonl",
    "notes.txt",
  ];
  assert.equal(latestRunFile(names, "x"), "x.run-10.trajectory.jsonl");
  assert.equal(nextRunNumber(names, "x"), 11);
  assert.equal(nextRunNumber(names, "other"), 1);
  assert.equal(latestRunFile([], "x"), null);
});

test("claiming creates the folder and never reuses a file that exists", () => {
  const folder = join(tempDir(), "deep", "runs");
  const first = claimRunFile(folder, "cellular_off");
  const second = claimRunFile(folder, "cellular_off");
  assert.equal(first, join(folder, "cellular_off.run-1.trajectory.jsonl"));
  assert.equal(second, join(folder, "cellular_off.run-2.trajectory.jsonl"));
  writeFileSync(join(folder, "cellular_off.run-7.trajectory.jsonl"), "kept");
  assert.equal(claimRunFile(folder, "cellular_off"), join(folder, "cellular_off.run-8.trajectory.jsonl"));
  assert.deepEqual(readdirSync(folder).sort(), [
    "cellular_off.run-1.trajectory.jsonl",
    "cellular_off.run-2.trajectory.jsonl",
    "cellular_off.run-7.trajectory.jsonl",
    "cellular_off.run-8.trajectory.jsonl",
  ]);
});

test("the runs folder is relative to the workspace folder, else to the scenario's folder", () => {
  assert.equal(resolveRunsFolder("", "/ws", "/ws/scenarios"), join("/ws", DEFAULT_RUNS_FOLDER));
  assert.equal(resolveRunsFolder("out/runs", "/ws", "/ws/scenarios"), "/ws/out/runs");
  assert.equal(resolveRunsFolder("out/runs", null, "/tmp/s"), "/tmp/s/out/runs");
  assert.equal(resolveRunsFolder("/abs/runs", "/ws", "/ws/s"), "/abs/runs");
});

test('"Replay last run" finds the newest run of the scenario in subfolders of the runs folder too', () => {
  const runs = tempDir();
  const write = (path: string, minutesAgo: number): void => {
    const file = join(runs, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "{}\n");
    const when = new Date(Date.UTC(2026, 0, 15, 12, 0) - minutesAgo * 60_000);
    utimesSync(file, when, when);
  };
  write("cellular_off.run-9.trajectory.jsonl", 30);
  write("gpt-4o/cellular_off.trajectory.jsonl", 20);
  write("gpt-4o/cellular_off_adapted.trajectory.jsonl", 1); // another scenario, however new
  write("mock/trials/cellular_off.trial-2.trajectory.jsonl", 5);
  write("mock/trials/cellular_off.trial-1.trajectory.jsonl", 6);
  write(".hidden/cellular_off.trajectory.jsonl", 0); // hidden folders are not runs folders
  write("mock/notes.txt", 0);

  const found = listRunFilesBelow(runs);
  assert.equal(pickLastRun(found, "cellular_off"), join(runs, "mock/trials/cellular_off.trial-2.trajectory.jsonl"));
  assert.equal(pickLastRun(found, "cellular_off_adapted"), join(runs, "gpt-4o/cellular_off_adapted.trajectory.jsonl"));
  assert.equal(pickLastRun(found, "missing"), null);
  // Written in the same millisecond: the higher run number is the later run, as in one folder.
  const same = [
    { path: "/r/x.run-2.trajectory.jsonl", name: "x.run-2.trajectory.jsonl", mtimeMs: 5 },
    { path: "/r/x.run-10.trajectory.jsonl", name: "x.run-10.trajectory.jsonl", mtimeMs: 5 },
  ];
  assert.equal(pickLastRun(same, "x"), "/r/x.run-10.trajectory.jsonl");
  assert.ok(
    isRunOf("x.trial-3.trajectory.jsonl", "x") && !isRunOf("x.trial-03.trajectory.jsonl", "x") && !isRunOf("xy.trajectory.jsonl", "x"),
  );
});
