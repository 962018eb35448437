// "Run Scenario with Agent…" under node: the agents of toolsandbox.agents as the extension reads
// them, and a run of one through the live-run path (the runner's episode loop) with the panel's
// pause gate: the fixture agent (test/fixtures/agents/reference-agent.mjs) connects with the MCP
// SDK's client, plays the reference, and the run scores as the scripted one, its output beside it.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commandAgentRun } from "../../client/host/command-agent-run.js";
import { playToFile, type StreamedLine } from "../../client/host/live-run.js";
import { RunGate } from "../../client/host/run-gate.js";
import { readCommandAgents } from "../../client/host/settings.js";
import { createScriptedUser } from "../../engine/roles/scripted.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import type { LiveState } from "../../engine/panel/protocol.js";
// @ts-expect-error: a plain JavaScript fixture
import { playKey } from "../fixtures/agents/reference-agent.mjs";
import { agentToolNames, REFERENCE_AGENT, referencePlay } from "../agents/helpers.js";
import { playScripted, removeTempDirs, resolveScenario, scenarioPath, scenarioText, tempDir } from "./fixtures.js";

after(removeTempDirs);

const from =
  (values: Record<string, unknown>) =>
  (key: string): unknown =>
    values[key];

test("toolsandbox.agents: each entry a name and a command line; a bad entry is named in one line", () => {
  assert.deepEqual(readCommandAgents(from({})), { ok: true, value: [] });
  assert.deepEqual(readCommandAgents(from({ agents: [{ name: " mine ", command: "node agent.mjs", timeLimit: 30 }] })), {
    ok: true,
    value: [{ name: "mine", command: "node agent.mjs", timeLimit: 30, user: "scripted" }],
  });
  const problem = (agents: unknown): string | null => {
    const read = readCommandAgents(from({ agents }));
    return read.ok ? null : read.problem;
  };
  assert.equal(problem({ mine: "node a.mjs" }), 'toolsandbox.agents must be a list of {"name", "command"}, not {"mine":"node a.mjs"}');
  assert.equal(problem([{ name: "a", command: "" }]), 'toolsandbox.agents[0].command must be a non-empty command line, not ""');
  assert.equal(
    problem([{ name: "a", command: "x", timeLimit: 0 }]),
    "toolsandbox.agents[0].timeLimit must be a number of seconds above 0, not 0",
  );
  assert.equal(problem([{ name: "a", command: "x", user: "gpt" }]), 'toolsandbox.agents[0].user must be "scripted" or "model", not "gpt"');
  assert.equal(
    problem([
      { name: "a", command: "x" },
      { name: "a", command: "y" },
    ]),
    'toolsandbox.agents[1].name "a" is used twice',
  );
});

test("a command agent played live: lines streamed as written, held and stepped at the gate, scored 1.0 with the scripted run's calls", async () => {
  const name = "cellular_off_adapted";
  const scenario = resolveScenario(scenarioText(name), scenarioPath(name));
  const dir = tempDir();
  const plays = join(dir, "plays.json");
  writeFileSync(plays, JSON.stringify({ [playKey(scenario.user.opening, agentToolNames(scenario))]: referencePlay(scenario) }));
  const file = join(dir, `${name}.run-1.trajectory.jsonl`);
  const made = commandAgentRun({
    scenario,
    scenarioFile: scenarioPath(name),
    setting: { name: "reference", command: `node '${REFERENCE_AGENT}' '${plays}'`, timeLimit: 60, user: "scripted" },
    cwd: dir,
    file,
    seed: 0,
  });
  assert.ok(!("problem" in made), "problem" in made ? made.problem : "");

  // The panel's gate, starting paused: each Step lets one turn through.
  const states: LiveState[] = [];
  const gate = new RunGate((state) => states.push(state), { startPaused: true });
  let turns = 0;
  const stepper = setInterval(() => gate.control("step"), 20);
  const lines: StreamedLine[] = [];
  const outcome = await playToFile({
    scenario,
    agent: made.agent,
    user: createScriptedUser(scenario),
    around: made.around,
    seed: 0,
    file,
    signal: new AbortController().signal,
    beforeTurn: async () => {
      turns++;
      await gate.beforeTurn();
    },
    onLine: (line) => lines.push(line),
  }).finally(() => {
    clearInterval(stepper);
    gate.finish();
  });

  assert.equal(outcome.engineError, null);
  assert.equal(outcome.end?.reason, "end_conversation");
  assert.equal(outcome.evaluation?.score, 1);
  assert.ok(turns >= 3, `the gate saw every turn (${turns})`);
  assert.ok(states.filter((s) => s === "paused").length >= 2, `held more than once: ${states.join(",")}`);
  const written = readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as unknown);
  assert.deepEqual(lines, written);
  const saved = readTrajectoryFile(file);
  assert.equal(saved.header.run.agent, `cmd:node '${REFERENCE_AGENT}' '${plays}'`);
  // The same tool calls and results as the scripted run of the scenario.
  const scripted = await playScripted(scenario, join(dir, "scripted.trajectory.jsonl"));
  const calls = (path: string) =>
    readTrajectoryFile(path).messages.flatMap((m) =>
      m.tool_call ? [[m.tool_call.name, m.tool_call.arguments]] : m.sender === "execution_environment" ? [[m.content]] : [],
    );
  assert.deepEqual(calls(file), calls(join(dir, "scripted.trajectory.jsonl")));
  assert.equal(scripted.evaluation?.score, 1);
  // The command's output is kept beside the run, as `run --agent cmd:` keeps it.
  const stdout = join(dir, `${name}.run-1.agent-stdout.log`);
  assert.ok(existsSync(stdout));
  assert.match(readFileSync(stdout, "utf8"), /played \d+ steps: ended/);
});

test("a command line that cannot be split is refused, naming the agent", () => {
  const name = "cellular_off_adapted";
  const scenario = resolveScenario(scenarioText(name), scenarioPath(name));
  const made = commandAgentRun({
    scenario,
    scenarioFile: scenarioPath(name),
    setting: { name: "broken", command: "node 'unclosed", timeLimit: null, user: "scripted" },
    cwd: tempDir(),
    file: join(tempDir(), "x.trajectory.jsonl"),
    seed: 0,
  });
  assert.deepEqual(made, { problem: 'toolsandbox.agents "broken": a single quote is not closed' });
});
