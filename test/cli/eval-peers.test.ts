// The peer benchmarks' numbers as a user meets them: ToolTalk's and ToolScan's metrics in `eval`
// (text and --json), the ToolScan tags on the calls `replay` prints, the `peers` object of
// summary.json, pass^k over trials in `eval` (groups, copies and edited scenarios: eval-groups.test.ts),
// and `run --feedback toolscan`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { feedbackRunOptions, withFeedback } from "../../engine/episode/call-feedback.js";
import { Episode } from "../../engine/episode/episode.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import { TrajectoryWriter } from "../../engine/trajectory/writer.js";
import { queuedRoles } from "../episode/harness.js";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";
import { playTrial } from "./played-trials.js";

// The reference sends the text before turning cellular on (that send fails), then sends it again.
const SCENARIO = "test/fixtures/scenarios/suite/text_with_cellular_off.scenario.yaml";
const NAME = "text_with_cellular_off";
let out = "";
let trajectory = "";

after(removeTempDirs);
before(() => {
  requireBuild();
  out = tempDir("peers");
  const r = runCli(["run", SCENARIO, "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  trajectory = join(out, `${NAME}.trajectory.jsonl`);
});

interface PeersJson {
  tooltalk: {
    metrics: {
      precision: number;
      recall: number;
      action_precision: number;
      bad_action_rate: number;
      success: boolean;
      soft_success: number;
    };
    predictions: { message_index: number; tool: string; outcome: string; match: string | null }[];
  };
  toolscan: {
    counts: Record<string, number>;
    calls: { message_index: number; tool: string; tags: string[]; feedback: string | null }[];
    incorrect_values: string[];
  };
}
interface PassHatKJson {
  threshold: number;
  tasks: { task: string; trials: number; successes: number }[];
  pass_hat_k: { k: number; value: number }[];
  average_score: number;
  estimator: string;
}
interface EvalJson {
  trajectories: { file: string; scenario: string; score: number; peers: PeersJson | null }[];
  groups: { key: string; pass_hat_k: PassHatKJson | null }[];
  duplicates: { file: string; copy_of: string }[];
}

function evalJson(args: readonly string[]): EvalJson {
  const r = runCli(["eval", "--json", ...args]);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as EvalJson;
}

/** The fixture with every occurrence of `from` replaced, as a new scenario file. */
function edited(from: string, to: string): string {
  const text = readFileSync(SCENARIO, "utf8");
  assert.ok(text.includes(from), `the fixture no longer contains ${from}`);
  const file = join(tempDir("edit"), "edited.scenario.yaml");
  writeFileSync(file, text.replaceAll(from, to));
  return file;
}

test("eval prints ToolTalk's metrics and ToolScan's counts under each trajectory, with the calls behind each count", () => {
  const r = runCli(["eval", trajectory]);
  assert.equal(r.status, 0, r.stderr);
  const out = lines(r.stdout);
  // The first send failed (cellular off), so only the second matches a reference send; it repeats the first.
  assert.deepEqual(out.slice(-2), [
    "  tooltalk  precision 0.67  recall 0.67  action precision 0.67  incorrect action rate 0.00  success no  soft success 0.67",
    "  toolscan  IAC 1 (send_message_with_phone_number)  IAV 0  IAN 0  IAT 0  RAC 1 (at 21)  IFN 0  IFE 0",
  ]);
});

test("eval --json has the full peer metrics per trajectory: ToolTalk's matches and ToolScan's tag on each call", () => {
  const [report, ...rest] = evalJson([trajectory]).trajectories;
  assert.equal(rest.length, 0);
  const peers = report!.peers!;
  assert.deepEqual(
    peers.tooltalk.predictions.map((p) => [p.message_index, p.tool, p.outcome, p.match]),
    [
      [17, "send_message_with_phone_number", "failed", null],
      [19, "set_cellular_service_status", "succeeded", "call_2_1"],
      [21, "send_message_with_phone_number", "succeeded", "call_1_1"],
    ],
  );
  assert.equal(peers.tooltalk.metrics.success, false);
  assert.deepEqual(
    peers.toolscan.calls.map((c) => [c.message_index, c.tags]),
    [
      [17, []],
      [19, []],
      [21, ["RAC"]],
    ],
  );
  assert.deepEqual(peers.toolscan.counts, { IAC: 1, IAV: 0, IAN: 0, IAT: 0, RAC: 1, IFN: 0, IFE: 0 });
});

test("scored against a scenario with another reference, the peer metrics compare with that reference", () => {
  const other = edited('{ phone_number: "+12453344098"', '{ phone_number: "+10000000000"');
  const [report] = evalJson([trajectory, "--scenario", other]).trajectories;
  const peers = report!.peers!;
  assert.equal(peers.tooltalk.metrics.recall, 1 / 3);
  // Both reference sends name a number the agent never sent to.
  assert.deepEqual(peers.toolscan.incorrect_values, ["call_1_1", "call_3_1"]);
  assert.equal(peers.toolscan.counts.IAV, 2);
});

test("replay shows each tagged call's ToolScan patterns on its call line and ends with the peer metrics", () => {
  const r = runCli(["replay", trajectory]);
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout.split("\n");
  const calls = out.filter((l) => l.startsWith("    call "));
  assert.deepEqual(
    calls.map((l) => /\[ToolScan: (.*)\]$/.exec(l)?.[1] ?? null),
    [null, null, "RAC", null],
  );
  assert.match(calls[2]!, /^ {4}call send_message_with_phone_number \{.*\} {2}\(id call_3_1\) {2}\[ToolScan: RAC\]$/);
  assert.deepEqual(
    out.filter((l) => /^(tooltalk|toolscan) /.test(l)),
    [
      "tooltalk    precision 0.67  recall 0.67  action precision 0.67  incorrect action rate 0.00  success no  soft success 0.67",
      "toolscan    IAC 1 (send_message_with_phone_number)  IAV 0  IAN 0  IAT 0  RAC 1 (at 21)  IFN 0  IFE 0",
    ],
  );
});

test("summary.json gives each scenario's peer metrics in brief, with the tagged calls by message index", () => {
  const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as {
    scenarios: { name: string; peers: { tooltalk: Record<string, unknown>; toolscan: Record<string, unknown> } | null }[];
  };
  const peers = summary.scenarios[0]!.peers!;
  assert.deepEqual(peers.tooltalk, {
    predictions: 3,
    ground_truths: 3,
    matches: 2,
    actions: 3,
    valid_actions: 2,
    bad_actions: 0,
    precision: 2 / 3,
    recall: 2 / 3,
    action_precision: 2 / 3,
    bad_action_rate: 0,
    success: false,
    soft_success: 2 / 3,
  });
  assert.deepEqual(peers.toolscan.counts, { IAC: 1, IAV: 0, IAN: 0, IAT: 0, RAC: 1, IFN: 0, IFE: 0 });
  assert.deepEqual(peers.toolscan.tagged, { IAN: [], IAT: [], RAC: [21], IFN: [], IFE: [] });
});

/** Four trials of one agent, each played with its own seed: three reach both milestones, the fourth stops halfway. */
async function trialsDir(): Promise<string> {
  const dir = tempDir("trials");
  for (const [k, policy] of (["passing", "passing", "passing", "halfway"] as const).entries()) {
    await playTrial(join(dir, `${NAME}.trial-${k + 1}.trajectory.jsonl`), { agent: "queued", seed: k, policy });
  }
  return dir;
}

test("trajectories of one scenario are trials: eval prints and returns pass^k for k up to the number of trials", async () => {
  const dir = await trialsDir();
  const json = evalJson([dir]);
  assert.deepEqual(
    json.trajectories.map((t) => t.score),
    [1, 1, 1, 0.5],
  );
  // No two files are copies of each other: four trials, counted as four.
  assert.deepEqual(json.duplicates, []);
  assert.equal(json.groups.length, 1);
  // 3 successes of 4: pass^k = C(3, k) / C(4, k).
  const { estimator, ...passHatK } = json.groups[0]!.pass_hat_k!;
  assert.match(estimator, /C\(c, k\) \/ C\(n, k\)/);
  assert.deepEqual(passHatK, {
    threshold: 1,
    tasks: [{ task: NAME, trials: 4, successes: 3 }],
    pass_hat_k: [
      { k: 1, value: 0.75 },
      { k: 2, value: 0.5 },
      { k: 3, value: 0.25 },
      { k: 4, value: 0 },
    ],
    average_score: 0.875,
  });

  const r = runCli(["eval", dir]);
  assert.equal(r.status, 0, r.stderr);
  const out = lines(r.stdout);
  const start = out.findIndex((l) => l.startsWith("  pass^k "));
  assert.deepEqual(out.slice(start), [
    "  pass^k over 1 scenario (4 trials each); a trial succeeds when its score is at least 1",
    "  SCENARIO                TRIALS  SUCCESSES",
    `  ${NAME}       4          3`,
    "  pass^1 0.750  pass^2 0.500  pass^3 0.250  pass^4 0.000",
  ]);
});

test("--success-threshold lowers the score a trial needs", async () => {
  const json = evalJson([await trialsDir(), "--success-threshold", "0.5"]);
  const passHatK = json.groups[0]?.pass_hat_k;
  assert.equal(passHatK?.threshold, 0.5);
  assert.deepEqual(
    passHatK?.pass_hat_k.map((p) => p.value),
    [1, 1, 1, 1],
  );
  const bad = runCli(["eval", trajectory, "--success-threshold", "2"]);
  assert.equal(bad.status, 2);
  assert.deepEqual(lines(bad.stderr), [
    'toolsandbox: --success-threshold: the threshold must be a number from 0 to 1, got "2" (see --help)',
  ]);
});

test("scenarios with different numbers of trials give pass^k up to the fewest", () => {
  const dir = tempDir("uneven");
  const trials = runCli(["run", SCENARIO, "--trials", "2", "--out", join(dir, "trials")]);
  assert.equal(trials.status, 0, trials.stderr);
  const other = runCli(["run", "test/fixtures/scenarios/suite/reminder_and_contacts.scenario.yaml", "--out", join(dir, "other")]);
  assert.equal(other.status, 0, other.stderr);
  const json = evalJson([dir]);
  const passHatK = json.groups[0]?.pass_hat_k;
  assert.deepEqual(
    passHatK?.tasks.map((t) => [t.task, t.trials]),
    [
      ["reminder_and_contacts", 1],
      [NAME, 2],
    ],
  );
  assert.deepEqual(passHatK?.pass_hat_k, [{ k: 1, value: 1 }]);
  const out = lines(runCli(["eval", dir]).stdout);
  assert.ok(
    out.includes("  pass^k over 2 scenarios (1 to 2 trials each, so k stops at 1); a trial succeeds when its score is at least 1"),
    out.join("\n"),
  );
  assert.equal(out.at(-1), "  pass^1 1.000");
});

test("without trials there is no pass^k: null in --json and nothing printed", () => {
  assert.equal(evalJson([trajectory]).groups[0]?.pass_hat_k, null);
  assert.ok(!runCli(["eval", trajectory]).stdout.includes("pass^"));
});

test("run --feedback toolscan answers invalid calls with ToolScan's texts and records the choice in the header", () => {
  const dir = tempDir("feedback");
  const r = runCli(["run", SCENARIO, "--out", dir, "--feedback", "toolscan"]);
  assert.equal(r.status, 0, r.stderr);
  const header = JSON.parse(readFileSync(join(dir, `${NAME}.trajectory.jsonl`), "utf8").split("\n")[0]!) as {
    run: { options: Record<string, unknown> };
    scenario: { options: Record<string, unknown> };
  };
  assert.deepEqual(header.run.options, { feedback: "toolscan" });
  assert.equal(header.scenario.options.feedback, "toolscan");
  // Without the option the header is as before.
  const plain = JSON.parse(readFileSync(trajectory, "utf8").split("\n")[0]!) as typeof header;
  assert.deepEqual(plain.run.options, {});
  assert.equal("feedback" in plain.scenario.options, false);
});

test("a saved run with ToolScan feedback replays the feedback the agent got and tags the calls it was about", async () => {
  const loaded = loadScenarioFile(SCENARIO);
  assert.ok(loaded.scenario);
  const scenario = withFeedback(loaded.scenario, "toolscan");
  const roles = queuedRoles([
    { kind: "calls", calls: [{ id: "c1", name: "turn_on_cellular", arguments: {} }] },
    { kind: "calls", calls: [{ id: "c2", name: "set_cellular_service_status", arguments: { on: "yes" } }] },
    { kind: "calls", calls: [{ id: "c3", name: "set_cellular_service_status", arguments: { on: true } }] },
    {
      kind: "calls",
      calls: [
        { id: "c4", name: "send_message_with_phone_number", arguments: { phone_number: "+12453344098", content: "See you at rehearsal" } },
      ],
    },
    { kind: "text", text: "Sent." },
  ]);
  const file = join(tempDir("saved"), "agent.trajectory.jsonl");
  const writer = TrajectoryWriter.create(file, {
    type: "header",
    format: "toolsandbox-trajectory",
    version: 1,
    scenario,
    run: { agent: "queued", user: "queued", seed: 0, options: feedbackRunOptions(scenario) },
  });
  await new Episode({ scenario, agent: roles.agent, user: roles.user, seed: 0, onEvent: (e) => writer.write(e) }).run();
  writer.close();

  const r = runCli(["replay", file]);
  assert.equal(r.status, 0, r.stderr);
  const blocks = r.stdout.split("\n\n");
  const block = (index: number): string => blocks.find((b) => b.startsWith(`[${index}] `)) ?? "";
  assert.match(block(17), /call turn_on_cellular \{\} {2}\(id c1\) {2}\[ToolScan: IFN\]$/m);
  assert.match(
    block(18),
    /^ {4}! ERROR \| Incorrect function name turn_on_cellular please refer to the list of function calls available \['search_contacts', 'send_message_with_phone_number', 'set_cellular_service_status'\]$/m,
  );
  assert.match(block(19), /\[ToolScan: IAT\]$/m);
  assert.match(
    block(20),
    /^ {4}! ERROR \| Incorrect argument type for on for function set_cellular_service_status, Valid argument type is <class 'bool'>$/m,
  );
  assert.doesNotMatch(block(21), /ToolScan/);

  const [report] = evalJson([file]).trajectories;
  assert.equal(report!.score, 1);
  assert.deepEqual(report!.peers!.toolscan.counts, { IAC: 1, IAV: 0, IAN: 0, IAT: 1, RAC: 0, IFN: 1, IFE: 0 });
  // What the peer metrics say ToolScan would have answered is what the agent was answered.
  assert.match(block(18), new RegExp(`! ${escapeRegExp(report!.peers!.toolscan.calls[0]!.feedback!)}$`, "m"));
});

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
