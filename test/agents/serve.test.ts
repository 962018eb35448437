// `toolsandbox serve` driven by hand with the MCP SDK's own client, over stdio and over Streamable
// HTTP: what the agent sees is what an in-process agent sees, every call is on the bus as in an
// in-process episode, and a client that goes away ends the episode as agent_disconnected with
// its trajectory whole.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Episode } from "../../engine/episode/episode.js";
import { startMockLlm } from "../../engine/mock-llm/server.js";
import { expandAugmentations } from "../../engine/scenario/augmentations/augmentations.js";
import type { AgentRole, AgentTurn } from "../../engine/episode/role.js";
import type { JsonValue } from "../../engine/base/json.js";
import { createScriptedUser } from "../../engine/roles/scripted.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import type { Trajectory } from "../../engine/trajectory/trajectory.js";
import { requireBuild, CLI, removeTempDirs, runCli, tempDir } from "../cli/harness.js";
// @ts-expect-error: a plain JavaScript fixture (the command agent of cmd.test.ts)
import { playSteps } from "../fixtures/agents/reference-agent.mjs";
import { agentToolNames, loadSample, referencePlay, SAMPLES, startServe } from "./helpers.js";

before(requireBuild);
after(removeTempDirs);

const CELLULAR = join(SAMPLES, "cellular_off_adapted.scenario.yaml");
const text = (result: unknown): string => {
  const content = (result as { content: { type: string; text: string }[] }).content;
  return content.map((c) => c.text).join("");
};

function onlyTrajectory(dir: string): Trajectory {
  const files = readdirSync(dir).filter((f) => f.endsWith(".trajectory.jsonl"));
  assert.equal(files.length, 1, `one trajectory in ${dir}: ${files.join(", ")}`);
  return readTrajectoryFile(join(dir, files[0] ?? ""));
}

function stdioClient(file: string, out: string, extra: readonly string[] = []): { client: Client; transport: StdioClientTransport } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", file, "--stdio", "--out", out, ...extra],
    env: { PATH: process.env.PATH ?? "" },
    stderr: "pipe",
  });
  return { client: new Client({ name: "test", version: "1" }), transport };
}

/** What an in-process episode answers a single agent call with (the same scenario, the scripted user). */
async function inProcessAnswer(file: string, call: { name: string; arguments: Record<string, JsonValue> }): Promise<string> {
  const scenario = loadSample(file);
  let asked = 0;
  const agent: AgentRole = {
    id: "probe",
    respond: async (): Promise<AgentTurn> =>
      asked++ === 0 ? { kind: "calls", calls: [{ id: "call_1", ...call }] } : { kind: "text", text: "done" },
  };
  const episode = new Episode({ scenario, agent, user: createScriptedUser(scenario), seed: 0 });
  episode.start();
  await episode.step();
  await episode.step();
  const answer = episode.messages.at(-1);
  assert.equal(answer?.sender, "execution_environment");
  return answer?.content ?? "";
}

test("over stdio: the tools, the opening and the instructions are what the in-process agent is shown", async () => {
  const out = tempDir("serve-list");
  const { client, transport } = stdioClient(CELLULAR, out);
  await client.connect(transport);
  const scenario = loadSample(CELLULAR);
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((t) => t.name),
    [...agentToolNames(scenario), "send_message_to_user", "get_user_message"],
  );
  const prompt = await client.getPrompt({ name: "start_conversation" });
  assert.deepEqual(prompt.messages, [{ role: "user", content: { type: "text", text: scenario.user.opening } }]);
  assert.equal(text(await client.callTool({ name: "get_user_message", arguments: {} })), scenario.user.opening);
  await playSteps(client, referencePlay(scenario));
  await client.close();
  const trajectory = onlyTrajectory(out);
  // The instructions open with the system prompt the agent's first message on the bus holds.
  assert.ok(client.getInstructions()?.startsWith(trajectory.messages[0]?.content ?? "?"));
});

test("over stdio: a client playing the reference scores 1.0 with the same calls, results and world changes as run --agent scripted", async () => {
  const files = [
    "cellular_off_adapted",
    "find_temperature_low_battery_mode_adapted",
    "send_message_with_contact_content_cellular_off_multiple_user_turn_adapted",
  ].map((n) => join(SAMPLES, `${n}.scenario.yaml`));
  const scripted = tempDir("serve-scripted");
  const run = runCli(["run", ...files, "--out", scripted]);
  assert.equal(run.status, 0, run.stderr);
  for (const file of files) {
    const out = tempDir("serve-ref");
    const { client, transport } = stdioClient(file, out);
    await client.connect(transport);
    assert.equal(await playSteps(client, referencePlay(loadSample(file))), "ended");
    await client.close();
    const served = onlyTrajectory(out);
    const name = basename(file, ".scenario.yaml");
    const reference = readTrajectoryFile(join(scripted, `${name}.trajectory.jsonl`));
    assert.equal(served.evaluation?.score, 1, `${name} scores 1`);
    assert.equal(served.end?.reason, "end_conversation");
    assert.equal(served.header.run.agent, "mcp");
    assert.deepEqual(served.messages, reference.messages, `${name}: the same messages`);
    assert.deepEqual(
      served.events.filter((e) => e.type === "world"),
      reference.events.filter((e) => e.type === "world"),
      `${name}: the same world changes`,
    );
  }
});

