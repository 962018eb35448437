import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Message } from "../../../engine/episode/types.js";
import { modelSettings } from "../../../engine/roles/openai/settings.js";
import { bodies, field, mockSettings, modelRoles, playWithModels, sample, withMock } from "./helpers.js";

const SCENARIO = "send_message_with_contact_content_cellular_off_adapted";
const toolResults = (messages: readonly Message[]) =>
  messages.filter((m) => m.sender === "execution_environment" && m.recipient === "agent");

test("a 429 with Retry-After is waited out and retried; the episode completes", async () => {
  const scenario = sample(SCENARIO);
  await withMock([scenario], [{ kind: "rate-limit", retryAfter: 1, first: 1, role: "agent" }], async (mock) => {
    const started = performance.now();
    const { episode } = await playWithModels(scenario, modelRoles(mockSettings(mock), mockSettings(mock)));
    const elapsed = performance.now() - started;
    assert.deepEqual(episode.ended, { reason: "end_conversation" });
    assert.deepEqual(
      mock.requests.slice(0, 2).map((r) => r.status),
      [429, 200],
    );
    // The client's own backoff would have been about half a second; the header asked for one.
    assert.ok(elapsed >= 950, `waited ${Math.round(elapsed)} ms`);
  });
});

test("5xx answers beyond the retry cap end the episode with model_error and a clear detail", async () => {
  const scenario = sample(SCENARIO);
  await withMock([scenario], [{ kind: "server-error", status: 503, role: "agent" }], async (mock) => {
    const { episode, events } = await playWithModels(scenario, modelRoles(mockSettings(mock, { max_retries: 1 }), mockSettings(mock)));
    assert.equal(episode.ended?.reason, "model_error");
    assert.equal(
      episode.ended?.detail,
      `agent openai:gpt-test: HTTP 503 from ${mock.url}/v1 after 2 attempts: The server had an error while processing your request (injected fault).`,
    );
    assert.equal(mock.requests.length, 2, "the first attempt and one retry");
    // The scripted start is on record, and the end event closes the stream.
    assert.equal(episode.messages.length, episode.firstUserIndex + 1);
    assert.deepEqual(events.at(-1), {
      type: "end",
      reason: "model_error",
      detail: episode.ended?.detail,
      message_count: episode.messages.length,
    });
  });
});

test("a failing user simulator is named in the detail", async () => {
  const scenario = sample(SCENARIO);
  await withMock([scenario], [{ kind: "server-error", role: "user" }], async (mock) => {
    const { episode } = await playWithModels(scenario, modelRoles(mockSettings(mock), mockSettings(mock, { max_retries: 0 }, "sim")));
    assert.equal(episode.ended?.reason, "model_error");
    assert.match(episode.ended?.detail ?? "", /^user openai:sim: HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/v1 after 1 attempt: /);
    // The agent's part was played in full before the simulator failed.
    assert.equal(episode.messages.at(-1)?.sender, "agent");
  });
});

test("a request that outlasts the timeout is retried; one that always does ends with model_error", async () => {
  const scenario = sample(SCENARIO);
  await withMock([scenario], [{ kind: "latency", ms: 5000, first: 1 }], async (mock) => {
    const settings = mockSettings(mock, { timeout_seconds: 0.3, max_retries: 1 });
    const { episode } = await playWithModels(scenario, modelRoles(settings, settings));
    assert.deepEqual(episode.ended, { reason: "end_conversation" });
  });
  await withMock([scenario], [{ kind: "latency", ms: 5000 }], async (mock) => {
    const settings = mockSettings(mock, { timeout_seconds: 0.2, max_retries: 0 });
    const started = performance.now();
    const { episode } = await playWithModels(scenario, modelRoles(settings, settings));
    assert.ok(performance.now() - started < 2000, "the timeout, not the server, ended the wait");
    assert.deepEqual(episode.ended, {
      reason: "model_error",
      detail: `agent openai:gpt-test: no answer from ${mock.url}/v1 within 0.2 s (1 attempt)`,
    });
  });
});

