import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

const SCENARIO = "test/fixtures/scenarios/suite/text_with_cellular_off.scenario.yaml";
let out = "";
let trajectory = "";

after(removeTempDirs);
before(() => {
  requireBuild();
  out = tempDir("eval");
  const r = runCli(["run", SCENARIO, "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  trajectory = join(out, "text_with_cellular_off.trajectory.jsonl");
});

interface NodeJson {
  id: string;
  matched_at: number | null;
  similarity: number;
  explained_at: number | null;
  constraints: { kind: string; table: string; similarity: number; explanation: { reason: string | null } }[];
}
interface ReportJson {
  file: string;
  scenario: string;
  scored_against: string;
  end_reason: string | null;
  score: number;
  milestone_score: number;
  minefield_score: number;
  turn_count: number;
  zero_reason: string | null;
  milestones: NodeJson[];
  minefields: NodeJson[];
}

/** The `trajectories` of `eval --json` (its pass^k is tested in eval-peers.test.ts). */
function evalJson(args: readonly string[]): ReportJson[] {
  const r = runCli(["eval", "--json", ...args]);
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as { trajectories: ReportJson[] }).trajectories;
}

/** The scenario file with one text replaced (the edit an author makes). */
function edited(from: string, to: string, name = "edited.scenario.yaml"): string {
  const text = readFileSync(SCENARIO, "utf8");
  assert.ok(text.includes(from), `the fixture no longer contains ${from}`);
  const file = join(tempDir("edit"), name);
  writeFileSync(file, text.replace(from, to));
  return file;
}

test("--json lists one object per trajectory: scenario, score, turn count, and where each milestone matched", () => {
  const [report, ...rest] = evalJson([trajectory]);
  assert.equal(rest.length, 0);
  assert.ok(report);
  assert.equal(report.file, trajectory);
  assert.equal(report.scenario, "text_with_cellular_off");
  assert.equal(report.scored_against, "embedded");
  assert.equal(report.end_reason, "end_conversation");
  assert.deepEqual([report.score, report.milestone_score, report.minefield_score, report.turn_count], [1, 1, 0, 7]);
  assert.deepEqual(
    report.milestones.map((m) => [m.id, typeof m.matched_at, m.similarity]),
    [
      ["cellular_on", "number", 1],
      ["sent", "number", 1],
    ],
  );
  assert.ok(report.milestones[0]!.matched_at! <= report.milestones[1]!.matched_at!, "sent comes after cellular_on");
  assert.deepEqual(report.minefields, []);
  // The score `run` stored after the end event is the one eval recomputes.
  const stored = JSON.parse(readFileSync(trajectory, "utf8").trimEnd().split("\n").at(-1)!) as { type: string; result: unknown };
  assert.equal(stored.type, "evaluation");
  const {
    file: _file,
    scenario: _scenario,
    scored_against: _against,
    categories: _categories,
    end_reason: _end,
    peers: _peers,
    status,
    damaged,
    agent: _agent,
    user: _user,
    prompts: _prompts,
    augmentation: _augmentation,
    group: _group,
    scenario_digest: _digest,
    content_digest: _content,
    copy_of: _copy,
    ...recomputed
  } = report as ReportJson & { categories: unknown; peers: unknown; status: string; damaged: string | null } & Record<
      "agent" | "user" | "prompts" | "augmentation" | "group" | "scenario_digest" | "content_digest" | "copy_of",
      unknown
    >;
  // A whole run that ended of its own: its score counts.
  assert.deepEqual([status, damaged], ["scored", null]);
  assert.deepEqual(recomputed, stored.result);
});

test("editing a milestone and re-running eval changes the score, without running anything", () => {
  const before = readFileSync(trajectory);
  const filesBefore = readdirSync(out).sort();
  // The message went to +12453344098; a milestone expecting another recipient now misses.
  const scenario = edited('recipient_phone_number: "+12453344098"', 'recipient_phone_number: "+10000000000"');
  const [report] = evalJson([trajectory, "--scenario", scenario]);
  assert.ok(report);
  assert.equal(report.scored_against, scenario);
  assert.equal(report.score, 0.5);
  const sent = report.milestones.find((m) => m.id === "sent")!;
  assert.equal(sent.matched_at, null);
  assert.equal(sent.similarity, 0);
  assert.equal(sent.constraints[0]?.kind, "addition");
  // Nothing was played or written: the trajectory and the directory are as they were.
  assert.ok(readFileSync(trajectory).equals(before));
  assert.deepEqual(readdirSync(out).sort(), filesBefore);

  // A milestone that asks for less than happened still matches fully.
  const looser = edited("content: See you at rehearsal }", "content: See you }");
  const [partial] = evalJson([trajectory, "--scenario", looser]);
  assert.ok(partial && partial.score < 1 && partial.score > 0.5, String(partial?.score));
});

test("the human output is a per-milestone table whose WHY column explains a miss", () => {
  const scenario = edited('recipient_phone_number: "+12453344098"', 'recipient_phone_number: "+10000000000"');
  const r = runCli(["eval", trajectory, "--scenario", scenario]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, "");
  const out = lines(r.stdout);
  assert.equal(out[0], trajectory);
  assert.equal(out[1], `  scenario  text_with_cellular_off (scored against ${scenario})`);
  assert.equal(out[2], "  score 0.50 (milestones 0.50, minefields 0.00), 7 turns");
  assert.match(out[3]!, /^ {2}KIND +ID +AT +SIMILARITY +WHY$/);
  assert.match(out[4]!, /^ {2}milestone +cellular_on +\d+ +1\.00$/);
  assert.match(
    out[5]!,
    /^ {2}milestone +sent +- +0\.00 +no match; closest at \d+: MESSAGING addition vs initial@\d+ 0\.00: recipient_phone_number: found "\+12453344098", expected "\+10000000000"$/,
  );
  // Then the peer metrics (eval-peers.test.ts).
  assert.match(out[6]!, /^ {2}tooltalk /);
  assert.match(out[7]!, /^ {2}toolscan /);
  assert.equal(out.length, 8);
});

test("a trajectory written before evaluations were recorded is scored the same", () => {
  const text = readFileSync(trajectory, "utf8").trimEnd().split("\n");
  const old = join(tempDir("old"), "old.trajectory.jsonl");
  writeFileSync(old, `${text.slice(0, -1).join("\n")}\n`);
  const [report] = evalJson([old]);
  assert.equal(report?.score, 1);
  assert.equal(report?.turn_count, 7);
});

test("a directory is searched for trajectories, and several get the per-category table and the mean", () => {
  const dir = tempDir("many");
  copyFileSync(trajectory, join(dir, "a.trajectory.jsonl"));
  const scenario = edited('recipient_phone_number: "+12453344098"', 'recipient_phone_number: "+10000000000"');
  const second = runCli(["run", scenario, "--out", dir]);
  assert.equal(second.status, 0, second.stderr);
  // The edited reference no longer reaches its milestone when played, so that run scores 0.5.
  const r = runCli(["eval", dir]);
  assert.equal(r.status, 0, r.stderr);
  const out = lines(r.stdout);
  assert.ok(out.includes(join(dir, "a.trajectory.jsonl")));
  assert.ok(out.includes(join(dir, "text_with_cellular_off.trajectory.jsonl")));
  // One name, two versions of the scenario: two scenarios of one trial each, so no pass^k.
  assert.ok(
    out.some((l) => /^note: agent scripted .*: scenario text_with_cellular_off was run from 2 versions of its file, /.test(l)),
    r.stdout,
  );
  assert.ok(!out.some((l) => l.includes("pass^")), r.stdout);
  const table = out.findIndex((l) => /^ {2}CATEGORY +SCENARIOS +SCORE +95% CI +TURNS$/.test(l));
  assert.ok(table > 0, r.stdout);
  assert.equal(out[table - 1], "agent scripted · user scripted · prompts own · augmentation none");
  assert.deepEqual(
    out.slice(table + 1).map((l) => l.trim().split(/ +/)),
    [
      // Two scenarios, too few for an interval.
      ["MULTIPLE_TOOL_CALL", "2", "0.75", "[n", "too", "small]", "7.0"],
      ["SINGLE_USER_TURN", "2", "0.75", "[n", "too", "small]", "7.0"],
      ["STATE_DEPENDENCY", "2", "0.75", "[n", "too", "small]", "7.0"],
      ["ALL_CATEGORIES", "2", "0.75", "[n", "too", "small]", "7.0"],
      ["2", "of", "2", "trajectories", "counted,", "2", "scenarios,", "mean", "score", "0.75", "[n", "too", "small]"],
    ],
  );
});

test("scoring against a scenario of another name warns on stderr", () => {
  const renamed = edited("name: text_with_cellular_off", "name: another_name");
  const r = runCli(["eval", "--json", trajectory, "--scenario", renamed]);
  assert.equal(r.status, 0);
  assert.deepEqual(lines(r.stderr), [
    `toolsandbox: ${trajectory}: warning: scored against scenario "another_name" from ${renamed}, but the trajectory ran "text_with_cellular_off"`,
  ]);
  assert.equal((JSON.parse(r.stdout) as { trajectories: ReportJson[] }).trajectories[0]?.scenario, "another_name");
});

test("a --scenario file with errors prints its diagnostics and scores nothing (exit 1)", () => {
  const broken = edited("after: [cellular_on]", "after: [cellular_onn]");
  const r = runCli(["eval", trajectory, "--scenario", broken]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, "");
  const err = lines(r.stderr);
  assert.ok(
    err.some((l) => l.startsWith(`${broken}:`) && / error unknown-milestone: /.test(l)),
    r.stderr,
  );
  assert.equal(err.at(-1), `toolsandbox: ${broken} has errors; nothing was scored`);
});

test("an embedded scenario whose milestones cannot be scored is a malformed trajectory (exit 4, one line)", () => {
  const text = readFileSync(trajectory, "utf8").split("\n");
  const header = JSON.parse(text[0]!) as { scenario: { milestones: { after: string[] }[] } };
  header.scenario.milestones[0]!.after = ["sent"];
  const file = join(tempDir("cycle"), "cycle.trajectory.jsonl");
  writeFileSync(file, [JSON.stringify(header), ...text.slice(1)].join("\n"));
  const r = runCli(["eval", file]);
  assert.equal(r.status, 4);
  assert.equal(r.stdout, "");
  assert.deepEqual(lines(r.stderr), [
    `toolsandbox: ${file}: cannot score the embedded scenario: the milestones' \`after\` edges form a cycle through "cellular_on"`,
  ]);
});

test("a missing trajectory is exit 3", () => {
  const r = runCli(["eval", "nowhere.trajectory.jsonl"]);
  assert.equal(r.status, 3);
  assert.deepEqual(lines(r.stderr), ["toolsandbox: nowhere.trajectory.jsonl: no such file or directory"]);
});

test("replay marks the message each milestone matched at and ends with the scores", () => {
  const [report] = evalJson([trajectory]);
  const r = runCli(["replay", trajectory]);
  assert.equal(r.status, 0, r.stderr);
  const at = report!.milestones[0]!.matched_at!;
  const block = r.stdout.split("\n\n").find((b) => b.startsWith(`[${at}] `));
  assert.ok(block, `no message [${at}]`);
  assert.match(block, /^ {4}✓ milestone cellular_on 1\.00$/m);
  assert.match(r.stdout, /^evaluation +score 1\.00 \(milestones 1\.00, minefields 0\.00\), 7 turns$/m);
  assert.match(r.stdout, /^milestone +sent +\d+ +1\.00$/m);
});
