// `toolsandbox play` with its lines piped in, as a scripted session: the reference typed as the
// agent (or as the user) writes a run `eval` scores 1.0; a wrong play scores less and says which
// milestone is missing; bad lines get one line each and the session goes on; /quit ends and the
// run is still written and scored; a model plays the user opposite the person.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm } from "../../engine/mock-llm/server.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { checkLine } from "../../engine/trajectory/schema.js";
import { trajectoryLine } from "../../client/webview/validate/trajectory-line.js";
import { referenceLines } from "../roles/reference-lines.js";
import { agentToolNames, REFERENCE_AGENT, referencePlay } from "../agents/helpers.js";
// @ts-expect-error: a plain JavaScript fixture
import { playKey } from "../fixtures/agents/reference-agent.mjs";
import { CLI, removeTempDirs, requireBuild, runCli, tempDir } from "./harness.js";

before(requireBuild);
after(removeTempDirs);

const SAMPLES = "sample-scenarios";
const REMOVE = join(SAMPLES, "remove_contact_by_phone_multiple_user_turn_adapted.scenario.yaml");
const SEND = join(SAMPLES, "send_message_with_contact_content_cellular_off_multiple_user_turn_adapted.scenario.yaml");

interface Played {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The trajectory the run wrote (the one file in its --out). */
  readonly trajectory: string;
}

/** Runs `play` with `lines` on its stdin (a pipe, not a terminal), without blocking this process. */
function play(file: string, args: readonly string[], lines: readonly string[]): Promise<Played> {
  const out = tempDir("play");
  const child = spawn(process.execPath, [CLI, "play", file, "--out", out, ...args], { env: { PATH: process.env.PATH ?? "" } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(lines.map((l) => `${l}\n`).join(""));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status) => {
      const files = readdirSync(out).filter((f) => f.endsWith(".trajectory.jsonl"));
      assert.equal(files.length, 1, `one trajectory in ${out}: ${files.join(", ")}\n${stderr}`);
      resolve({ status, stdout, stderr, trajectory: join(out, files[0]!) });
    });
  });
}

function scenarioOf(file: string): Scenario {
  const { scenario } = loadScenarioFile(file);
  assert.ok(scenario, file);
  return scenario;
}

/** `eval --json` of one trajectory: its score and status as eval counts them. */
function evaluated(trajectory: string): {
  score: number;
  status: string;
  end_reason: string | null;
  milestones: { id: string; matched_at: number | null }[];
} {
  const r = runCli(["eval", trajectory, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout) as {
    trajectories: { score: number; status: string; end_reason: string | null; milestones: { id: string; matched_at: number | null }[] }[];
  };
  return report.trajectories[0]!;
}

/** Every line matches the trajectory schema and the panel's validator, and the file reads back without warnings. */
function assertValidRun(trajectory: string): void {
  for (const [i, line] of readFileSync(trajectory, "utf8").trimEnd().split("\n").entries()) {
    const check = checkLine(JSON.parse(line));
    assert.ok(check.ok, `${trajectory}:${i + 1}: ${check.ok ? "" : check.error}`);
    assert.doesNotThrow(() => trajectoryLine(JSON.parse(line), `line ${i + 1}`));
  }
  assert.deepEqual(readTrajectoryFile(trajectory).warnings, []);
}

test("the reference piped in as the agent's lines writes a run that eval scores 1.0, the agent recorded as human", async () => {
  const lines = referenceLines(scenarioOf(REMOVE), "agent");
  assert.deepEqual(lines.slice(1, 3), [
    'search_contacts(phone_number="+12453344098")',
    'remove_contact(person_id="9e137f06-916a-5310-8174-cf0b7e9f7054")',
  ]);
  const r = await play(REMOVE, ["--as", "agent"], lines);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, "");
  // The tools are listed with their parameters, each call answered with its result and the rows it changed.
  assert.match(r.stdout, /^ {2}search_contacts\(.*phone_number\?: string.*\)/m);
  assert.match(
    r.stdout,
    /^agent> remove_contact\(person_id="9e137f06-916a-5310-8174-cf0b7e9f7054"\)\n {2}result: None\n {2}world: - CONTACT person_id="9e137f06/m,
  );
  assert.match(r.stdout, /^ {2}milestone contact_removed matched at message \d+ \(similarity 1\.00\)$/m);
  assert.match(r.stdout, /^score 1\.00$/m);
  assertValidRun(r.trajectory);
  const header = readTrajectoryFile(r.trajectory).header;
  assert.equal(header.run.agent, "human");
  assert.equal(header.run.user, "scripted");
  const scored = evaluated(r.trajectory);
  assert.equal(scored.score, 1);
  assert.equal(scored.status, "scored");
  assert.equal(scored.end_reason, "end_conversation");
});

