// Finding a scenario's last run under the workspace folders and in the extension's runs folders:
// the newest trajectory whose header names the scenario, its recorded evaluation or, without one,
// the trajectory re-scored.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LastRuns, scenarioNameOf } from "../../../server/handlers/last-run.js";
import { missedRun, SAVED_RUN as SAVED, setTime } from "../saved-runs.js";
const dirs: string[] = [];

after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-last-run-"));
  dirs.push(dir);
  return dir;
}

const matchedAt = (runs: LastRuns, root: string | null = null) =>
  runs.forScenario("cellular_off_adapted", root)?.milestones.find((m) => m.id === "cellular_off")?.matched_at;

test("the newest trajectory of the scenario wins, wherever it is under the folders", () => {
  const root = workspace();
  mkdirSync(join(root, "runs", "old"), { recursive: true });
  mkdirSync(join(root, "runs", "new"), { recursive: true });
  copyFileSync(SAVED, join(root, "runs", "old", "cellular_off_adapted.trajectory.jsonl"));
  writeFileSync(join(root, "runs", "new", "cellular_off_adapted.trajectory.jsonl"), missedRun());
  setTime(join(root, "runs", "old", "cellular_off_adapted.trajectory.jsonl"), 60);
  setTime(join(root, "runs", "new", "cellular_off_adapted.trajectory.jsonl"), 10);

  const runs = new LastRuns(() => undefined);
  runs.setRoots([root]);
  assert.equal(matchedAt(runs), null, "the newer run, where the milestone was missed");

  setTime(join(root, "runs", "old", "cellular_off_adapted.trajectory.jsonl"), 1);
  runs.filesChanged();
  assert.equal(matchedAt(runs), 18, "the older file touched last is now the newest");
});

test("a trajectory without an evaluation is scored against its own scenario", () => {
  const root = workspace();
  const lines = readFileSync(SAVED, "utf8").trimEnd().split("\n");
  writeFileSync(join(root, "unscored.trajectory.jsonl"), `${lines.slice(0, -1).join("\n")}\n`);
  const runs = new LastRuns(() => undefined);
  runs.setRoots([root]);
  assert.equal(matchedAt(runs), 18);
});

test("other scenarios, node_modules, hidden folders and broken files are not taken", () => {
  const root = workspace();
  const logged: string[] = [];
  mkdirSync(join(root, "node_modules", "pkg"), { recursive: true });
  mkdirSync(join(root, ".cache"), { recursive: true });
  copyFileSync(SAVED, join(root, "node_modules", "pkg", "cellular_off_adapted.trajectory.jsonl"));
  copyFileSync(SAVED, join(root, ".cache", "cellular_off_adapted.trajectory.jsonl"));
  copyFileSync("sample-scenarios/trajectories/find_temperature_adapted.trajectory.jsonl", join(root, "other.trajectory.jsonl"));
  writeFileSync(join(root, "garbage.trajectory.jsonl"), "not json\n");
  const runs = new LastRuns((m) => logged.push(m));
  runs.setRoots([root]);
  assert.equal(runs.forScenario("cellular_off_adapted", null), null);
  assert.ok(runs.forScenario("find_temperature_adapted", null), "the other scenario's run is found under its own name");

  // A file that claims the scenario in its header but is corrupt after it: no result, one log line.
  const header = readFileSync(SAVED, "utf8").split("\n")[0];
  writeFileSync(join(root, "corrupt.trajectory.jsonl"), `${header}\n{"type":"nonsense"}\n`);
  runs.filesChanged();
  assert.equal(runs.forScenario("cellular_off_adapted", null), null);
  assert.equal(logged.length, 1);
  assert.match(logged[0] ?? "", /corrupt\.trajectory\.jsonl/);
});

