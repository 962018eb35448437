import { test } from "node:test";
import assert from "node:assert/strict";
import type { AgentRole, AgentTurn, UserRole } from "../../engine/episode/role.js";
import { RoleError } from "../../engine/episode/role.js";
import type { RoleName } from "../../engine/episode/types.js";
import { agentSays, buildScenario, call, calls, endConversation, userSays } from "./fixtures.js";
import { makeEpisode, queuedRoles, routes, runScenario } from "./harness.js";

/** An agent that checks the wifi forever, `width` calls at a time. */
function restlessAgent(width: number): AgentRole {
  let n = 0;
  return {
    id: "restless",
    respond: async (): Promise<AgentTurn> => ({
      kind: "calls",
      calls: Array.from({ length: width }, () => ({ id: `call_${++n}`, name: "get_wifi_status", arguments: {} })),
    }),
  };
}

const endsOf = (events: { type: string }[]) => events.filter((e) => e.type === "end");

test("the episode stops once the last index reaches the last scripted index plus max_messages", async () => {
  const { episode, events } = await runScenario(buildScenario({ max_messages: 4 }), { agent: restlessAgent(1) });
  // Scripted indices 0..2, then four messages: 3..6.
  assert.equal(episode.messages.length, 7);
  assert.deepEqual(episode.ended, { reason: "max_messages" });
  assert.deepEqual(events.at(-1), { type: "end", reason: "max_messages", message_count: 7 });
  assert.equal(endsOf(events).length, 1);
});

test("parallel calls may overshoot the budget, as upstream", async () => {
  const { episode } = await runScenario(buildScenario({ max_messages: 3 }), { agent: restlessAgent(2) });
  // 3, 4: two requests; 5, 6: two responses. Index 6 is past 2 + 3, but a turn is never cut.
  assert.equal(episode.messages.length, 7);
  assert.equal(episode.ended?.reason, "max_messages");
});

test("a budget of zero ends the episode right after the scripted start", async () => {
  const roles = queuedRoles([]);
  const { episode } = await runScenario(buildScenario({ max_messages: 0 }), { agent: roles.agent, user: roles.user });
  assert.equal(episode.messages.length, 3);
  assert.equal(episode.ended?.reason, "max_messages");
  assert.equal(roles.agentRequests.length, 0);
});

test("aborting before a turn cancels the episode", async () => {
  const controller = new AbortController();
  const scenario = buildScenario({ reference: [calls(call("call_1", "get_wifi_status")), agentSays("On."), endConversation] });
  const { episode, events } = makeEpisode(scenario, { signal: controller.signal });
  await episode.step();
  controller.abort();
  await episode.run();
  assert.equal(episode.messages.length, 4);
  assert.deepEqual(episode.ended, { reason: "cancelled" });
  assert.equal(endsOf(events).length, 1);
});

test("aborting while a role is thinking ends the episode at once", async () => {
  const controller = new AbortController();
  const stuck: AgentRole = { id: "stuck", respond: (request) => new Promise<AgentTurn>(() => void request) };
  const { episode, events } = makeEpisode(buildScenario(), { agent: stuck, signal: controller.signal });
  const running = episode.run();
  setTimeout(() => controller.abort(), 5);
  await running;
  assert.deepEqual(episode.ended, { reason: "cancelled" });
  assert.equal(episode.messages.length, 3);
  assert.equal(endsOf(events).length, 1);
});

