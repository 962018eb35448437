import { test } from "node:test";
import assert from "node:assert/strict";
import { createScriptedRoles } from "../../engine/roles/scripted.js";
import { RoleError, type AgentRequest, type UserRequest } from "../../engine/episode/role.js";
import { agentSays, buildScenario, call, calls, endConversation, userSays } from "../episode/fixtures.js";

const scenario = buildScenario({
  reference: [
    calls(call("call_1", "get_wifi_status"), call("call_2", "search_holiday", { holiday_name: "Christmas" })),
    agentSays("Wifi is on."),
    userSays("Thanks!"),
    endConversation,
  ],
});
const agentRequest: AgentRequest = { messages: [], tools: [], scenario };
const userRequest: UserRequest = { messages: [], scenario };

test("the agent and the user play the reference in order from one cursor", async () => {
  const { agent, user } = createScriptedRoles(scenario);
  assert.equal(agent.id, "scripted");
  assert.equal(user.id, "scripted");
  assert.deepEqual(await agent.respond(agentRequest), {
    kind: "calls",
    calls: [
      { id: "call_1", name: "get_wifi_status", arguments: {} },
      { id: "call_2", name: "search_holiday", arguments: { holiday_name: "Christmas" } },
    ],
  });
  assert.deepEqual(await agent.respond(agentRequest), { kind: "text", text: "Wifi is on." });
  assert.deepEqual(await user.respond(userRequest), { kind: "text", text: "Thanks!" });
  assert.deepEqual(await user.respond(userRequest), { kind: "end_conversation" });
});

test("a step for the other role is an error naming the step", async () => {
  const { agent, user } = createScriptedRoles(scenario);
  await assert.rejects(user.respond(userRequest), (error: unknown) => {
    assert.ok(error instanceof RoleError);
    assert.equal(error.reason, "role_error");
    assert.equal(error.message, "reference step 1 is an agent step but the user is to speak");
    return true;
  });
  await agent.respond(agentRequest);
  await agent.respond(agentRequest);
  await assert.rejects(agent.respond(agentRequest), {
    name: "RoleError",
    message: "reference step 3 is a user step but the agent is to speak",
  });
  // The failed attempt did not consume the step: the user can still say it.
  assert.deepEqual(await user.respond(userRequest), { kind: "text", text: "Thanks!" });
});

test("when the script is used up the user ends the conversation and the agent reports exhaustion", async () => {
  const { agent, user } = createScriptedRoles(buildScenario({ reference: [agentSays("Done.")] }));
  await agent.respond(agentRequest);
  assert.deepEqual(await user.respond(userRequest), { kind: "end_conversation" });
  await assert.rejects(agent.respond(agentRequest), (error: unknown) => error instanceof RoleError && error.reason === "script_exhausted");
});

test("two pairs of scripted roles do not share a cursor", async () => {
  const first = createScriptedRoles(scenario);
  const second = createScriptedRoles(scenario);
  await first.agent.respond(agentRequest);
  assert.equal((await second.agent.respond(agentRequest)).kind, "calls");
});
