// Requests checked at the door: malformed bodies get OpenAI-style errors with the right status.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { agentHistory, agentTools, client, sampleScenario } from "./conversation.js";

const scenario = sampleScenario("update_contact_relationship_with_relationship_adapted");
let server: MockLlm;

before(async () => {
  server = await startMockLlm({ scenarios: [scenario] });
});
after(() => server.close());

interface ErrorAnswer {
  readonly status: number;
  readonly message: string;
  readonly type: unknown;
  readonly param: unknown;
  readonly code: unknown;
}

/** POSTs a raw body and returns the OpenAI-style error it was answered with. */
async function rejected(body: string | object, path = "/v1/chat/completions", method = "POST"): Promise<ErrorAnswer> {
  const init: RequestInit = { method, headers: { "content-type": "application/json" } };
  if (method !== "GET") init.body = typeof body === "string" ? body : JSON.stringify(body);
  const response = await fetch(`${server.url}${path}`, init);
  assert.equal(response.headers.get("content-type"), "application/json");
  const json = (await response.json()) as { error?: { message?: unknown; type?: unknown; param?: unknown; code?: unknown } };
  assert.ok(json.error && typeof json.error.message === "string", "an { error: { message } } body");
  return { status: response.status, message: json.error.message, type: json.error.type, param: json.error.param, code: json.error.code };
}

const valid = (): { model: string; messages: unknown[]; tools: unknown[] } => ({
  model: "gpt-4o",
  messages: agentHistory(scenario, []),
  tools: agentTools(scenario),
});

test("a body that is not JSON, or not an object, is a 400 invalid_request_error", async () => {
  const notJson = await rejected("{ model: ");
  assert.equal(notJson.status, 400);
  assert.equal(notJson.type, "invalid_request_error");
  assert.match(notJson.message, /not valid JSON/);
  assert.equal((await rejected("[1, 2]")).status, 400);
  assert.match((await rejected("")).message, /no body/);
});

test("stream_options without stream: true, or with an unknown option, is a 400 naming the field", async () => {
  const without = await rejected({ ...valid(), stream_options: { include_usage: true } });
  assert.equal(without.status, 400);
  assert.equal(without.param, "stream_options");
  assert.match(without.message, /only allowed when "stream" is true/);
  const unknown = await rejected({ ...valid(), stream: true, stream_options: { include_everything: true } });
  assert.equal(unknown.param, "stream_options.include_everything");
});

test("missing model, missing or empty messages, unknown arguments and n > 1 are 400s naming the field", async () => {
  const { model: _model, ...noModel } = valid();
  assert.equal((await rejected(noModel)).param, "model");
  assert.equal((await rejected({ model: "m" })).param, "messages");
  assert.equal((await rejected({ model: "m", messages: [] })).param, "messages");
  const unknown = await rejected({ ...valid(), top_k: 5 });
  assert.equal(unknown.message, "Unrecognized request argument supplied: top_k");
  assert.equal((await rejected({ ...valid(), n: 2 })).param, "n");
  assert.equal((await rejected({ ...valid(), temperature: 3 })).param, "temperature");
  assert.equal((await rejected({ ...valid(), functions: [] })).param, "functions");
});

test("messages: unknown roles, missing content and stray keys are reported with their path", async () => {
  const body = valid();
  const withMessage = (m: unknown): object => ({ ...body, messages: [...body.messages, m] });
  const role = await rejected(withMessage({ role: "developer", content: "x" }));
  assert.equal(role.param, "messages[2].role");
  assert.match(role.message, /must be one of "system", "user", "assistant" or "tool", got "developer"/);
  assert.equal((await rejected(withMessage({ role: "user" }))).param, "messages[2].content");
  assert.equal((await rejected(withMessage({ role: "assistant", content: null }))).param, "messages[2].content");
  assert.equal((await rejected(withMessage({ role: "user", content: "x", tool_calls: [] }))).param, "messages[2].tool_calls");
  const image = await rejected(withMessage({ role: "user", content: [{ type: "image_url", image_url: { url: "x" } }] }));
  assert.match(image.message, /text only/);
});

test("tool calls: a malformed call, a tool message answering nothing and an unanswered call are 400s", async () => {
  const body = valid();
  const badCall = await rejected({
    ...body,
    messages: [
      ...body.messages,
      {
        role: "assistant",
        tool_calls: [{ id: "a", type: "function", function: { name: "search_contacts", arguments: { relationship: "friend" } } }],
      },
    ],
  });
  assert.equal(badCall.param, "messages[2].tool_calls[0].function.arguments");
  assert.match(badCall.message, /must be a string/);

  const orphan = await rejected({ ...body, messages: [...body.messages, { role: "tool", tool_call_id: "nope", content: "x" }] });
  assert.equal(orphan.param, "messages[2].tool_call_id");

  const call = { id: "a", type: "function", function: { name: "search_contacts", arguments: "{}" } };
  const unanswered = await rejected({
    ...body,
    messages: [...body.messages, { role: "assistant", tool_calls: [call] }, { role: "user", content: "hello?" }],
  });
  assert.equal(unanswered.param, "messages[3]");
  assert.match(unanswered.message, /tool_call_id "a" has no answer/);
});

test("tools: bad names, duplicates and invalid JSON Schemas are 400s", async () => {
  const fn = (f: object): object => ({ ...valid(), tools: [{ type: "function", function: f }] });
  assert.equal((await rejected(fn({ name: "has space" }))).param, "tools[0].function.name");
  assert.match((await rejected({ ...valid(), tools: [...valid().tools, valid().tools[0]] })).message, /offered twice/);
  const schema = await rejected(fn({ name: "t", parameters: { type: "object", properties: { a: { type: "str" } } } }));
  assert.match(schema.message, /not a valid JSON Schema/);
  assert.equal((await rejected(fn({ name: "t", parameters: { type: "array" } }))).param, "tools[0].function.parameters.type");
});

test("unknown paths are 404 and wrong methods 405, both as OpenAI error bodies", async () => {
  const missing = await rejected({}, "/v1/completions");
  assert.equal(missing.status, 404);
  assert.match(missing.message, /Invalid URL \(POST \/v1\/completions\)/);
  assert.equal((await rejected({}, "/v1/chat/completions", "GET")).status, 405);
  assert.equal((await rejected({}, "/v1/models", "POST")).status, 405);
});

test("GET /v1/models lists mock and one mock/<name> per scenario, through the openai client too", async () => {
  const openai = client(server.url);
  const ids: string[] = [];
  for await (const model of openai.models.list()) ids.push(model.id);
  assert.deepEqual(ids, ["mock", `mock/${scenario.name}`]);
  const one = await openai.models.retrieve(`mock/${scenario.name}`);
  assert.equal(one.id, `mock/${scenario.name}`);
  await assert.rejects(openai.models.retrieve("gpt-4o"), OpenAI.NotFoundError);
});

test("a rejected request is recorded with its status and message; the server keeps serving", async () => {
  const before = server.requests.length;
  await rejected({ ...valid(), stream_options: { include_usage: true } });
  const recorded = server.requests[before];
  assert.equal(recorded?.status, 400);
  assert.match(recorded?.error ?? "", /stream_options/);
  const ok = await client(server.url).chat.completions.create({
    model: "gpt-4o",
    messages: agentHistory(scenario, []),
    tools: agentTools(scenario),
  });
  assert.equal(ok.choices[0]?.message.tool_calls?.length, 1);
});