test("a dropped connection is retried; a server that never answers ends with model_error", async () => {
  const scenario = sample(SCENARIO);
  await withMock([scenario], [{ kind: "drop", first: 1 }], async (mock) => {
    const { episode } = await playWithModels(scenario, modelRoles(mockSettings(mock, { max_retries: 1 }), mockSettings(mock)));
    assert.deepEqual(episode.ended, { reason: "end_conversation" });
    assert.equal(mock.requests[0]?.status, null, "the first request was dropped");
  });
  await withMock([scenario], [{ kind: "drop" }], async (mock) => {
    const { episode } = await playWithModels(scenario, modelRoles(mockSettings(mock, { max_retries: 0 }), mockSettings(mock)));
    assert.equal(episode.ended?.reason, "model_error");
    assert.match(
      episode.ended?.detail ?? "",
      /^agent openai:gpt-test: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1 \(1 attempt\): Connection error\./,
    );
  });
  // Nothing listening at all.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const settings = modelSettings("gpt-test", { base_url: `http://127.0.0.1:${port}/v1`, max_retries: 0 });
  const { episode } = await playWithModels(scenario, modelRoles(settings, settings));
  assert.equal(episode.ended?.reason, "model_error");
  assert.match(episode.ended?.detail ?? "", /cannot reach .* \(1 attempt\): Connection error\..*ECONNREFUSED/);
});

test("malformed tool-call JSON reaches the agent as a recoverable error, with the text it sent", async () => {
  const scenario = sample(SCENARIO);
  await withMock([scenario], [{ kind: "malformed-arguments", first: 1, role: "agent" }], async (mock) => {
    const { episode } = await playWithModels(scenario, modelRoles(mockSettings(mock), mockSettings(mock)));
    assert.equal(episode.ended?.reason, "end_conversation", "the episode goes on");
    const [first] = toolResults(episode.messages);
    assert.match(first?.tool_call_exception ?? "", /^ValueError: Tool call arguments are not a valid JSON object: '/);
    const request = episode.messages.find((m) => m.sender === "agent" && m.recipient === "execution_environment");
    assert.equal(request?.tool_call?.arguments, undefined);
    const raw = request?.tool_call?.raw_arguments ?? "";
    assert.throws(() => JSON.parse(raw));
    // The next request shows the model its own malformed arguments, as it wrote them.
    const second = bodies(mock, "agent")[1]!;
    const calls = (field(second, "messages") as unknown[]).flatMap((m) => (field(m as never, "tool_calls") as unknown[] | undefined) ?? []);
    assert.equal(field(field(calls[0] as never, "function"), "arguments"), raw);
  });
});

test("a call to an unknown tool comes back to the agent as upstream's KeyError, and the episode goes on", async () => {
  const scenario = sample(SCENARIO);
  await withMock([scenario], [{ kind: "unknown-tool", name: "teleport", first: 1, role: "agent" }], async (mock) => {
    const { episode } = await playWithModels(scenario, modelRoles(mockSettings(mock), mockSettings(mock)));
    const [first] = toolResults(episode.messages);
    assert.equal(first?.openai_function_name, "teleport");
    assert.match(
      first?.tool_call_exception ?? "",
      /^KeyError: "Agent tool call agent_facing_tool_name='teleport' is not a known allowed tool\./,
    );
    assert.notEqual(episode.ended?.reason, "model_error");
  });
  // Under `invalid_tool_call: end` the same call ends the episode, as upstream's crash did.
  const strict = { ...scenario, options: { ...scenario.options, invalid_tool_call: "end" as const } };
  await withMock([strict], [{ kind: "unknown-tool", first: 1, role: "agent" }], async (mock) => {
    const { episode } = await playWithModels(strict, modelRoles(mockSettings(mock), mockSettings(mock)));
    assert.equal(episode.ended?.reason, "invalid_tool_call");
  });
});

test("cancelling while a model is answering ends the episode as cancelled at once", async () => {
  const scenario = sample(SCENARIO);
  await withMock([scenario], [{ kind: "latency", ms: 10_000 }], async (mock) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 200);
    const started = performance.now();
    const { episode } = await playWithModels(scenario, modelRoles(mockSettings(mock), mockSettings(mock)), controller.signal);
    clearTimeout(timer);
    assert.deepEqual(episode.ended, { reason: "cancelled" });
    assert.ok(performance.now() - started < 2000);
  });
});
