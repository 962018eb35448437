// Telemetry of model calls: each call leaves a model_call event (latency, attempts, request id,
// usage as reported, the bodies unless recording is off) before the messages it produced; failed
// calls are recorded too; the API key is in no recorded body; `run` sums the calls into
// summary.json and writes no byte of the key anywhere.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CliIO } from "../../../cli/io.js";
import { runCommand } from "../../../cli/run.js";
import { withRoleSpecs } from "../../../cli/role-options.js";
import type { EpisodeEvent, ModelCall } from "../../../engine/episode/types.js";
import { OpenAiAgent } from "../../../engine/roles/openai/agent.js";
import { modelSettings } from "../../../engine/roles/openai/settings.js";
import { readTrajectoryFile, parseTrajectory } from "../../../engine/trajectory/reader.js";
import { serializeLine } from "../../../engine/trajectory/writer.js";
import { toolsFor } from "../../../engine/episode/tool-calls.js";
import { removeTempDirs, tempDir } from "../../cli/harness.js";
import { SECRET_KEY, field, mockSettings, modelRoles, playWithModels, sample, withMock } from "./helpers.js";

const SCENARIO = "send_message_with_contact_content_cellular_off_adapted";
type CallEvent = Extract<EpisodeEvent, { type: "model_call" }>;
const callsOf = (events: readonly EpisodeEvent[]): CallEvent[] => events.filter((e): e is CallEvent => e.type === "model_call");

test("every model call is recorded before the messages it produced, with usage, request id and bodies", async () => {
  const scenario = sample(SCENARIO);
  await withMock([scenario], [], async (mock) => {
    const { events, episode } = await playWithModels(scenario, modelRoles(mockSettings(mock), mockSettings(mock, {}, "user-model")));
    const calls = callsOf(events);
    const chatRequests = mock.requests.filter((r) => r.path === "/v1/chat/completions");
    assert.equal(calls.length, chatRequests.length);
    for (const [i, event] of calls.entries()) {
      const next = events[events.indexOf(event) + 1];
      // The next line is the first message the call produced, at the index the event names.
      assert.equal(next?.type, "message");
      if (next?.type === "message") {
        assert.equal(next.message.sandbox_message_index, event.index);
        assert.equal(next.message.sender, event.role);
      }
      const { call } = event;
      assert.equal(call.model, event.role === "agent" ? "gpt-test" : "user-model");
      assert.equal(call.request_id, `req-mock-${chatRequests[i]!.number}`);
      assert.equal(call.attempts, 1);
      assert.ok(Number.isSafeInteger(call.latency_ms) && call.latency_ms >= 0);
      assert.ok((call.usage?.prompt_tokens ?? 0) > 0);
      assert.deepEqual(call.usage, field(call.response, "usage"), "usage as the endpoint reported it");
      assert.deepEqual(call.request, chatRequests[i]!.body, "the request body as sent");
    }
    assert.ok(calls.some((c) => c.role === "agent") && calls.some((c) => c.role === "user"));
    assert.deepEqual(episode.ended, { reason: "end_conversation" });
    assert.ok(!JSON.stringify(events).includes(SECRET_KEY));
  });
});

test("with recording off, a call keeps its figures but not its bodies", async () => {
  const scenario = sample(SCENARIO);
  await withMock([scenario], [], async (mock) => {
    const agent = new OpenAiAgent({ settings: mockSettings(mock), apiKey: SECRET_KEY, recordIo: false });
    const { events } = await playWithModels(scenario, { agent, user: modelRoles(mockSettings(mock), mockSettings(mock)).user });
    const agentCalls = callsOf(events).filter((e) => e.role === "agent");
    const userCalls = callsOf(events).filter((e) => e.role === "user");
    assert.ok(agentCalls.length > 0);
    for (const { call } of agentCalls) {
      assert.deepEqual(Object.keys(call).sort(), ["attempts", "latency_ms", "model", "request_id", "usage"]);
      assert.ok(call.usage);
    }
    for (const { call } of userCalls) assert.ok(call.request && call.response);
  });
});

