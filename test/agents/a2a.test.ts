// `run --agent a2a:<url>`: the simulated user talks to a remote agent over A2A. The agent here is a
// small A2A server built on @a2a-js/sdk's server side, listening on 127.0.0.1 in this process: per
// message it connects with the MCP SDK's client to the endpoint named in the message's metadata and
// plays the scenario's reference (its calls, then its next words as the reply). The built CLI runs
// the episodes in a process of its own.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type AgentCard, type Message, Role, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  type ExecutionEventBus,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  type RequestContext,
  UnauthenticatedUser,
} from "@a2a-js/sdk/server";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { usageOf } from "../../engine/roles/a2a/conversation.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { requireBuild, removeTempDirs, runCliAsync, tempDir } from "../cli/harness.js";
// @ts-expect-error: a plain JavaScript fixture
import { playKey } from "../fixtures/agents/reference-agent.mjs";
import { agentToolNames, loadSample, type PlayStep, referencePlay, runKilledAfterFirstEpisode, SAMPLES, sampleFiles } from "./helpers.js";

before(requireBuild);
after(removeTempDirs);

const MCP_URL_KEY = "toolsandbox/mcp_url";
const CALL_ID_META = "toolsandbox/call_id";
/** The reference's parallel calls are separate HTTP requests: on a loaded machine they need a wide window to stay one batch. */
const WINDOW = "400";

/** Every sample's reference, by the key the agent finds it under (the opening and the tools it is offered). */
function samplePlays(): Map<string, PlayStep[]> {
  const plays = new Map<string, PlayStep[]>();
  for (const file of sampleFiles()) {
    const scenario = loadSample(file);
    const key = playKey(scenario.user.opening, agentToolNames(scenario)) as string;
    assert.ok(!plays.has(key), `two samples share the opening and tools of ${file}`);
    plays.set(key, referencePlay(scenario));
  }
  return plays;
}

const textOf = (message: Message): string => message.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");

function agentMessage(contextId: string, text: string, metadata?: Record<string, unknown>): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId: "",
    role: Role.ROLE_AGENT,
    parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" }],
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The reference played over A2A: per context a cursor in the scenario's steps; what it saw, for the assertions. */
class ReferenceAgent implements AgentExecutor {
  /** Per context: the scenario's steps, how far it got, and every MCP endpoint its messages named. */
  readonly contexts = new Map<string, { steps: PlayStep[]; next: number; readonly endpoints: Set<string>; readonly tasks: Set<string> }>();
  /** Every tool name the episodes' MCP servers listed. */
  readonly offered = new Set<string>();
  constructor(
    private readonly plays: ReadonlyMap<string, PlayStep[]>,
    /** "task": answer with a task waiting for input (the next message continues it); "message": with a message. */
    private readonly style: "message" | "task" = "message",
  ) {}

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const message = request.userMessage;
    const endpoint: unknown = message.metadata?.[MCP_URL_KEY];
    if (typeof endpoint !== "string") throw new Error(`the message has no ${MCP_URL_KEY}`);
    // A fresh MCP session per message, as an agent that is handed the endpoint with each message would do.
    const mcp = new Client({ name: "a2a-reference-agent", version: "1" });
    const transport = new StreamableHTTPClientTransport(new URL(endpoint));
    await mcp.connect(transport);
    let reply = "";
    try {
      let state = this.contexts.get(request.contextId);
      if (!state) {
        const { tools } = await mcp.listTools();
        for (const t of tools) this.offered.add(t.name);
        const key = playKey(
          textOf(message),
          tools.map((t) => t.name),
        ) as string;
        const steps = this.plays.get(key);
        if (!steps) throw new Error(`no play for ${JSON.stringify(key)}`);
        state = { steps, next: 0, endpoints: new Set(), tasks: new Set() };
        this.contexts.set(request.contextId, state);
      }
      state.endpoints.add(endpoint);
      state.tasks.add(request.taskId);
      while (state.next < state.steps.length) {
        const step = state.steps[state.next++] as PlayStep;
        if ("say" in step) {
          reply = step.say;
          break;
        }
        await Promise.all(step.calls.map((c) => mcp.callTool({ name: c.name, arguments: c.arguments, _meta: { [CALL_ID_META]: c.id } })));
      }
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await mcp.close();
    }
    const usage = { usage: { prompt_tokens: 100, completion_tokens: 7 } };
    if (this.style === "message") {
      bus.publish(AgentEvent.message(agentMessage(request.contextId, reply, usage)));
    } else {
      bus.publish(
        AgentEvent.task({
          id: request.taskId,
          contextId: request.contextId,
          status: { state: TaskState.TASK_STATE_INPUT_REQUIRED, message: agentMessage(request.contextId, reply), timestamp: undefined },
          artifacts: [],
          history: [],
          metadata: usage,
        }),
      );
    }
    bus.finished();
  }

  async cancelTask(): Promise<void> {}
}