test("the extension's runs in <workspace>/.toolsandbox/runs are found, the newest run of the scenario first", () => {
  const root = workspace();
  const runs = join(root, ".toolsandbox", "runs");
  mkdirSync(runs, { recursive: true });
  mkdirSync(join(root, ".toolsandbox", "cache"), { recursive: true });
  mkdirSync(join(root, "node_modules", "pkg"), { recursive: true });
  copyFileSync(SAVED, join(runs, "cellular_off_adapted.run-1.trajectory.jsonl"));
  writeFileSync(join(runs, "cellular_off_adapted.run-2.trajectory.jsonl"), missedRun());
  // Newer, but in places the lookup leaves alone.
  copyFileSync(SAVED, join(root, ".toolsandbox", "cache", "cellular_off_adapted.trajectory.jsonl"));
  copyFileSync(SAVED, join(root, "node_modules", "pkg", "cellular_off_adapted.trajectory.jsonl"));
  setTime(join(runs, "cellular_off_adapted.run-1.trajectory.jsonl"), 60);
  setTime(join(runs, "cellular_off_adapted.run-2.trajectory.jsonl"), 30);

  const lastRuns = new LastRuns(() => undefined);
  lastRuns.setRoots([root]);
  assert.equal(matchedAt(lastRuns), null, "run 2, the newest, where the milestone was missed");
  copyFileSync(SAVED, join(runs, "cellular_off_adapted.run-3.trajectory.jsonl"));
  lastRuns.filesChanged();
  assert.equal(matchedAt(lastRuns), 18, "run 3 arrived");

  // A lone file open (no workspace folders): the runs folder beside it, as the extension writes it.
  assert.equal(matchedAt(new LastRuns(() => undefined), root), 18);
});

test("the folder toolsandbox.runsFolder names is searched too, relative to the workspace or absolute", () => {
  const root = workspace();
  const elsewhere = workspace();
  mkdirSync(join(root, "out", ".runs"), { recursive: true });
  copyFileSync(SAVED, join(root, "out", ".runs", "cellular_off_adapted.run-1.trajectory.jsonl"));
  let now = 0;
  const lastRuns = new LastRuns(
    () => undefined,
    () => now,
  );
  lastRuns.setRoots([root]);
  lastRuns.setWatched(true);
  assert.equal(matchedAt(lastRuns), undefined, "a hidden folder that is not the runs folder is skipped");
  lastRuns.setRunsFolderSetting("out/.runs");
  assert.equal(matchedAt(lastRuns), 18);

  // Outside the workspace the client's watcher sees nothing: the scan is redone after a few seconds.
  lastRuns.setRunsFolderSetting(elsewhere);
  assert.equal(matchedAt(lastRuns), undefined);
  writeFileSync(join(elsewhere, "cellular_off_adapted.run-1.trajectory.jsonl"), missedRun());
  now = 1000;
  assert.equal(matchedAt(lastRuns), undefined, "the scan a second ago still stands");
  now = 10_000;
  assert.equal(matchedAt(lastRuns), null, "found without a change notification");
});

test("without workspace folders the document's own folder is searched", () => {
  const root = workspace();
  copyFileSync(SAVED, join(root, "cellular_off_adapted.trajectory.jsonl"));
  const runs = new LastRuns(() => undefined);
  assert.equal(matchedAt(runs), undefined, "no folders, no fallback: nothing to search");
  assert.equal(matchedAt(runs, root), 18);
});

test("without file watching a scan is trusted for a few seconds, then redone", () => {
  const root = workspace();
  let now = 0;
  const runs = new LastRuns(
    () => undefined,
    () => now,
  );
  runs.setRoots([root]);
  assert.equal(matchedAt(runs), undefined);
  copyFileSync(SAVED, join(root, "cellular_off_adapted.trajectory.jsonl"));
  now = 1000;
  assert.equal(matchedAt(runs), undefined, "the scan a second ago still stands");
  now = 10_000;
  assert.equal(matchedAt(runs), 18);

  // With watching, only a change notification makes it look again.
  const watched = new LastRuns(
    () => undefined,
    () => now,
  );
  watched.setRoots([root]);
  watched.setWatched(true);
  assert.equal(matchedAt(watched), 18);
  rmSync(join(root, "cellular_off_adapted.trajectory.jsonl"));
  now = 1_000_000;
  assert.equal(matchedAt(watched), 18, "no notification: the cached scan and result stand");
  watched.filesChanged();
  assert.equal(matchedAt(watched), undefined);
});

test("the scenario name is read from a header line only", () => {
  assert.equal(scenarioNameOf('{"type":"header","scenario":{"name":"x"}}'), "x");
  assert.equal(scenarioNameOf('{"type":"message","scenario":{"name":"x"}}'), null);
  assert.equal(scenarioNameOf('{"type":"header","scenario":{"name":3}}'), null);
  assert.equal(scenarioNameOf("{"), null);
  assert.equal(scenarioNameOf(null), null);
});
