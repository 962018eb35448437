import { test } from "node:test";
import assert from "node:assert/strict";
import { agentSays, buildScenario, call, calls, endConversation } from "./fixtures.js";
import { played, queuedRoles, routes, runScenario, settingAt } from "./harness.js";

const allow = ["set_wifi_status", "get_wifi_status", "search_holiday"];
const unknownText =
  "KeyError: \"Agent tool call agent_facing_tool_name='fly_to_moon' is not a known allowed tool. Options are available_tool_names=['get_wifi_status', 'set_wifi_status', 'search_holiday']\"";

test("recover: an unknown tool is recorded and answered with an error the agent can act on", async () => {
  const scenario = buildScenario({
    allow,
    reference: [calls(call("call_1", "fly_to_moon", { speed: 3 })), agentSays("I can't do that."), endConversation],
  });
  const { episode, events } = await runScenario(scenario);
  const [request, response, text] = played(episode);
  assert.deepEqual(request!.tool_call, { id: "call_1", name: "fly_to_moon", arguments: { speed: 3 } });
  assert.equal(
    request!.content,
    "call_1_parameters = {'speed': 3}\ncall_1_response = fly_to_moon(**call_1_parameters)\nprint(repr(call_1_response))",
  );
  assert.equal(response!.content, unknownText);
  assert.equal(response!.tool_call_exception, unknownText);
  assert.equal(response!.tool_trace, null);
  assert.equal(response!.openai_function_name, "fly_to_moon");
  assert.equal(text!.content, "I can't do that.");
  assert.deepEqual(episode.ended, { reason: "end_conversation" });
  assert.equal(events.filter((e) => e.type === "world").length, 0);
});

test("recover: a denied tool is unknown to the agent even if the allow list names it", async () => {
  const scenario = buildScenario({
    allow,
    deny: ["set_wifi_status"],
    reference: [calls(call("call_1", "set_wifi_status", { on: false })), agentSays("No."), endConversation],
  });
  const { episode } = await runScenario(scenario);
  const response = played(episode)[1]!;
  assert.equal(
    response.content,
    "KeyError: \"Agent tool call agent_facing_tool_name='set_wifi_status' is not a known allowed tool. Options are available_tool_names=['get_wifi_status', 'search_holiday']\"",
  );
  assert.equal(settingAt(episode, 99).wifi, true);
});

test("recover: argument text that is not a JSON object is quoted back to the agent", async () => {
  const roles = queuedRoles([
    { kind: "calls", calls: [{ id: "call_1", name: "set_wifi_status", raw_arguments: '{"on": fals' }] },
    { kind: "calls", calls: [{ id: "call_2", name: "set_wifi_status", raw_arguments: "[false]" }] },
    { kind: "calls", calls: [{ id: "call_3", name: "set_wifi_status", raw_arguments: '{"on": false}' }] },
    { kind: "text", text: "Done." },
  ]);
  const scenario = buildScenario({ allow });
  const { episode } = await runScenario(scenario, { agent: roles.agent, user: roles.user });
  const m = played(episode);
  assert.equal(m[0]!.content.split("\n")[0], "call_1_parameters = json.loads('{\"on\": fals')");
  assert.deepEqual(m[0]!.tool_call, { id: "call_1", name: "set_wifi_status", raw_arguments: '{"on": fals' });
  assert.equal(m[1]!.content, "ValueError: Tool call arguments are not a valid JSON object: '{\"on\": fals'");
  assert.equal(m[3]!.content, "ValueError: Tool call arguments are not a valid JSON object: '[false]'");
  // Well-formed raw text is parsed and runs.
  assert.equal(m[4]!.content.split("\n")[0], "call_3_parameters = {'on': False}");
  assert.equal(m[5]!.content, "None");
  assert.equal(settingAt(episode, m[5]!.sandbox_message_index).wifi, false);
});

test("recover: an invalid call among parallel calls fails the original ordering", async () => {
  const scenario = buildScenario({
    allow,
    reference: [
      calls(call("call_1", "set_wifi_status", { on: false }), call("call_2", "fly_to_moon")),
      agentSays("Half done."),
      endConversation,
    ],
  });
  const { episode } = await runScenario(scenario);
  const [, , first, second] = played(episode);
  assert.deepEqual([first!.openai_tool_call_id, second!.openai_tool_call_id], ["call_1", "call_2"]);
  assert.equal(first!.content, "None");
  assert.match(second!.content, /^KeyError: /);
  assert.equal(settingAt(episode, first!.sandbox_message_index).wifi, false);
});

test("end: the invalid request is recorded, then the episode ends as upstream's crash did", async () => {
  const scenario = buildScenario({
    allow,
    invalid_tool_call: "end",
    reference: [calls(call("call_1", "get_wifi_status"), call("call_2", "fly_to_moon")), agentSays("Never said."), endConversation],
  });
  const { episode, events } = await runScenario(scenario);
  assert.deepEqual(routes(played(episode)), ["agent>execution_environment", "agent>execution_environment"]);
  assert.deepEqual(episode.ended, { reason: "invalid_tool_call", detail: unknownText });
  assert.deepEqual(events.at(-1), { type: "end", reason: "invalid_tool_call", detail: unknownText, message_count: 5 });
});

test("end: a valid call runs as usual", async () => {
  const scenario = buildScenario({
    allow,
    invalid_tool_call: "end",
    reference: [calls(call("call_1", "get_wifi_status")), agentSays("On."), endConversation],
  });
  const { episode } = await runScenario(scenario);
  assert.equal(played(episode)[1]!.content, "True");
  assert.deepEqual(episode.ended, { reason: "end_conversation" });
});

test("recover: arguments nested past the nesting limit are a tool error, whether given parsed (a model's) or as text", async () => {
  const deepText = `{"on": ${"[".repeat(5000)}false${"]".repeat(5000)}}`;
  const deepParsed = JSON.parse(deepText) as Record<string, never>;
  const roles = queuedRoles([
    { kind: "calls", calls: [{ id: "call_1", name: "set_wifi_status", raw_arguments: deepText }] },
    { kind: "calls", calls: [{ id: "call_2", name: "set_wifi_status", arguments: deepParsed }] },
    { kind: "calls", calls: [{ id: "call_3", name: "set_wifi_status", arguments: { on: false } }] },
    { kind: "text", text: "Done." },
  ]);
  const scenario = buildScenario({ allow });
  const { episode } = await runScenario(scenario, { agent: roles.agent, user: roles.user });
  const m = played(episode);
  const refusal = "ValueError: Tool call arguments are nested more than 64 levels deep";
  assert.equal(m[1]!.content, refusal);
  assert.equal(m[3]!.content, refusal);
  // The parsed arguments are kept as their JSON text: nothing recursive walks them.
  assert.equal(m[2]!.tool_call?.arguments, undefined);
  assert.equal(m[2]!.tool_call?.raw_arguments?.replace(/\s/g, ""), deepText.replace(/\s/g, ""));
  assert.equal(m[5]!.tool_call_exception, null);
  assert.equal(settingAt(episode, 99).wifi, false);
});
