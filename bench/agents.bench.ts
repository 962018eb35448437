// What an outside agent costs us. Prints plain figures; asserts nothing.
//  1. The cost of an MCP tool request: every sample's reference played N times by the MCP SDK's
//     client through the episode's MCP server in this process (in-memory transport, batch window
//     0), against the same episodes played in-process by the scripted agent. The session's set-up
//     (the server, the client, the initialize handshake) is timed apart, once per episode. The
//     client's own share of each request is timed where it happens (from callTool to the message
//     handed to the transport, and from the answer's arrival to callTool's result); the server's
//     share is what is left of the extra time per request: JSON-RPC, the role's queue, the
//     answer's way back. The target (under 1 ms) is the server's share, which is ours.
//  2. `run --agent cmd:` per episode against an in-process run of the same calls. A scripted
//     in-process episode takes a few milliseconds, so against it any process at all would be
//     hundreds of percent; the comparison is an agent at work, whose turns wait for a model.
//     So both sides wait 200 ms per agent turn, as bench:models' model calls do: in-process, the
//     model agent (`--agent openai:mock`) against mock-llm with 200 ms of latency; outside, the
//     fixture agent (a Node script with the MCP SDK's client, test/fixtures/agents/) waiting 200 ms
//     before each step of the reference. The user is scripted on both sides, one episode at a time.
//     The agent's own start-up and exit (node, the SDK's modules, its Client, Node's HTTP client)
//     are measured apart and excluded; everything else is overhead: the episode's MCP server and HTTP endpoint, the
//     process's spawn and exit, the session, the calls over HTTP. Target: under 20%.
//
//   npm run bench:agents            (N = 10)
//   npm run bench:agents -- 50
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { Episode } from "../engine/episode/episode.js";
import { startMockLlm } from "../engine/mock-llm/server.js";
import { McpAgentRole } from "../engine/roles/mcp/agent.js";
import { CALL_ID_META, createEpisodeServer, SEND_MESSAGE_TOOL } from "../engine/roles/mcp/server.js";
import { createScriptedRoles, createScriptedUser } from "../engine/roles/scripted.js";
import type { Scenario } from "../engine/scenario/model.js";
import { agentToolNames, loadSample, type PlayStep, referencePlay, sampleFiles } from "../test/agents/helpers.js";
// @ts-expect-error: a plain JavaScript fixture
import { playKey } from "../test/fixtures/agents/reference-agent.mjs";
import { startBenchReport } from "./report.js";

const iterations = Number(process.argv[2] ?? 10);
if (!Number.isInteger(iterations) || iterations < 1) {
  console.error(`bench:agents: the iteration count must be a positive integer, got "${process.argv[2]}"`);
  process.exit(2);
}
const THINK_MS = 200;

async function inProcess(scenario: Scenario): Promise<void> {
  const { agent, user } = createScriptedRoles(scenario);
  await new Episode({ scenario, agent, user, seed: 0 }).run();
}

/** Time spent, summed over an episode's requests. */
interface Timing {
  setupMs: number;
  clientMs: number;
  requests: number;
}

/**
 * One episode over MCP. The client transport is wrapped to see when each request leaves and when
 * its answer arrives, so the client's own work around it can be told from the rest.
 */