test("a key the server echoes back is blanked out of the recorded response; a failed call is recorded with its error", async () => {
  const scenario = sample(SCENARIO);
  const tools = toolsFor(scenario, "agent");
  const echoing: typeof fetch = async (_input, init) => {
    const auth = new Headers(init?.headers).get("authorization") ?? "";
    const body = { choices: [{ message: { role: "assistant", content: `you sent ${auth}` } }], usage: { prompt_tokens: 7 } };
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json", "x-request-id": "r-1" } });
  };
  const recorded: ModelCall[] = [];
  const settings = modelSettings("m", { base_url: "http://127.0.0.1:9/v1", max_retries: 0 });
  const agent = new OpenAiAgent({ settings, apiKey: SECRET_KEY, fetch: echoing });
  const messages = [{ ...base, content: "hi" }];
  await agent.respond({ messages, tools, scenario, onModelCall: (c) => recorded.push(c) });
  assert.equal(recorded.length, 1);
  assert.equal(recorded[0]!.request_id, "r-1");
  assert.deepEqual(recorded[0]!.usage, { prompt_tokens: 7 }, "only the counts the endpoint reported");
  assert.ok(JSON.stringify(recorded[0]!.response).includes("[redacted]"));

  const failing: typeof fetch = async (_input, init) => {
    const auth = new Headers(init?.headers).get("authorization") ?? "";
    return new Response(JSON.stringify({ error: { message: `bad key ${auth}` } }), {
      status: 401,
      headers: { "content-type": "application/json" },
    });
  };
  const broken = new OpenAiAgent({ settings, apiKey: SECRET_KEY, fetch: failing });
  await assert.rejects(broken.respond({ messages, tools, scenario, onModelCall: (c) => recorded.push(c) }));
  assert.equal(recorded.length, 2);
  assert.match(recorded[1]!.error ?? "", /HTTP 401/);
  assert.equal(recorded[1]!.usage, null);
  assert.ok(recorded[1]!.response !== undefined, "the error body is kept");
  for (const call of recorded) assert.ok(!serializeLine({ type: "model_call", role: "agent", index: 0, call }).includes(SECRET_KEY));
});

const base = {
  sandbox_message_index: 0,
  sender: "user" as const,
  recipient: "agent" as const,
  visible_to: ["agent" as const, "user" as const],
  conversation_active: true,
  openai_tool_call_id: null,
  openai_function_name: null,
  tool_call_exception: null,
  tool_trace: null,
};

function quietIO(): CliIO {
  return { out: () => undefined, err: () => undefined, stdoutIsTTY: false, stderrIsTTY: false, stderr: process.stderr, debug: false };
}

test("run: summary.json sums the calls per scenario and for the run, and no written byte holds the key", async (t) => {
  t.after(removeTempDirs);
  const scenario = sample(SCENARIO);
  const file = join("sample-scenarios", `${SCENARIO}.scenario.yaml`);
  process.env.TELEMETRY_TEST_KEY = SECRET_KEY;
  try {
    await withMock([scenario], [], async (mock) => {
      for (const recordIo of [true, false]) {
        const out = tempDir("telemetry");
        const flags = { baseUrl: `${mock.url}/v1`, apiKeyEnv: "TELEMETRY_TEST_KEY", ...(recordIo ? {} : { recordIo: false }) };
        const options = withRoleSpecs({ out, agent: "openai:m", user: "openai:m", seed: 0, ...flags });
        assert.equal(await runCommand([file], options, quietIO()), 0);
        for (const f of readdirSync(out)) assert.ok(!readFileSync(join(out, f)).includes(SECRET_KEY), `${f} holds the key`);
        const [trajectoryFile] = readdirSync(out).filter((f) => f.endsWith(".trajectory.jsonl"));
        const trajectory = readTrajectoryFile(join(out, trajectoryFile!));
        const calls = trajectory.modelCalls;
        assert.ok(calls.length >= 3);
        assert.equal(
          calls.every((c) => c.call.request !== undefined),
          recordIo,
        );
        const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as {
          scenarios: { telemetry?: Record<string, number> }[];
          totals: { telemetry?: Record<string, number> };
        };
        const prompt = calls.reduce((n, c) => n + (c.call.usage?.prompt_tokens ?? 0), 0);
        const latency = calls.reduce((n, c) => n + c.call.latency_ms, 0);
        assert.equal(summary.scenarios[0]!.telemetry?.calls, calls.length);
        assert.equal(summary.scenarios[0]!.telemetry?.prompt_tokens, prompt);
        assert.equal(summary.totals.telemetry?.latency_ms, latency);
        assert.equal(summary.totals.telemetry?.failed_calls, 0);
      }
    });
  } finally {
    delete process.env.TELEMETRY_TEST_KEY;
  }
});

test("the reader keeps model calls in order and refuses one that does not point at the next message", () => {
  const text = readFileSync(join("sample-scenarios", "trajectories", `${SCENARIO}.trajectory.jsonl`), "utf8");
  const [header, first, ...rest] = text.trimEnd().split("\n");
  const call = (index: number): string =>
    serializeLine({
      type: "model_call",
      role: "user",
      index,
      call: { model: "m", latency_ms: 3, attempts: 1, request_id: null, usage: null },
    }).trimEnd();
  const good = parseTrajectory(`${[header, first, call(1), ...rest].join("\n")}\n`, "good.jsonl");
  assert.equal(good.modelCalls.length, 1);
  assert.throws(
    () => parseTrajectory(`${[header, first, call(4), ...rest].join("\n")}\n`, "bad.jsonl"),
    /bad\.jsonl:3: .*model call at index 4 is out of order/,
  );
  // Files from before telemetry have no such lines and read as they did.
  assert.equal(parseTrajectory(text, "old.jsonl").modelCalls.length, 0);
});
