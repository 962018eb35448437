// What an outside agent costs us. Prints plain figures; asserts nothing.
//  1. Server-side cost per MCP tool call: every sample's reference played N times by the MCP SDK's
//     client through the episode's MCP server in this process (in-memory transport, batch window 0),
//     against the same episodes played in-process by the scripted agent. The difference per tool call
//     is what the MCP layer adds (JSON-RPC, the role's queue, the answer's way back).
//  2. `run --agent cmd:` per episode: the built CLI over the samples with the fixture agent (a Node
//     script with the MCP SDK client) against `run --agent scripted`, and the fixture's own start-up
//     (node + the SDK's import), which the overhead excludes.
//
//   npm run bench:agents            (N = 10)
//   npm run bench:agents -- 50
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Episode } from "../engine/episode/episode.js";
import { McpAgentRole } from "../engine/roles/mcp/agent.js";
import { createEpisodeServer } from "../engine/roles/mcp/server.js";
import { createScriptedRoles, createScriptedUser } from "../engine/roles/scripted.js";
import type { Scenario } from "../engine/scenario/model.js";
import { agentToolNames, loadSample, type PlayStep, referencePlay, sampleFiles } from "../test/agents/helpers.js";
// @ts-expect-error: a plain JavaScript fixture
import { playKey, playSteps } from "../test/fixtures/agents/reference-agent.mjs";
import { startBenchReport } from "./report.js";

const iterations = Number(process.argv[2] ?? 10);
if (!Number.isInteger(iterations) || iterations < 1) {
  console.error(`bench:agents: the iteration count must be a positive integer, got "${process.argv[2]}"`);
  process.exit(2);
}

async function inProcess(scenario: Scenario): Promise<void> {
  const { agent, user } = createScriptedRoles(scenario);
  await new Episode({ scenario, agent, user, seed: 0 }).run();
}

async function overMcp(scenario: Scenario, steps: readonly PlayStep[]): Promise<void> {
  const agent = new McpAgentRole({ id: "mcp", batchWindowMs: 0 });
  const server = createEpisodeServer(scenario, agent);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(clientSide);
  const episode = new Episode({ scenario, agent, user: createScriptedUser(scenario), seed: 0 });
  const played = episode.run();
  await playSteps(client, steps);
  await played;
  await client.close();
}

async function part1(): Promise<void> {
  const samples = sampleFiles().map((f) => {
    const scenario = loadSample(f);
    return { scenario, steps: referencePlay(scenario) };
  });
  const calls = samples.reduce((n, s) => n + s.steps.reduce((m, step) => m + ("calls" in step ? step.calls.length : 1), 0), 0);
  // Warm-up: the first episodes compile the code paths.
  for (const s of samples) {
    await inProcess(s.scenario);
    await overMcp(s.scenario, s.steps);
  }
  let t = performance.now();
  for (let i = 0; i < iterations; i++) for (const s of samples) await inProcess(s.scenario);
  const local = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < iterations; i++) for (const s of samples) await overMcp(s.scenario, s.steps);
  const mcp = performance.now() - t;
  const perCall = (mcp - local) / (calls * iterations);
  console.log(`1. ${samples.length} samples x ${iterations}, ${calls} agent requests per round (tool calls and messages)`);
  console.log(`   in-process (scripted agent): ${(local / (samples.length * iterations)).toFixed(2)} ms per episode`);
  console.log(`   over MCP (in-memory):        ${(mcp / (samples.length * iterations)).toFixed(2)} ms per episode`);
  // The client's own work (the SDK's request building and result validation) is in the figure too.
  console.log(`   cost per MCP request, client and server: ${perCall.toFixed(3)} ms (target for the server's share < 1 ms)`);
  report.target(`an MCP request costs under 1 ms, client included (${perCall.toFixed(3)} ms)`, perCall < 1);
}

function part2(): void {
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-bench-agents-"));
  try {
    const plays: Record<string, unknown> = {};
    for (const f of sampleFiles()) {
      const s = loadSample(f);
      plays[playKey(s.user.opening, agentToolNames(s))] = referencePlay(s);
    }
    const playsFile = join(dir, "plays.json");
    writeFileSync(playsFile, JSON.stringify(plays));
    const fixture = join(process.cwd(), "test", "fixtures", "agents", "reference-agent.mjs");
    const cli = join(process.cwd(), "dist", "cli.js");
    const timed = (args: readonly string[]): number => {
      const t = performance.now();
      const r = spawnSync(process.execPath, args, { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
      return performance.now() - t;
    };
    const episodes = sampleFiles().length;
    const scripted = timed([cli, "run", "sample-scenarios", "--out", join(dir, "scripted")]);
    const cmd = timed([
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
    // The agent's own start-up: node and the MCP SDK client's modules.
    let startup = 0;
    for (let i = 0; i < 5; i++)
      startup +=
        timed([
          "--input-type=module",
          "-e",
          'await import("@modelcontextprotocol/sdk/client/index.js"); await import("@modelcontextprotocol/sdk/client/streamableHttp.js")',
        ]) / 5;
    const perScripted = scripted / episodes;
    const perCmd = cmd / episodes;
    const overhead = perCmd - startup - perScripted;
    console.log(`2. run over ${episodes} samples, one at a time`);
    console.log(`   --agent scripted: ${perScripted.toFixed(1)} ms per episode (CLI start-up included, spread)`);
    console.log(`   --agent cmd:      ${perCmd.toFixed(1)} ms per episode; the agent's start-up ${startup.toFixed(1)} ms`);
    console.log(
      `   cmd: overhead per episode, start-up excluded: ${overhead.toFixed(1)} ms (${((100 * overhead) / perScripted).toFixed(0)}% of a scripted episode; the 2 s exit grace is never waited for by an agent that exits)`,
    );
    console.log(`   files: ${readdirSync(join(dir, "cmd")).length} in the cmd: run's folder`);
    report.target(
      `cmd: costs under 20% per episode, the agent's start-up excluded (${((100 * overhead) / perScripted).toFixed(0)}%)`,
      overhead < 0.2 * perScripted,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const report = startBenchReport("agents");
void part1()
  .then(part2)
  .then(() => report.write());