test("a role that fails ends the episode with its reason; nothing escapes", async () => {
  const failing = (error: unknown): AgentRole => ({
    id: "failing",
    respond: async () => {
      throw error;
    },
  });
  const run = async (agent: AgentRole) => (await runScenario(buildScenario(), { agent })).episode.ended;
  assert.deepEqual(await run(failing(new RoleError("the model gave up after 3 retries"))), {
    reason: "role_error",
    detail: "the model gave up after 3 retries",
  });
  assert.deepEqual(await run(failing(new RoleError("out of lines", "script_exhausted"))), {
    reason: "script_exhausted",
    detail: "out of lines",
  });
  assert.deepEqual(await run(failing(new TypeError("cannot read properties of undefined"))), {
    reason: "role_error",
    detail: "cannot read properties of undefined",
  });
  const throwsAtOnce: AgentRole = {
    id: "sync",
    respond: () => {
      throw new Error("thrown before any promise");
    },
  };
  assert.deepEqual(await run(throwsAtOnce), { reason: "role_error", detail: "thrown before any promise" });
  const nonsense = { id: "nonsense", respond: async () => ({ kind: "dance" }) } as unknown as AgentRole;
  assert.deepEqual(await run(nonsense), { reason: "role_error", detail: 'agent nonsense: unknown answer kind "dance"' });
  const silent = { id: "silent", respond: async () => undefined } as unknown as AgentRole;
  assert.deepEqual(await run(silent), { reason: "role_error", detail: "agent silent: the answer is not an object" });
  const noCalls: AgentRole = { id: "empty", respond: async () => ({ kind: "calls", calls: [] }) };
  assert.deepEqual(await run(noCalls), { reason: "role_error", detail: "agent empty: a tool-call answer needs at least one call" });
});

test("a user that fails or answers nonsense ends the episode the same way", async () => {
  const agent: AgentRole = { id: "polite", respond: async () => ({ kind: "text", text: "How can I help?" }) };
  const run = async (user: UserRole) => (await runScenario(buildScenario(), { agent, user })).episode;
  const gaveUp = await run({ id: "sim", respond: async () => Promise.reject(new RoleError("simulator unreachable")) });
  assert.deepEqual(gaveUp.ended, { reason: "role_error", detail: "simulator unreachable" });
  assert.deepEqual(routes(gaveUp.messages.slice(3)), ["agent>user"]);
  const shouting = await run({ id: "sim", respond: async () => ({ kind: "shout" }) } as unknown as UserRole);
  assert.deepEqual(shouting.ended, { reason: "role_error", detail: 'user sim: unknown answer kind "shout"' });
});

test("a reference out of step with the conversation ends the episode naming the step", async () => {
  const mismatch = await runScenario(buildScenario({ reference: [userSays("Hello?")] }));
  assert.deepEqual(mismatch.episode.ended, { reason: "role_error", detail: "reference step 1 is a user step but the agent is to speak" });
  assert.equal(mismatch.episode.messages.length, 3);

  const exhausted = await runScenario(buildScenario({ reference: [agentSays("Which network?"), userSays("Home.")] }));
  assert.equal(exhausted.episode.ended?.reason, "script_exhausted");
  assert.deepEqual(routes(exhausted.episode.messages.slice(3)), ["agent>user", "user>agent"]);
});

test("run() awaits beforeTurn before every turn, so a debugger can pause the episode", async () => {
  const scenario = buildScenario({ reference: [calls(call("call_1", "get_wifi_status")), agentSays("On."), endConversation] });
  const seen: [RoleName, number][] = [];
  const gate: { release?: () => void } = {};
  const { episode } = makeEpisode(scenario, {
    beforeTurn: (speaker, nextIndex) => {
      seen.push([speaker, nextIndex]);
      // Pause before the user's turn until the test lets it go.
      if (speaker === "user") return new Promise<void>((resolve) => (gate.release = resolve));
      return undefined;
    },
  });
  const running = episode.run();
  while (!gate.release) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(episode.messages.length, 6, "nothing happens while paused");
  assert.equal(episode.nextSpeaker(), "user");
  assert.deepEqual({ ended: episode.ended }, { ended: null });
  gate.release();
  await running;
  assert.deepEqual(seen, [
    ["agent", 3],
    ["execution_environment", 4],
    ["agent", 5],
    ["user", 6],
    ["execution_environment", 7],
  ]);
  assert.equal(episode.ended?.reason, "end_conversation");
});

test("aborting while paused in beforeTurn cancels without waiting for the hook", async () => {
  const controller = new AbortController();
  const { episode } = makeEpisode(buildScenario({ reference: [agentSays("Hi.")] }), {
    signal: controller.signal,
    beforeTurn: () => new Promise<void>(() => undefined),
  });
  const running = episode.run();
  setTimeout(() => controller.abort(), 5);
  await running;
  assert.deepEqual(episode.ended, { reason: "cancelled" });
  assert.equal(episode.messages.length, 3);
});