async function overMcp(scenario: Scenario, steps: readonly PlayStep[], timing: Timing): Promise<void> {
  const setupStart = performance.now();
  const agent = new McpAgentRole({ id: "mcp", batchWindowMs: 0 });
  const server = createEpisodeServer(scenario, agent);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(clientSide);
  timing.setupMs += performance.now() - setupStart;

  // Requests leave in the order callTool was called (FIFO), so each send is matched to its call.
  interface Pending {
    readonly invoked: number;
    sent?: number;
    id?: string | number;
  }
  const unsent: Pending[] = [];
  const arrivedAt = new Map<string | number, number>();
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message: JSONRPCMessage, options) => {
    if ("id" in message && "method" in message && message.method === "tools/call") {
      const pending = unsent.shift();
      if (pending) {
        pending.sent = performance.now();
        pending.id = message.id;
      }
    }
    return send(message, options);
  };
  const receive = clientSide.onmessage;
  clientSide.onmessage = (message: JSONRPCMessage, extra) => {
    if ("id" in message && message.id !== undefined && !("method" in message)) arrivedAt.set(message.id, performance.now());
    receive?.(message, extra);
  };
  /** One tools/call, with the client's share of it added to the timing. */
  const call = async (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<unknown> => {
    const pending: Pending = { invoked: performance.now() };
    unsent.push(pending);
    const result = await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) });
    const done = performance.now();
    const arrived = pending.id === undefined ? undefined : arrivedAt.get(pending.id);
    if (pending.sent === undefined || arrived === undefined) throw new Error("a request went unseen by the timing");
    timing.clientMs += pending.sent - pending.invoked + (done - arrived);
    timing.requests++;
    return result;
  };

  const episode = new Episode({ scenario, agent, user: createScriptedUser(scenario), seed: 0 });
  const played = episode.run();
  for (const step of steps) {
    if ("calls" in step) {
      await Promise.all(step.calls.map((c) => call(c.name, c.arguments, { [CALL_ID_META]: c.id })));
    } else {
      const reply = (await call(SEND_MESSAGE_TOOL, { content: step.say })) as { content: { text?: string }[] };
      if (reply.content[0]?.text?.startsWith("The user ended the conversation")) break;
    }
  }
  await played;
  await client.close();
}

async function part1(): Promise<void> {
  const samples = sampleFiles().map((f) => {
    const scenario = loadSample(f);
    return { scenario, steps: referencePlay(scenario) };
  });
  // Warm-up: the first episodes compile the code paths.
  const warm: Timing = { setupMs: 0, clientMs: 0, requests: 0 };
  for (let i = 0; i < 2; i++) {
    for (const s of samples) {
      await inProcess(s.scenario);
      await overMcp(s.scenario, s.steps, warm);
    }
  }
  // Alternated rounds, so a busy moment of the machine falls on both sides alike.
  let local = 0;
  let mcp = 0;
  const timing: Timing = { setupMs: 0, clientMs: 0, requests: 0 };
  for (let i = 0; i < iterations; i++) {
    let t = performance.now();
    for (const s of samples) await inProcess(s.scenario);
    local += performance.now() - t;
    t = performance.now();
    for (const s of samples) await overMcp(s.scenario, s.steps, timing);
    mcp += performance.now() - t;
  }
  const episodes = samples.length * iterations;
  const extraPerRequest = (mcp - local - timing.setupMs) / timing.requests;
  const client = timing.clientMs / timing.requests;
  const server = extraPerRequest - client;
  console.log(
    `1. ${samples.length} samples x ${iterations}, ${timing.requests / iterations} agent requests per round (tool calls and messages)`,
  );
  console.log(`   in-process (scripted agent): ${(local / episodes).toFixed(2)} ms per episode`);
  console.log(`   over MCP (in-memory):        ${(mcp / episodes).toFixed(2)} ms per episode`);
  console.log(`     of which the session's set-up (server, client, initialize): ${(timing.setupMs / episodes).toFixed(2)} ms per episode`);
  console.log(`   per MCP request, over the in-process call: ${extraPerRequest.toFixed(3)} ms`);
  console.log(`     the client's share (the SDK's Client, building the request and reading the result): ${client.toFixed(3)} ms`);
  console.log(`     the server's share (ours: JSON-RPC, the role's queue, the answer's way back):       ${server.toFixed(3)} ms`);
  report.target(
    `an MCP request costs the server under 1 ms (${server.toFixed(3)} ms; the client's share ${client.toFixed(3)} ms apart)`,
    server < 1,
  );
}

