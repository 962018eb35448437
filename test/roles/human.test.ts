// The roles a person plays (engine/roles/human.ts), given their lines as an array: as the agent a
// call line is one call and any other line a message, bad call lines are refused and the next line
// read, /quit and the end of the lines stop; as the user each line is said. Played through the one
// runner (playEpisode) opposite the scripted roles, the reference typed as lines scores 1.0.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RoleError, type AgentRequest, type UserRequest } from "../../engine/episode/role.js";
import { toolsFor } from "../../engine/episode/tool-calls.js";
import { packById } from "../../engine/packs/registry.js";
import { createHumanAgent, createHumanUser, type LineSource } from "../../engine/roles/human.js";
import { playEpisode } from "../../engine/runner/play-episode.js";
import { createRolesWithHuman } from "../../engine/runner/role-specs.js";
import { agentFacingName } from "../../engine/scenario/augmentations/scrambling.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { buildScenario } from "../episode/fixtures.js";
import { referenceLines } from "./reference-lines.js";

const dir = mkdtempSync(join(tmpdir(), "toolsandbox-human-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A line source over `lines`, recording the prompts it was asked with. */
function linesOf(lines: readonly string[]): { read: LineSource; prompts: string[] } {
  const queue = [...lines];
  const prompts: string[] = [];
  return {
    prompts,
    read: async (prompt) => {
      prompts.push(prompt);
      return queue.shift() ?? null;
    },
  };
}

const scenario = buildScenario({ allow: ["set_wifi_status", "search_contacts"] });
const agentRequest: AgentRequest = { messages: [], tools: toolsFor(scenario, "agent"), scenario };
const userRequest: UserRequest = { messages: [], scenario };

test("as the agent: a call line is one call with the next id, any other line a message for the user", async () => {
  const { read, prompts } = linesOf(["set_wifi_status(on=False)", "", "search_contacts(name='Fredrik', is_self=false)", "Wifi is off."]);
  const agent = createHumanAgent({ read, refuse: () => assert.fail("nothing to refuse") });
  assert.equal(agent.id, "human");
  assert.deepEqual(await agent.respond(agentRequest), {
    kind: "calls",
    calls: [{ id: "call_1", name: "set_wifi_status", arguments: { on: false } }],
  });
  assert.deepEqual(await agent.respond(agentRequest), {
    kind: "calls",
    calls: [{ id: "call_2", name: "search_contacts", arguments: { name: "Fredrik", is_self: false } }],
  });
  assert.deepEqual(await agent.respond(agentRequest), { kind: "text", text: "Wifi is off." });
  // The empty line was skipped, not sent.
  assert.deepEqual(prompts, ["agent> ", "agent> ", "agent> ", "agent> "]);
});

test("as the agent: bad call lines are refused with one line each, and the next line is read", async () => {
  const refused: string[] = [];
  const { read } = linesOf([
    "set_wifi_status(on=False",
    "set_wifi(on=False)",
    "set_cellular_service_status(on=False)",
    "set_wifi_status(on=maybe)",
    "set_wifi_status(onn=False)",
    "set_wifi_status(on=False)",
  ]);
  const agent = createHumanAgent({ read, refuse: (p) => refused.push(p) });
  assert.deepEqual(await agent.respond(agentRequest), {
    kind: "calls",
    calls: [{ id: "call_1", name: "set_wifi_status", arguments: { on: false } }],
  });
  assert.deepEqual(refused, [
    'set_wifi_status: the call is not closed (end it with ")")',
    'set_wifi is not a tool the agent may call here. Did you mean "set_wifi_status"?',
    // A tool of the pack the scenario does not allow is not the agent's to call.
    "set_cellular_service_status is not a tool the agent may call here.",
    "set_wifi_status: expected a value at column 4 of the arguments",
    'set_wifi_status has no argument onn (it takes on). Did you mean "on"?',
  ]);
});

test("as the agent: /quit and the end of the lines stop the episode as a script that has run out", async () => {
  for (const [lines, message] of [
    [["/quit"], "the person playing the agent quit"],
    [[], "the input of the person playing the agent ended"],
  ] as const) {
    const agent = createHumanAgent({ ...linesOf(lines), refuse: () => undefined });
    await assert.rejects(agent.respond(agentRequest), (e: unknown) => {
      assert.ok(e instanceof RoleError);
      assert.equal(e.reason, "script_exhausted");
      assert.equal(e.message, message);
      return true;
    });
  }
});

test("as the agent with scrambled tool names: the person calls the names the agent is shown", async () => {
  const scrambled = { ...scenario, options: { ...scenario.options, augmentations: ["tool_name_scrambled" as const] } };
  const facing = agentFacingName("set_wifi_status", ["tool_name_scrambled"], packById("toolsandbox").tools);
  assert.notEqual(facing, "set_wifi_status");
  const refused: string[] = [];
  const agent = createHumanAgent({ ...linesOf(["set_wifi_status(on=False)", `${facing}(on=False)`]), refuse: (p) => refused.push(p) });
  const turn = await agent.respond({ ...agentRequest, scenario: scrambled });
  assert.deepEqual(turn, { kind: "calls", calls: [{ id: "call_1", name: facing, arguments: { on: false } }] });
  assert.equal(refused.length, 1);
  assert.match(refused[0]!, /^set_wifi_status is not a tool the agent may call here\./);
});

test("as the user: each non-empty line is said; /quit or the end of the lines ends the conversation", async () => {
  const user = createHumanUser({ ...linesOf(["", "  Turn it off, please. ", "/quit"]), refuse: () => undefined });
  assert.equal(user.id, "human");
  assert.deepEqual(await user.respond(userRequest), { kind: "text", text: "Turn it off, please." });
  assert.deepEqual(await user.respond(userRequest), { kind: "end_conversation" });
  assert.deepEqual(await user.respond(userRequest), { kind: "end_conversation" });
});

test("through the runner, every sample's reference typed as either side scores 1.0 and the header names the person human", async () => {
  const files = readdirSync("sample-scenarios").filter((f) => f.endsWith(".scenario.yaml"));
  assert.equal(files.length, 29);
  for (const f of files) {
    const { scenario: sample } = loadScenarioFile(join("sample-scenarios", f));
    assert.ok(sample, f);
    await playedAsEitherSide(sample);
  }
});

async function playedAsEitherSide(sample: Scenario): Promise<void> {
  for (const side of ["agent", "user"] as const) {
    const source = { ...linesOf(referenceLines(sample, side)), refuse: (p: string) => assert.fail(p) };
    const human = side === "agent" ? { as: side, role: createHumanAgent(source) } : { as: side, role: createHumanUser(source) };
    const { agent, user } = createRolesWithHuman(human, "scripted", sample);
    const file = join(dir, `${sample.name}.${side}.trajectory.jsonl`);
    const played = await playEpisode({ scenario: sample, agent, user, seed: 0, file, signal: new AbortController().signal });
    assert.equal(played.evaluation?.score, 1, `${sample.name} as the ${side}`);
    assert.equal(played.end?.reason, "end_conversation", `${sample.name} as the ${side}`);
    const { header } = readTrajectoryFile(file);
    assert.equal(header.run[side], "human");
    assert.equal(header.run[side === "agent" ? "user" : "agent"], "scripted");
  }
}
