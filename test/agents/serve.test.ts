// `toolsandbox serve` driven by hand with the MCP SDK's own client, over stdio and over Streamable
// HTTP: what the agent sees is what an in-process agent sees, every call is on the bus as in an
// in-process episode, and a client that goes away ends the episode as agent_disconnected with
// its trajectory whole.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
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
import { requireBuild, CLI, lines, removeTempDirs, runCli, runCliAsync, tempDir } from "../cli/harness.js";
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
  // An episode the agent left before its end is errored, and an errored episode fails serve (docs/cli.md).
  assert.equal(result.status, 1, result.stderr);
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

/** `serve --stdio` spoken to in raw lines, as a client written from the spec writes them (the SDK client cannot send some of them). */
function rawStdioServe(out: string): {
  write(text: string): void;
  end(): void;
  answer(id: number): Promise<Record<string, unknown>>;
  done: Promise<{ status: number | null; stderr: string }>;
} {
  const child = spawn(process.execPath, [CLI, "serve", CELLULAR, "--stdio", "--out", out], { env: { PATH: process.env.PATH ?? "" } });
  let stdout = "";
  let stderr = "";
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  const settle = (): void => {
    for (const line of stdout.split("\n").slice(0, -1)) {
      const message = JSON.parse(line) as Record<string, unknown>;
      const id = message.id;
      if (typeof id === "number") waiting.get(id)?.(message);
    }
  };
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    settle();
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  // The server may close its end first (that is what some tests check): a write after it is no error here.
  child.stdin.on("error", () => undefined);
  const done = new Promise<{ status: number | null; stderr: string }>((resolve) =>
    child.on("close", (status) => resolve({ status, stderr })),
  );
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } })}\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`,
  );
  return {
    write: (text) => child.stdin.write(text),
    end: () => child.stdin.end(),
    answer: (id) =>
      new Promise((resolve) => {
        waiting.set(id, resolve);
        settle();
      }),
    done,
  };
}

/** A tools/call line whose `on` argument is `depth` arrays around `true`, written by hand (JSON.stringify overflows first). */
const deepCall = (id: number, depth: number): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"set_cellular_service_status","arguments":{"on":${"[".repeat(depth)}true${"]".repeat(depth)}}}}\n`;
const callLine = (id: number, name: string, args: Record<string, JsonValue>): string =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } })}\n`;
const resultOf = (message: Record<string, unknown>): { isError?: boolean; content: { text: string }[] } =>
  message.result as { isError?: boolean; content: { text: string }[] };

test("over stdio: a line longer than the SDK's 10 MiB read buffer ends the episode as role_error, saying so, with exit 1", async () => {
  const out = tempDir("serve-overflow");
  const serve = rawStdioServe(out);
  await serve.answer(0);
  // No newline needed: the transport gives up once its buffer passes 10 MiB.
  serve.write(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":"${"x".repeat(11 * 1024 * 1024)}`);
  const { status, stderr } = await serve.done;
  assert.equal(status, 1, stderr);
  const last = lines(stderr).at(-1) ?? "";
  assert.match(last, /ended by role_error \(the MCP transport closed: the client sent a message longer than 10485760 bytes/);
  const trajectory = onlyTrajectory(out);
  assert.equal(trajectory.end?.reason, "role_error");
  assert.match(trajectory.end?.detail ?? "", /longer than 10485760 bytes/);
  assert.ok(trajectory.evaluation, "the episode was scored (and is errored by its end)");
});

test("arguments nested 5,000 levels deep are a tool error, over stdio and over HTTP, and the HTTP session stays usable", async () => {
  const out = tempDir("serve-deep-stdio");
  const serve = rawStdioServe(out);
  await serve.answer(0);
  serve.write(deepCall(1, 5000));
  const deep = resultOf(await serve.answer(1));
  assert.equal(deep.isError, true);
  assert.equal(deep.content[0]?.text, "ValueError: Tool call arguments are nested more than 64 levels deep");
  // The episode goes on: the next call is played.
  serve.write(callLine(2, "set_cellular_service_status", { on: false }));
  assert.equal(resultOf(await serve.answer(2)).isError, undefined);
  serve.end();
  await serve.done;
  const trajectory = onlyTrajectory(out);
  assert.equal(trajectory.end?.reason, "agent_disconnected");
  const refused = trajectory.messages.find((m) => m.tool_call_exception !== null);
  assert.equal(refused?.content, "ValueError: Tool call arguments are nested more than 64 levels deep");

  const httpOut = tempDir("serve-deep-http");
  const served = startServe(CELLULAR, ["--out", httpOut]);
  const url = await served.url;
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: "test", version: "1" });
  await client.connect(transport);
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": transport.sessionId ?? "",
      "mcp-protocol-version": transport.protocolVersion ?? "2025-06-18",
    },
    body: deepCall(7, 5000),
  });
  assert.equal(response.status, 200);
  const body = await response.text();
  assert.match(body, /"isError":true/);
  assert.match(body, /nested more than 64 levels deep/);
  // The same session goes on answering.
  const next = await client.callTool({ name: "set_cellular_service_status", arguments: { on: false } });
  assert.equal(next.isError, undefined, text(next));
  await transport.terminateSession();
  await client.close();
  await served.done;
});

test("after end_conversation every request is refused with isError, get_user_message included (it does not repeat the opening)", async () => {
  const out = tempDir("serve-after-end");
  const { client, transport } = stdioClient(CELLULAR, out);
  await client.connect(transport);
  assert.equal(await playSteps(client, referencePlay(loadSample(CELLULAR))), "ended");
  const call = await client.callTool({ name: "set_cellular_service_status", arguments: { on: true } });
  assert.equal(call.isError, true);
  assert.equal(text(call), "The user ended the conversation. The episode is over; make no more calls.");
  const message = await client.callTool({ name: "get_user_message", arguments: {} });
  assert.equal(message.isError, true);
  assert.equal(text(message), text(call));
  const said = await client.callTool({ name: "send_message_to_user", arguments: { content: "Anything else?" } });
  assert.equal(said.isError, true);
  await client.close();
  assert.equal(onlyTrajectory(out).evaluation?.score, 1);
});

test("serve --port on a port in use: one line, exit 3, and no trajectory", async () => {
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  const port = (busy.address() as AddressInfo).port;
  try {
    const out = join(tempDir("serve-busy"), "runs");
    const result = await runCliAsync(["serve", CELLULAR, "--port", String(port), "--out", out]);
    assert.equal(result.status, 3);
    assert.deepEqual(lines(result.stderr), [
      `toolsandbox: cannot listen on 127.0.0.1:${port}: the port is in use (try another --port, or 0 for any free one)`,
    ]);
    assert.equal(existsSync(out), false, "nothing was written");
  } finally {
    await new Promise<void>((resolve) => busy.close(() => resolve()));
  }
});