async function part2(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-bench-agents-"));
  const scenarios = sampleFiles().map(loadSample);
  const mock = await startMockLlm({ scenarios, faults: [{ kind: "latency", ms: THINK_MS }] });
  try {
    const plays: Record<string, unknown> = {};
    let steps = 0;
    for (const s of scenarios) {
      const play = referencePlay(s);
      plays[playKey(s.user.opening, agentToolNames(s))] = play;
      steps += play.length;
    }
    const playsFile = join(dir, "plays.json");
    writeFileSync(playsFile, JSON.stringify(plays));
    const fixture = join(process.cwd(), "test", "fixtures", "agents", "reference-agent.mjs");
    const cli = join(process.cwd(), "dist", "cli.js");
    const env = { PATH: process.env.PATH ?? "", OPENAI_API_KEY: "mock-key", REFERENCE_AGENT_THINK_MS: String(THINK_MS) };
    // Asynchronous: mock-llm answers from this process, so its event loop must keep running.
    const timed = (args: readonly string[]): Promise<number> =>
      new Promise((resolve, reject) => {
        const t = performance.now();
        const child = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] });
        let stderr = "";
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.on("error", reject);
        child.on("close", (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`${args.join(" ")}: ${stderr}`))));
      });
    const episodes = scenarios.length;
    const agentCallsBefore = mock.requests.length;
    const local = await timed([
      cli,
      "run",
      "sample-scenarios",
      "--agent",
      "openai:mock",
      "--base-url",
      `${mock.url}/v1`,
      "--out",
      join(dir, "local"),
    ]);
    const modelCalls = mock.requests.length - agentCallsBefore;
    const cmd = await timed([
      cli,
      "run",
      "sample-scenarios",
      "--agent",
      `cmd:node ${fixture} ${playsFile}`,
      "--batch-window",
      "0",
      "--out",
      join(dir, "cmd"),
    ]);
    // The agent's own start-up and exit: node, the MCP SDK client's modules, its Client and Node's
    // HTTP client (undici, loaded by the first fetch), then the process's end.
    // The median of five, as a busy moment of the machine can stretch one start several times over.
    const starts: number[] = [];
    for (let i = 0; i < 5; i++)
      starts.push(
        await timed([
          "--input-type=module",
          "-e",
          'const { Client } = await import("@modelcontextprotocol/sdk/client/index.js"); await import("@modelcontextprotocol/sdk/client/streamableHttp.js"); new Client({ name: "x", version: "1" }); await fetch("data:,");',
        ]),
      );
    const startup = [...starts].sort((a, b) => a - b)[2] ?? 0;
    const perLocal = local / episodes;
    const perCmd = cmd / episodes;
    const overhead = perCmd - startup - perLocal;
    console.log(`2. run over ${episodes} samples, one at a time, the user scripted, every agent turn waiting ${THINK_MS} ms`);
    console.log(
      `   --agent openai:mock (in-process, ${modelCalls} model calls of ${THINK_MS} ms): ${perLocal.toFixed(1)} ms per episode (CLI start-up included, spread)`,
    );
    console.log(
      `   --agent cmd: (${steps} steps of the reference, each after ${THINK_MS} ms):     ${perCmd.toFixed(1)} ms per episode; the agent's start-up and exit ${startup.toFixed(1)} ms (median of ${starts.map((t) => t.toFixed(0)).join(", ")})`,
    );
    console.log(
      `   cmd: overhead per episode, start-up excluded: ${overhead.toFixed(1)} ms (${((100 * overhead) / perLocal).toFixed(1)}% of the in-process episode)`,
    );
    console.log(`   files: ${readdirSync(join(dir, "cmd")).length} in the cmd: run's folder`);
    report.target(
      `cmd: costs under 20% per episode against the in-process run of the same calls, the agent's start-up excluded (${((100 * overhead) / perLocal).toFixed(1)}%)`,
      overhead < 0.2 * perLocal,
    );
  } finally {
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const report = startBenchReport("agents");
void part1()
  .then(part2)
  .then(() => report.write());
