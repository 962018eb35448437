import { test } from "node:test";
import assert from "node:assert/strict";
import { renderUserSystemMessage, DEFAULT_AGENT_SYSTEM_PROMPT } from "../../engine/scenario/prompts/prompts.js";
import { createScriptedRoles } from "../../engine/roles/scripted.js";
import type { Demonstration } from "../../engine/scenario/model.js";
import { agentSays, buildScenario, call, calls, endConversation } from "./fixtures.js";
import { indices, makeEpisode, recordingRoles, routes } from "./harness.js";

const demo: Demonstration = {
  name: "ask_the_time",
  goal: "Find out what time it is.",
  messages: [
    { sender: "user", recipient: "agent", content: "What time is it?" },
    { sender: "agent", recipient: "user", content: "It is noon." },
  ],
};
const turnWifiOff = [calls(call("call_1", "set_wifi_status", { on: false })), agentSays("Wifi is off now."), endConversation];

test("the scripted start: system prompt, demonstrations for the user only, the user's brief, the opening", () => {
  const scenario = buildScenario({ demonstrations: [demo], reference: turnWifiOff });
  const { episode, events } = makeEpisode(scenario);
  assert.equal(episode.nextSpeaker(), null, "nobody speaks before start()");
  episode.start();
  episode.start();
  const m = episode.messages;
  assert.equal(m.length, 6, "start() is idempotent");
  assert.deepEqual(routes(m), ["system>agent", "system>user", "user>agent", "agent>user", "system>user", "user>agent"]);
  assert.equal(m[0]!.content, DEFAULT_AGENT_SYSTEM_PROMPT);
  assert.equal(m[1]!.content, renderUserSystemMessage(demo.goal, []));
  assert.equal(m[4]!.content, renderUserSystemMessage(scenario.user.goal, scenario.user.knowledge));
  assert.equal(m[5]!.content, scenario.user.opening);
  assert.deepEqual(
    m.map((x) => x.visible_to),
    [["system", "agent"], ["user"], ["user"], ["user"], ["system", "user"], ["user", "agent"]],
  );
  assert.ok(m.every((x) => x.scripted === true && x.conversation_active && x.tool_trace === null));
  assert.deepEqual(indices(m), [0, 1, 2, 3, 4, 5]);
  assert.equal(episode.firstUserIndex, 5);
  assert.equal(episode.nextSpeaker(), "agent");
  assert.deepEqual(
    events.map((e) => e.type),
    ["message", "message", "message", "message", "message", "message"],
  );
  // The initial world is the scenario's, at index 0 and everywhere until something changes.
  assert.equal(episode.world.at(0), scenario.world.tables);
  assert.equal(episode.world.at(5), scenario.world.tables);
});

test("a full scripted run: who speaks to whom, and the end_conversation exchange", async () => {
  const scenario = buildScenario({ demonstrations: [demo], reference: turnWifiOff });
  const { episode, events } = makeEpisode(scenario);
  episode.start();
  const speakers: (string | null)[] = [];
  while (!episode.ended) {
    speakers.push(episode.nextSpeaker());
    await episode.step();
  }
  assert.deepEqual(speakers, ["agent", "execution_environment", "agent", "user", "execution_environment"]);
  assert.equal(episode.nextSpeaker(), null);
  const m = episode.messages;
  assert.deepEqual(routes(m.slice(6)), [
    "agent>execution_environment",
    "execution_environment>agent",
    "agent>user",
    "user>execution_environment",
    "execution_environment>user",
  ]);
  const [request, response, text, end, endResponse] = m.slice(6);
  assert.equal(request!.openai_tool_call_id, "call_1");
  assert.equal(request!.openai_function_name, "set_wifi_status");
  assert.deepEqual(request!.tool_call, { id: "call_1", name: "set_wifi_status", arguments: { on: false } });
  assert.equal(
    request!.content,
    "call_1_parameters = {'on': False}\ncall_1_response = set_wifi_status(**call_1_parameters)\nprint(repr(call_1_response))",
  );
  assert.deepEqual(request!.visible_to, ["agent", "execution_environment"]);
  assert.equal(response!.openai_tool_call_id, "call_1");
  assert.equal(response!.openai_function_name, "set_wifi_status");
  assert.equal(text!.content, "Wifi is off now.");
  assert.equal(end!.content, "end_conversation()");
  assert.equal(end!.conversation_active, false);
  assert.equal(endResponse!.content, "None");
  assert.equal(endResponse!.conversation_active, false);
  assert.equal(endResponse!.tool_call_exception, null);
  assert.deepEqual(endResponse!.tool_trace, [{ tool_name: "end_conversation", arguments: {}, result: null }]);
  assert.ok(m.slice(0, -2).every((x) => x.conversation_active));
  assert.ok(m.slice(6).every((x) => x.scripted === undefined));

  assert.deepEqual(episode.ended, { reason: "end_conversation" });
  const last = events.at(-1);
  assert.deepEqual(last, { type: "end", reason: "end_conversation", message_count: 11 });
  assert.equal(events.filter((e) => e.type === "end").length, 1);
  // Every message went out once, in index order.
  const emitted = events.flatMap((e) => (e.type === "message" ? [e.message.sandbox_message_index] : []));
  assert.deepEqual(emitted, indices(m));
  await episode.step();
  assert.equal(events.length, emitted.length + 2, "a step after the end does nothing (messages + world + end)");
});

test("each role is shown only the messages visible to it", async () => {
  const scenario = buildScenario({ demonstrations: [demo], reference: turnWifiOff });
  const roles = recordingRoles(createScriptedRoles(scenario));
  const { episode } = makeEpisode(scenario, { agent: roles.agent, user: roles.user });
  await episode.run();
  // The agent never sees the user's brief or the demonstrations.
  assert.deepEqual(
    roles.agentRequests.map((r) => indices(r.messages)),
    [
      [0, 5],
      [0, 5, 6, 7],
    ],
  );
  // The user sees its brief, the demonstrations and its conversation with the agent, not the tool calls.
  assert.deepEqual(
    roles.userRequests.map((r) => indices(r.messages)),
    [[1, 2, 3, 4, 5, 8]],
  );
  assert.ok(roles.agentRequests.every((r) => r.scenario === scenario));
});

test("the agent is offered the allowed tools in catalog order, deny winning over allow", async () => {
  const toolNames = async (allow: readonly string[] | null, deny: readonly string[]): Promise<string[]> => {
    const scenario = buildScenario({ allow, deny, reference: [agentSays("Hello.")] });
    const roles = recordingRoles(createScriptedRoles(scenario));
    await makeEpisode(scenario, { agent: roles.agent, user: roles.user }).episode.run();
    return roles.agentRequests[0]!.tools.map((t) => t.name);
  };
  assert.deepEqual(await toolNames(["set_wifi_status", "search_holiday", "add_contact", "get_wifi_status"], ["search_holiday"]), [
    "add_contact",
    "get_wifi_status",
    "set_wifi_status",
  ]);
  const all = await toolNames(null, []);
  assert.equal(all.length, 33);
  assert.ok(!all.includes("end_conversation"), "end_conversation is the user's tool");
  assert.deepEqual(all.slice(0, 4), ["add_contact", "modify_contact", "remove_contact", "search_contacts"]);
});

test("step() calls made while a turn runs wait for it", async () => {
  const scenario = buildScenario({ reference: turnWifiOff });
  const { episode } = makeEpisode(scenario);
  await Promise.all([episode.step(), episode.step(), episode.step()]);
  assert.deepEqual(routes(episode.messages.slice(3)), ["agent>execution_environment", "execution_environment>agent", "agent>user"]);
});