test("over HTTP: a wrong argument or an unknown tool gets the in-process error text", async () => {
  const out = tempDir("serve-errors");
  const served = startServe(CELLULAR, ["--out", out]);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(await served.url)));
  const wrong = { name: "set_cellular_service_status", arguments: { turn_on: false } };
  const answer = await client.callTool(wrong);
  assert.equal(answer.isError, true);
  assert.equal(text(answer), await inProcessAnswer(CELLULAR, wrong));
  assert.match(text(answer), /missing a required argument: 'on'/);
  const unknown = { name: "set_wifi_status", arguments: { on: false } };
  const unknownAnswer = await client.callTool(unknown);
  assert.equal(unknownAnswer.isError, true);
  assert.equal(text(unknownAnswer), await inProcessAnswer(CELLULAR, unknown));
  await client.close();
  await served.done;
});

test("over HTTP: two calls made at once are one parallel batch; ending the session ends the episode as agent_disconnected", async () => {
  const out = tempDir("serve-parallel");
  const served = startServe(CELLULAR, ["--out", out, "--batch-window", "200"]);
  const transport = new StreamableHTTPClientTransport(new URL(await served.url));
  const client = new Client({ name: "test", version: "1" });
  await client.connect(transport);
  const [a, b] = await Promise.all([
    client.callTool({ name: "set_cellular_service_status", arguments: { on: false } }),
    client.callTool({ name: "set_cellular_service_status", arguments: { on: true } }),
  ]);
  // Each call has the environment's answer (the second may be refused by the tool), not the end's.
  for (const answer of [a, b]) assert.doesNotMatch(text(answer), /episode has ended/);
  await transport.terminateSession();
  await client.close();
  const result = await served.done;
  assert.equal(result.status, 0, result.stderr);
  const trajectory = onlyTrajectory(out);
  assert.equal(trajectory.end?.reason, "agent_disconnected");
  assert.ok(trajectory.evaluation, "the episode was scored");
  const routes = trajectory.messages.filter((m) => !m.scripted).map((m) => `${m.sender}->${m.recipient}`);
  // One agent turn of two calls, then the environment's turn answering both.
  assert.deepEqual(routes, [
    "agent->execution_environment",
    "agent->execution_environment",
    "execution_environment->agent",
    "execution_environment->agent",
  ]);
});

test("over stdio: a client that disconnects mid-episode leaves a readable trajectory ending in agent_disconnected", async () => {
  const out = tempDir("serve-disconnect");
  const { client, transport } = stdioClient(CELLULAR, out);
  await client.connect(transport);
  const exited = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await client.callTool({ name: "set_cellular_service_status", arguments: { on: false } });
  await client.close();
  await exited;
  // The server scores and closes the file after the client has gone; wait for its evaluation line.
  let trajectory: Trajectory | null = null;
  for (let i = 0; i < 100 && trajectory?.evaluation == null; i++) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      trajectory = onlyTrajectory(out);
    } catch {
      trajectory = null;
    }
  }
  assert.ok(trajectory, "the trajectory is readable");
  assert.equal(trajectory.end?.reason, "agent_disconnected");
  assert.ok(trajectory.evaluation, "the episode was scored");
  assert.ok(
    trajectory.messages.some((m) => m.sender === "execution_environment" && m.recipient === "agent"),
    "the call made is on record",
  );
});

test("over HTTP with a model playing the user (mock-llm): the reference played over MCP scores 1.0 and the user's turns are model calls", async () => {
  const file = join(SAMPLES, "remove_contact_by_phone_multiple_user_turn_adapted.scenario.yaml");
  const scenario = loadSample(file);
  const mock = await startMockLlm({ scenarios: [scenario] });
  try {
    const out = tempDir("serve-model-user");
    const served = startServe(file, ["--out", out, "--user", "openai:mock", "--user-base-url", `${mock.url}/v1`]);
    const client = new Client({ name: "test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(await served.url)));
    assert.equal(await playSteps(client, referencePlay(scenario)), "ended");
    await client.close();
    const result = await served.done;
    assert.equal(result.status, 0, result.stderr);
    const trajectory = onlyTrajectory(out);
    assert.equal(trajectory.evaluation?.score, 1);
    assert.equal(trajectory.header.run.user, "openai:mock");
    const userCalls = trajectory.events.filter((e) => e.type === "model_call" && e.role === "user");
    assert.ok(userCalls.length >= 2, `the user model was asked ${userCalls.length} times`);
  } finally {
    await mock.close();
  }
});

test("over stdio with --augment: the variant's scrambled tool names are served, and its reference scores 1.0 as run --augment plays it", async () => {
  const suffix = "3_distraction_tools_tool_name_scrambled";
  const variant = expandAugmentations(loadSample(CELLULAR)).find((v) => v.name.endsWith(suffix));
  assert.ok(variant, "the sample has the variant");
  const scripted = tempDir("serve-augment-run");
  assert.equal(runCli(["run", CELLULAR, "--augment", "--out", scripted]).status, 0);
  const out = tempDir("serve-augment");
  const { client, transport } = stdioClient(CELLULAR, out, ["--augment", suffix]);
  await client.connect(transport);
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((t) => t.name),
    [...agentToolNames(variant), "send_message_to_user", "get_user_message"],
  );
  assert.ok(!tools.some((t) => t.name === "set_cellular_service_status"), "the real name is not shown");
  assert.equal(await playSteps(client, referencePlay(variant)), "ended");
  await client.close();
  const served = onlyTrajectory(out);
  assert.equal(served.evaluation?.score, 1);
  const reference = readTrajectoryFile(join(scripted, `${variant.name}.trajectory.jsonl`));
  assert.deepEqual(served.messages, reference.messages);
});