test("a wrong play scores less, and the lines name the milestone it missed", async () => {
  // The contact is looked up but never removed.
  const lines = referenceLines(scenarioOf(REMOVE), "agent").filter((l) => !l.startsWith("remove_contact("));
  const r = await play(REMOVE, ["--as", "agent"], lines);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^ {2}milestone searched_by_phone matched at message \d+ \(similarity 1\.00\)$/m);
  assert.doesNotMatch(r.stdout, /milestone contact_removed matched/);
  assert.match(r.stdout, /^milestone contact_removed not matched \(best similarity [\d.]+\)/m);
  const scored = evaluated(r.trajectory);
  assert.ok(scored.score < 1, String(scored.score));
  assert.equal(scored.milestones.find((m) => m.id === "contact_removed")?.matched_at, null);
});

test("as the user, with the scripted agent, the user's lines play to 1.0 and the user is recorded as human", async () => {
  const scenario = scenarioOf(SEND);
  const lines = referenceLines(scenario, "user");
  assert.ok(lines.length >= 1);
  const r = await play(SEND, ["--as", "user"], lines);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^your goal: ${scenario.user.goal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m"));
  // The agent's calls and messages are shown as they happen.
  assert.match(r.stdout, /^agent calls \w+\(/m);
  assert.match(r.stdout, /^agent: /m);
  assert.match(r.stdout, /^score 1\.00$/m);
  assertValidRun(r.trajectory);
  const header = readTrajectoryFile(r.trajectory).header;
  assert.equal(header.run.agent, "scripted");
  assert.equal(header.run.user, "human");
  assert.equal(evaluated(r.trajectory).score, 1);
});

test("bad lines get one line each on stderr and the session goes on", async () => {
  const good = referenceLines(scenarioOf(REMOVE), "agent");
  const bad = [
    'serch_contacts(phone_number="+12453344098")',
    'search_contacts(phone_number="+12453344098"',
    "search_contacts(phone_number=+1245)",
    'search_contacts(phone="+12453344098")',
    "   ",
  ];
  const r = await play(REMOVE, ["--as", "agent"], [good[0]!, ...bad, ...good.slice(1)]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stderr.trimEnd().split("\n"), [
    'toolsandbox: serch_contacts is not a tool the agent may call here. Did you mean "search_contacts"?',
    'toolsandbox: search_contacts: the call is not closed (end it with ")")',
    "toolsandbox: search_contacts: expected a value at column 14 of the arguments",
    'toolsandbox: search_contacts has no argument phone (it takes person_id, name, phone_number, relationship, is_self). Did you mean "phone_number"?',
  ]);
  // None of them reached the run: its only calls are the reference's.
  const calls = readTrajectoryFile(r.trajectory).messages.filter((m) => m.tool_call !== undefined && m.sender === "agent");
  assert.equal(calls.length, 2);
  assert.match(r.stdout, /^score 1\.00$/m);
});

test("/quit ends the episode; the run is still written and scored", async () => {
  const lines = referenceLines(scenarioOf(REMOVE), "agent");
  const r = await play(REMOVE, ["--as", "agent"], [lines[0]!, lines[1]!, "/quit", ...lines.slice(2)]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^end: script_exhausted \(the person playing the agent quit\)/m);
  assertValidRun(r.trajectory);
  const scored = evaluated(r.trajectory);
  assert.equal(scored.status, "scored");
  assert.ok(scored.score < 1);
  // The calls before /quit are in the run.
  const calls = readTrajectoryFile(r.trajectory).messages.filter((m) => m.tool_call?.name === "search_contacts");
  assert.equal(calls.length, 1);

  const asUser = await play(REMOVE, ["--as", "user"], ["/quit", "never read"]);
  assert.equal(asUser.status, 0, asUser.stderr);
  assert.match(asUser.stdout, /^end: end_conversation/m);
  assert.equal(evaluated(asUser.trajectory).status, "scored");
});

test("a model plays the other seat: the user (--user openai:MODEL) or the agent (--agent openai:MODEL)", async () => {
  const scenario = scenarioOf(REMOVE);
  const mock = await startMockLlm({ scenarios: [scenario] });
  try {
    const r = await play(
      REMOVE,
      ["--as", "agent", "--user", "openai:mock", "--base-url", `${mock.url}/v1`],
      referenceLines(scenario, "agent"),
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^play \S+ as the agent \(the user: a model\)$/m);
    const header = readTrajectoryFile(r.trajectory).header;
    assert.equal(header.run.agent, "human");
    assert.equal(header.run.user, "openai:mock");
    assert.equal(header.run.user_settings?.base_url, `${mock.url}/v1`);
    assert.equal(evaluated(r.trajectory).score, 1);

    // And a model as the agent opposite the person playing the user.
    const asUser = await play(
      REMOVE,
      ["--as", "user", "--agent", "openai:mock", "--base-url", `${mock.url}/v1`],
      referenceLines(scenario, "user"),
    );
    assert.equal(asUser.status, 0, asUser.stderr);
    assert.match(asUser.stdout, /^play \S+ as the user \(the agent: a model\)$/m);
    assert.match(asUser.stdout, /^agent calls search_contacts\(phone_number="\+12453344098"\)$/m);
    const userHeader = readTrajectoryFile(asUser.trajectory).header;
    assert.deepEqual([userHeader.run.agent, userHeader.run.user], ["openai:mock", "human"]);
    assert.equal(evaluated(asUser.trajectory).score, 1);
  } finally {
    await mock.close();
  }
});

test("the side the person plays takes no role option, and --as is required", () => {
  const asAgent = runCli(["play", REMOVE, "--as", "agent", "--agent", "scripted", "--out", tempDir("play-usage")]);
  assert.equal(asAgent.status, 2);
  assert.equal(asAgent.stderr.trim(), "toolsandbox: --agent does not apply to --as agent: you play the agent");
  const asUser = runCli(["play", REMOVE, "--as", "user", "--user", "scripted", "--out", tempDir("play-usage")]);
  assert.equal(asUser.status, 2);
  assert.equal(asUser.stderr.trim(), "toolsandbox: --user does not apply to --as user: you play the user");
  const missing = runCli(["play", REMOVE, "--out", tempDir("play-usage")]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--as/);
});

test("the same lines, scenario and seed give the same trajectory, byte for byte", async () => {
  const lines = referenceLines(scenarioOf(REMOVE), "agent");
  const [a, b] = await Promise.all([
    play(REMOVE, ["--as", "agent", "--seed", "4"], lines),
    play(REMOVE, ["--as", "agent", "--seed", "4"], lines),
  ]);
  assert.equal(readFileSync(a.trajectory, "utf8"), readFileSync(b.trajectory, "utf8"));
});

test("Ctrl-C cancels the episode waiting on the person: exit 130, the run written and scored", async () => {
  const out = tempDir("play-interrupt");
  const child = spawn(process.execPath, [CLI, "play", REMOVE, "--as", "agent", "--out", out], { env: { PATH: process.env.PATH ?? "" } });
  let stdout = "";
  let sent = false;
  // The opening message is shown just before the first line is asked for; stdin stays open.
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    // Once: a second Ctrl-C ends the process at once, as for run.
    if (!sent && /^user: /m.test(stdout)) sent = child.kill("SIGINT");
  });
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  assert.equal(status, 130, stdout);
  assert.match(stdout, /^end: cancelled/m);
  const [file] = readdirSync(out).filter((f) => f.endsWith(".trajectory.jsonl"));
  assert.ok(file);
  assertValidRun(join(out, file));
  assert.equal(evaluated(join(out, file)).status, "unscored");
});

test("as the user opposite an outside agent (--agent cmd:): the user's lines play to 1.0", async () => {
  const scenario = scenarioOf(REMOVE);
  const dir = tempDir("play-cmd");
  const plays = join(dir, "plays.json");
  writeFileSync(plays, JSON.stringify({ [playKey(scenario.user.opening, agentToolNames(scenario)) as string]: referencePlay(scenario) }));
  const r = await play(REMOVE, ["--as", "user", "--agent", `cmd:node '${REFERENCE_AGENT}' '${plays}'`], referenceLines(scenario, "user"));
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^play \S+ as the user \(the agent: an outside agent\)$/m);
  assert.match(r.stdout, /^agent calls remove_contact\(person_id="9e137f06-916a-5310-8174-cf0b7e9f7054"\)$/m);
  const header = readTrajectoryFile(r.trajectory).header;
  assert.equal(header.run.user, "human");
  assert.match(header.run.agent, /^cmd:/);
  assert.equal(evaluated(r.trajectory).score, 1);
});