/** An agent that fails its task at once, or never answers. */
class BrokenAgent implements AgentExecutor {
  constructor(private readonly how: "fail" | "hang" | "throw") {}
  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    if (this.how === "hang") await new Promise(() => undefined);
    if (this.how === "throw") throw new Error("out of credits");
    bus.publish(
      AgentEvent.task({
        id: request.taskId,
        contextId: request.contextId,
        status: {
          state: TaskState.TASK_STATE_FAILED,
          message: agentMessage(request.contextId, "the tool backend is down"),
          timestamp: undefined,
        },
        artifacts: [],
        history: [],
        metadata: undefined,
      }),
    );
    bus.finished();
  }
  async cancelTask(): Promise<void> {}
}

const readBody = async (req: IncomingMessage): Promise<string> => {
  let body = "";
  for await (const chunk of req) body += String(chunk);
  return body;
};

/** An A2A server (JSON-RPC) on 127.0.0.1 for `executor`; its card at /.well-known/agent-card.json. */
async function startAgent(
  executor: AgentExecutor,
  /** Answer every request with this JSON-RPC error instead (as the SDK maps an error thrown in the handler). */
  refuse?: Error,
  /** Speak A2A 0.3 (its card and JSON-RPC methods), as agents built on older SDKs do. */
  legacy = false,
): Promise<{ readonly url: string; readonly methods: Set<string>; close(): Promise<void> }> {
  const methods = new Set<string>();
  let rpc: { handle: JsonRpcTransportHandler["handle"] } | null = null;
  let handler: DefaultRequestHandler | null = null;
  const http = createServer((req, res) => {
    void (async () => {
      if (!rpc || !handler) throw new Error("not ready");
      if (req.method === "GET" && req.url === "/.well-known/agent-card.json") {
        const card = await handler.getAgentCard();
        const shown = legacy
          ? {
              name: card.name,
              description: card.description,
              url: card.supportedInterfaces[0]?.url,
              preferredTransport: "JSONRPC",
              protocolVersion: "0.3.0",
              version: card.version,
              capabilities: { streaming: false, pushNotifications: false },
              defaultInputModes: card.defaultInputModes,
              defaultOutputModes: card.defaultOutputModes,
              skills: [],
            }
          : card;
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(shown));
        return;
      }
      if (req.method !== "POST" || req.url !== "/a2a") {
        res.writeHead(404).end();
        return;
      }
      const version = req.headers["a2a-version"];
      const context = defaultServerCallContextBuilder({
        extensions: undefined,
        user: new UnauthenticatedUser(),
        headers: req.headers,
        ...(typeof version === "string" ? { requestedVersion: version } : {}),
      });
      const body = await readBody(req);
      methods.add(String((JSON.parse(body) as { method: unknown }).method));
      const answer = refuse
        ? { jsonrpc: "2.0", id: (JSON.parse(body) as { id: unknown }).id, error: JsonRpcTransportHandler.mapToJSONRPCError(refuse) }
        : await rpc.handle(body, context);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: "reference agent",
    description: "plays a scenario's reference",
    supportedInterfaces: [{ url: `${base}/a2a`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
    provider: undefined,
    version: "1",
    capabilities: { streaming: false, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [],
    signatures: [],
  };
  handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  rpc = legacy ? new LegacyJsonRpcTransportHandler(handler) : new JsonRpcTransportHandler(handler);
  return {
    url: base,
    methods,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

interface Summary {
  readonly totals: { readonly failed: number };
  readonly scenarios: readonly {
    readonly name: string;
    readonly trial?: number;
    readonly score: number | null;
    readonly status: string;
    readonly end_reason: string | null;
    readonly detail: string | null;
    readonly trajectory: string;
    readonly telemetry?: { readonly calls: number; readonly prompt_tokens: number; readonly completion_tokens: number };
  }[];
}
const readSummary = (dir: string): Summary => JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Summary;

test("every sample over A2A, 4 at a time, 2 trials: each scores 1.0 with the scripted run's messages and world changes, one context per episode, each request in the telemetry", async () => {
  const agent = new ReferenceAgent(samplePlays());
  const server = await startAgent(agent);
  try {
    const dir = tempDir("a2a-all");
    const out = join(dir, "out");
    const scripted = join(dir, "scripted");
    const run = await runCliAsync([
      "run",
      SAMPLES,
      "--agent",
      `a2a:${server.url}`,
      "--concurrency",
      "4",
      "--trials",
      "2",
      "--batch-window",
      WINDOW,
      "--out",
      out,
    ]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal((await runCliAsync(["run", SAMPLES, "--trials", "2", "--out", scripted])).status, 0);
    const summary = readSummary(out);
    const episodes = sampleFiles().length * 2;
    assert.equal(summary.scenarios.length, episodes);
    assert.equal(summary.totals.failed, 0);
    for (const s of summary.scenarios) {
      assert.equal(s.score, 1, `${s.name} #${s.trial}: score (${s.detail})`);
      assert.equal(s.end_reason, "end_conversation");
      const played = readTrajectoryFile(join(out, s.trajectory));
      const reference = readTrajectoryFile(join(scripted, s.trajectory));
      assert.deepEqual(played.messages, reference.messages, `${s.trajectory}: the same messages`);
      assert.deepEqual(
        played.events.filter((e) => e.type === "world"),
        reference.events.filter((e) => e.type === "world"),
        `${s.trajectory}: the same world changes`,
      );
      assert.equal(played.header.run.agent, `a2a:${server.url}`);
      // One A2A request per message of the agent to the user (not the scenario's scripted ones), each recorded before that message.
      const said = played.messages.filter((m) => m.sender === "agent" && m.recipient === "user" && m.scripted !== true);
      const calls = played.modelCalls.filter((c) => c.role === "agent");
      assert.deepEqual(
        calls.map((c) => c.index),
        said.map((m) => m.sandbox_message_index),
      );
      for (const c of calls) {
        assert.equal(c.call.model, "reference agent");
        assert.ok(c.call.latency_ms >= 0);
        assert.deepEqual(c.call.usage, { prompt_tokens: 100, completion_tokens: 7 });
      }
      assert.deepEqual(s.telemetry && [s.telemetry.calls, s.telemetry.prompt_tokens, s.telemetry.completion_tokens], [
        said.length,
        100 * said.length,
        7 * said.length,
      ]);
    }
    // The conversation is A2A's: the servers offer the scenario's tools, not the MCP conversation tools.
    assert.ok(agent.offered.size > 0);
    for (const name of ["send_message_to_user", "get_user_message"]) assert.ok(!agent.offered.has(name), `${name} is not offered`);
    // One context per episode, each with the one MCP endpoint of its episode.
    assert.equal(agent.contexts.size, episodes);
    const endpoints = [...agent.contexts.values()].map((c) => [...c.endpoints]);
    for (const e of endpoints) assert.equal(e.length, 1, "a context's messages all name the same endpoint");
    assert.equal(new Set(endpoints.flat()).size, episodes, "each episode has its own endpoint");
  } finally {
    await server.close();
  }
});

test("an agent that answers with tasks waiting for input: the conversation continues the task, and scores 1.0", async () => {
  const agent = new ReferenceAgent(samplePlays(), "task");
  const server = await startAgent(agent);
  try {
    const out = tempDir("a2a-task");
    const files = sampleFiles().slice(0, 3);
    const run = await runCliAsync(["run", ...files, "--agent", `a2a:${server.url}`, "--batch-window", WINDOW, "--out", out]);
    assert.equal(run.status, 0, run.stderr);
    for (const s of readSummary(out).scenarios) {
      assert.equal(s.score, 1, `${s.name}: score (${s.detail})`);
      assert.ok((s.telemetry?.prompt_tokens ?? 0) > 0, "usage read from the task's metadata");
    }
    assert.equal(agent.contexts.size, files.length);
    for (const c of agent.contexts.values()) assert.equal(c.tasks.size, 1, "every message continued the task waiting for input");
    assert.deepEqual([...server.methods], ["SendMessage"], "A2A 1.0's method name, and no polling");
  } finally {
    await server.close();
  }
});

test("an agent on A2A 0.3 is spoken to in 0.3, and scores 1.0", async () => {
  const agent = new ReferenceAgent(samplePlays());
  const server = await startAgent(agent, undefined, true);
  try {
    const out = tempDir("a2a-legacy");
    const files = sampleFiles().slice(0, 2);
    const run = await runCliAsync(["run", ...files, "--agent", `a2a:${server.url}`, "--batch-window", WINDOW, "--out", out]);
    assert.equal(run.status, 0, run.stderr);
    for (const s of readSummary(out).scenarios) assert.equal(s.score, 1, `${s.name}: score (${s.detail})`);
    assert.equal(agent.contexts.size, files.length);
    assert.deepEqual([...server.methods], ["message/send"], "0.3's method name");
  } finally {
    await server.close();
  }
});

test("--resume after the run was killed plays what is left over A2A, and every episode scores 1.0", async () => {
  const server = await startAgent(new ReferenceAgent(samplePlays()));
  try {
    const out = tempDir("a2a-resume");
    const files = sampleFiles().slice(0, 6);
    const args = ["run", ...files, "--agent", `a2a:${server.url}`, "--batch-window", WINDOW, "--concurrency", "2", "--out", out];
    await runKilledAfterFirstEpisode(args, out, files.length);
    const resumed = await runCliAsync([...args, "--resume"]);
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.match(resumed.stderr, /resuming: \d+ of 6 episodes already complete/);
    const summary = readSummary(out);
    assert.equal(summary.scenarios.length, files.length);
    for (const s of summary.scenarios) assert.equal(s.score, 1, `${s.name}: score`);
  } finally {
    await server.close();
  }
});

test("an agent that fails its task ends the episode as errored (role_error), never scored, its trajectory kept", async () => {
  const server = await startAgent(new BrokenAgent("fail"));
  try {
    const out = tempDir("a2a-fail");
    const run = await runCliAsync([
      "run",
      join(SAMPLES, "cellular_off_adapted.scenario.yaml"),
      "--agent",
      `a2a:${server.url}`,
      "--out",
      out,
    ]);
    assert.equal(run.status, 1, run.stderr);
    const [result] = readSummary(out).scenarios;
    assert.equal(result?.end_reason, "role_error");
    assert.equal(result?.status, "errored");
    assert.match(result?.detail ?? "", /the A2A agent's task \S+ ended as failed: the tool backend is down/);
    const trajectory = readTrajectoryFile(join(out, "cellular_off_adapted.trajectory.jsonl"));
    assert.equal(trajectory.end?.reason, "role_error");
    const [call] = trajectory.modelCalls;
    assert.equal(call?.role, "agent");
    assert.match(call?.call.error ?? "", /ended as failed/);
  } finally {
    await server.close();
  }
});

test("an agent that throws, or whose request is answered with an A2A error, ends the episode as errored (role_error), saying why", async () => {
  const cases: [string, () => ReturnType<typeof startAgent>, (url: string) => RegExp][] = [
    ["throws", () => startAgent(new BrokenAgent("throw")), () => /^the A2A agent's task \S+ ended as failed: .*out of credits/],
    [
      "a JSON-RPC error",
      () => startAgent(new BrokenAgent("fail"), new Error("out of credits")),
      (url) => new RegExp(`^could not send a message to the A2A agent at ${url}: .*out of credits`),
    ],
  ];
  for (const [what, start, detail] of cases) {
    const server = await start();
    try {
      const out = tempDir("a2a-error");
      const run = await runCliAsync([
        "run",
        join(SAMPLES, "cellular_off_adapted.scenario.yaml"),
        "--agent",
        `a2a:${server.url}`,
        "--out",
        out,
      ]);
      assert.equal(run.status, 1, `${what}: ${run.stderr}`);
      const [result] = readSummary(out).scenarios;
      assert.equal(result?.end_reason, "role_error", what);
      assert.equal(result?.status, "errored", what);
      assert.match(result?.detail ?? "", detail(server.url), what);
      assert.equal(readTrajectoryFile(join(out, "cellular_off_adapted.trajectory.jsonl")).end?.reason, "role_error", what);
    } finally {
      await server.close();
    }
  }
});

test("usage is read from metadata.usage under OpenAI's chat names or the Responses API's", () => {
  assert.deepEqual(usageOf({ usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } }), {
    prompt_tokens: 12,
    completion_tokens: 3,
    total_tokens: 15,
  });
  assert.deepEqual(usageOf({ usage: { input_tokens: 9, output_tokens: 2 } }), { prompt_tokens: 9, completion_tokens: 2 });
  assert.equal(usageOf({ usage: { prompt_tokens: -1, completion_tokens: "many" } }), null);
  assert.equal(usageOf({ tokens: 5 }), null);
  assert.equal(usageOf(undefined), null);
});

test("an agent that cannot be reached ends the episode as agent_disconnected (errored); one that never answers as timed_out", async () => {
  const gone = tempDir("a2a-gone");
  // A port that was free a moment ago: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const run = await runCliAsync(["run", join(SAMPLES, "cellular_off_adapted.scenario.yaml"), "--agent", `a2a:${url}`, "--out", gone]);
  // A scenario that could not be played to its end fails the run (docs/cli.md).
  assert.equal(run.status, 1, run.stderr);
  const [result] = readSummary(gone).scenarios;
  assert.equal(result?.end_reason, "agent_disconnected");
  assert.equal(result?.status, "errored");
  assert.equal(result?.detail, `could not reach the A2A agent at ${url}: nothing listens there (ECONNREFUSED)`);
  assert.equal(readTrajectoryFile(join(gone, "cellular_off_adapted.trajectory.jsonl")).end?.reason, "agent_disconnected");

  const server = await startAgent(new BrokenAgent("hang"));
  try {
    const out = tempDir("a2a-hang");
    const started = Date.now();
    const hung = await runCliAsync([
      "run",
      join(SAMPLES, "cellular_off_adapted.scenario.yaml"),
      "--agent",
      `a2a:${server.url}`,
      "--time-limit",
      "2",
      "--out",
      out,
    ]);
    assert.equal(hung.status, 1, hung.stderr);
    assert.ok(Date.now() - started < 20_000, "the run did not wait for the agent");
    const [timed] = readSummary(out).scenarios;
    assert.equal(timed?.end_reason, "timed_out");
    assert.equal(timed?.status, "errored", "a run ended by its time limit is errored, not scored");
    assert.equal(readTrajectoryFile(join(out, "cellular_off_adapted.trajectory.jsonl")).end?.reason, "timed_out");
  } finally {
    await server.close();
  }
});

test("an agent that drops the socket of a message is reported in words, not as undici's UND_ERR_SOCKET", async () => {
  // A real A2A server's card, then a connection closed under the message request.
  const server = await startAgent(new BrokenAgent("hang"));
  const dropping = createServer((req, res) => {
    if (req.method === "GET") {
      void fetch(`${server.url}${req.url ?? ""}`)
        .then((r) => r.text())
        .then((card) => res.writeHead(200, { "content-type": "application/json" }).end(card.replaceAll(server.url, base)));
      return;
    }
    req.socket.destroy();
  });
  await new Promise<void>((resolve) => dropping.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}`;
  try {
    const out = tempDir("a2a-dropped");
    await runCliAsync(["run", join(SAMPLES, "cellular_off_adapted.scenario.yaml"), "--agent", `a2a:${base}`, "--out", out]);
    const [result] = readSummary(out).scenarios;
    assert.equal(result?.end_reason, "agent_disconnected");
    assert.equal(result?.detail, `could not reach the A2A agent at ${base}: the agent closed the connection before it answered`);
  } finally {
    dropping.closeAllConnections();
    await new Promise<void>((resolve) => dropping.close(() => resolve()));
    await server.close();
  }
});

test("a2a: with something that is not a URL is a usage error", async () => {
  const run = await runCliAsync(["run", SAMPLES, "--agent", "a2a:localhost", "--out", tempDir("a2a-usage")]);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /^toolsandbox: --agent: a2a:: /);
});
