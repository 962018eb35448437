// `run --resume`: complete trajectories are kept as they are and read back into the summary;
// whatever an unfinished episode left is deleted and played again from the start.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

before(requireBuild);
after(removeTempDirs);

const SCENARIOS = ["sample-scenarios/cellular_off_adapted.scenario.yaml", "sample-scenarios/find_temperature_adapted.scenario.yaml"];
const RUN = ["run", ...SCENARIOS, "--trials", "2", "--concurrency", "2"];

function snapshot(dir: string): Map<string, Buffer> {
  return new Map(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f))]));
}

/** The file as if its episode had been cancelled: the end event says so and there is no evaluation. */
function asCancelled(text: string): string {
  const kept = text
    .trimEnd()
    .split("\n")
    .filter((l) => !l.startsWith('{"type":"evaluation"'));
  const end = JSON.parse(kept.pop()!) as { type: string; reason: string };
  assert.equal(end.type, "end");
  return `${[...kept, JSON.stringify({ ...end, reason: "cancelled" })].join("\n")}\n`;
}

test("--resume keeps complete trajectories and plays the cut-short, cancelled and missing ones again", () => {
  const out = tempDir("resume");
  const first = runCli([...RUN, "--out", out]);
  assert.equal(first.status, 0, first.stderr);
  const original = snapshot(out);

  const kept = join(out, "find_temperature_adapted.trial-1.trajectory.jsonl");
  const old = new Date("2001-01-01T00:00:00Z");
  utimesSync(kept, old, old);
  const cut = original.get("cellular_off_adapted.trial-1.trajectory.jsonl")!;
  // Killed in the middle of a line, as `kill -9` leaves a file.
  writeFileSync(join(out, "cellular_off_adapted.trial-1.trajectory.jsonl"), cut.subarray(0, Math.floor(cut.length / 2)));
  writeFileSync(
    join(out, "cellular_off_adapted.trial-2.trajectory.jsonl"),
    asCancelled(original.get("cellular_off_adapted.trial-2.trajectory.jsonl")!.toString()),
  );
  unlinkSync(join(out, "find_temperature_adapted.trial-2.trajectory.jsonl"));
  unlinkSync(join(out, "summary.json"));

  const resumed = runCli([...RUN, "--resume", "--out", out]);
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.deepEqual(lines(resumed.stderr), [
    "toolsandbox: resuming: 1 of 4 episodes already complete, 3 to play (2 of them unfinished: deleted and played again from the start)",
  ]);
  // Only the replayed episodes get a result line.
  const rows = lines(resumed.stdout)
    .filter((l) => / end_conversation /.test(l))
    .map((l) => l.split(/ +end_conversation/)[0]);
  assert.deepEqual(rows.sort(), ["cellular_off_adapted #1", "cellular_off_adapted #2", "find_temperature_adapted #2"]);
  // The kept file was not touched; every file, and the summary, is what the uninterrupted run wrote.
  assert.equal(statSync(kept).mtimeMs, old.getTime());
  const now = snapshot(out);
  assert.deepEqual([...now.keys()].sort(), [...original.keys()].sort());
  for (const [f, bytes] of original) assert.ok(now.get(f)!.equals(bytes), `${f} differs from the uninterrupted run`);
});

test("--resume with every episode complete plays nothing and rewrites the same summary", () => {
  const out = tempDir("resume-done");
  assert.equal(runCli([...RUN, "--out", out]).status, 0);
  const summary = readFileSync(join(out, "summary.json"));
  const r = runCli([...RUN, "--resume", "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(lines(r.stderr), ["toolsandbox: resuming: 4 of 4 episodes already complete, 0 to play"]);
  assert.ok(!/ end_conversation /.test(r.stdout), "no episode was played");
  assert.ok(readFileSync(join(out, "summary.json")).equals(summary));
});

test("--resume refuses a directory written with other options, and changes nothing", () => {
  const out = tempDir("resume-foreign");
  assert.equal(runCli([...RUN, "--out", out]).status, 0);
  const before = snapshot(out);
  const r = runCli([...RUN, "--seed", "9", "--resume", "--out", out]);
  assert.equal(r.status, 2);
  assert.deepEqual(lines(r.stderr), [
    `toolsandbox: ${join(out, "cellular_off_adapted.trial-1.trajectory.jsonl")}: cannot resume: it was played with seed 0, this run uses 9 (resume with the options of the first run, or use another --out)`,
  ]);
  const after = snapshot(out);
  for (const [f, bytes] of before) assert.ok(after.get(f)!.equals(bytes), f);
});

test("a resumed file that is corrupt before its last line is played again, not trusted", () => {
  const out = tempDir("resume-corrupt");
  assert.equal(runCli([...RUN, "--out", out]).status, 0);
  const file = join(out, "find_temperature_adapted.trial-2.trajectory.jsonl");
  const good = readFileSync(file, "utf8");
  const broken = good.split("\n");
  broken[2] = "{ not json";
  writeFileSync(file, broken.join("\n"));
  const r = runCli([...RUN, "--resume", "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(file, "utf8"), good);
  assert.equal(readTrajectoryFile(file).evaluation?.score, 1);
});

test("--resume refuses files of an edited scenario, naming both versions by the digest in their headers", () => {
  const dir = tempDir("resume-edited");
  const scenario = join(dir, "cellular_off_adapted.scenario.yaml");
  const source = readFileSync(SCENARIOS[0]!, "utf8");
  writeFileSync(scenario, source);
  const out = join(dir, "out");
  assert.equal(runCli(["run", scenario, "--out", out]).status, 0);
  const file = join(out, "cellular_off_adapted.trajectory.jsonl");
  const digestOf = (): string => (JSON.parse(readFileSync(file, "utf8").split("\n")[0]!) as { scenario_digest: string }).scenario_digest;
  const played = digestOf();
  const before = readFileSync(file);
  assert.ok(source.includes("The simplest state change"));
  writeFileSync(scenario, source.replace("The simplest state change", "The plainest state change"));
  const r = runCli(["run", scenario, "--resume", "--out", out]);
  assert.equal(r.status, 2);
  const [line, ...rest] = lines(r.stderr);
  assert.deepEqual(rest, []);
  const named = /it was played from another version of the scenario \((sha256:[0-9a-f]{16}); this run's is (sha256:[0-9a-f]{16})\)/.exec(
    line ?? "",
  );
  assert.ok(named, line);
  assert.equal(named[1], played);
  assert.notEqual(named[2], played);
  assert.ok(readFileSync(file).equals(before), "the refused file is left as it was");
});

test("--resume keeps the complete files of a run written before headers carried the scenario's digest", () => {
  const out = tempDir("resume-older");
  assert.equal(runCli([...RUN, "--out", out]).status, 0);
  for (const f of readdirSync(out).filter((n) => n.endsWith(".trajectory.jsonl"))) {
    const text = readFileSync(join(out, f), "utf8");
    const older = text.replace(/"scenario_digest":"sha256:[0-9a-f]{16}",/, "");
    assert.notEqual(older, text, f);
    writeFileSync(join(out, f), older);
  }
  const r = runCli([...RUN, "--resume", "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(lines(r.stderr), ["toolsandbox: resuming: 4 of 4 episodes already complete, 0 to play"]);
});
