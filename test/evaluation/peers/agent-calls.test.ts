import { test } from "node:test";
import assert from "node:assert/strict";
import { agentCalls, callArguments, referenceCalls } from "../../../engine/evaluation/agent-calls.js";
import { agentSays, buildScenario, call, calls, endConversation, userSays } from "../../episode/fixtures.js";
import { Transcript } from "./transcript.js";

test("each request gets the outcome of its own answer", () => {
  const t = new Transcript().user("hi");
  t.call("a", "get_wifi_status");
  t.call("b", "set_wifi_status", { on: false }, "TypeError: boom");
  const result = agentCalls(t.messages);
  assert.deepEqual(
    result.map((c) => [c.message_index, c.name, c.outcome, c.exception]),
    [
      [1, "get_wifi_status", "succeeded", null],
      [3, "set_wifi_status", "failed", "TypeError: boom"],
    ],
  );
});

test("parallel calls answered in another order keep their own outcomes", () => {
  const t = new Transcript().user("hi");
  t.request("p1", "get_wifi_status");
  t.request("p2", "set_wifi_status", { on: true });
  t.answer("p2", "ValueError: nope").answer("p1");
  assert.deepEqual(
    agentCalls(t.messages).map((c) => [c.name, c.outcome]),
    [
      ["get_wifi_status", "succeeded"],
      ["set_wifi_status", "failed"],
    ],
  );
});

test("an id reused in a later turn is paired by position", () => {
  const t = new Transcript().user("hi");
  t.call("call_0", "get_wifi_status", {}, "ConnectionError: off");
  t.call("call_0", "get_wifi_status");
  assert.deepEqual(
    agentCalls(t.messages).map((c) => c.outcome),
    ["failed", "succeeded"],
  );
});

test("a request the episode never answered is unanswered", () => {
  const t = new Transcript().user("hi");
  t.request("x", "no_such_tool");
  const [only] = agentCalls(t.messages);
  assert.equal(only?.outcome, "unanswered");
});

test("user and scripted messages are not the agent's calls", () => {
  const t = new Transcript();
  t.raw({
    sender: "agent",
    recipient: "execution_environment",
    content: "set_wifi_status(on=False)",
    visible_to: ["agent"],
    conversation_active: true,
    openai_tool_call_id: "s",
    openai_function_name: "set_wifi_status",
    tool_call_exception: null,
    tool_trace: null,
    tool_call: { id: "s", name: "set_wifi_status", arguments: { on: false } },
    scripted: true,
  });
  t.user("hi").end();
  assert.deepEqual(agentCalls(t.messages), []);
});

test("a request without a structured call is kept, with no name and malformed arguments", () => {
  const t = new Transcript().user("hi");
  t.bareRequest();
  const [only] = agentCalls(t.messages);
  assert.equal(only?.call, null);
  assert.equal(only?.name, "");
  assert.deepEqual(only?.arguments, { ok: false, raw: "" });
});

test("arguments: object, raw JSON text, nothing given, and malformed text", () => {
  assert.deepEqual(callArguments({ id: "1", name: "f", arguments: { a: 1 } }), { ok: true, args: { a: 1 } });
  assert.deepEqual(callArguments({ id: "1", name: "f", raw_arguments: '{"a": 2}' }), { ok: true, args: { a: 2 } });
  assert.deepEqual(callArguments({ id: "1", name: "f" }), { ok: true, args: {} });
  assert.deepEqual(callArguments({ id: "1", name: "f", raw_arguments: "{a: 2" }), { ok: false, raw: "{a: 2" });
  assert.deepEqual(callArguments({ id: "1", name: "f", raw_arguments: "[1]" }), { ok: false, raw: "[1]" });
});

test("reference calls are every agent_calls step's calls in order", () => {
  const scenario = buildScenario({
    reference: [
      calls(call("c1", "get_wifi_status"), call("c2", "get_cellular_service_status")),
      agentSays("Turning it off?"),
      userSays("yes"),
      calls(call("c3", "set_wifi_status", { on: false })),
      agentSays("Done."),
      endConversation,
    ],
  });
  assert.deepEqual(
    referenceCalls(scenario).map((c) => c.id),
    ["c1", "c2", "c3"],
  );
});
