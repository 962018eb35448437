// Which scenario a request is for: recognised from its content, or named by the model.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { USER_INSTRUCTION } from "../../engine/scenario/prompts/prompts.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { agentSays, buildScenario, call, calls, endConversation, userSays } from "../episode/fixtures.js";
import { agentHistory, agentTools, client, endConversationTool, userHistory } from "./conversation.js";

const named = (name: string, s: Scenario, user: Partial<Scenario["user"]> = {}): Scenario => ({ ...s, name, user: { ...s.user, ...user } });

// Two wifi scenarios with the same opening and goal but different solutions and tools.
const wifiOff = named(
  "wifi_off",
  buildScenario({
    allow: ["set_wifi_status"],
    reference: [calls(call("c1", "set_wifi_status", { on: false })), agentSays("Wifi is off."), endConversation],
  }),
);
const wifiRefused = named(
  "wifi_refused",
  buildScenario({ allow: ["get_wifi_status"], reference: [agentSays("I cannot change wifi settings."), endConversation] }),
);
// A copy of wifi_off under another name, as an augmented variant would be: same opening, goal and solution.
const wifiOffVariant = {
  ...wifiOff,
  name: "wifi_off_3_distraction_tools",
  tools: { allow: ["set_wifi_status", "get_wifi_status"], deny: [] },
};
// Same opening and tools as wifi_off, different solution: only the model name can tell them apart.
const wifiTwin = named(
  "wifi_twin",
  buildScenario({ allow: ["set_wifi_status"], reference: [agentSays("Are you sure?"), userSays("Yes."), endConversation] }),
);
// Goals where one contains the other.
const shortGoal = named("short_goal", buildScenario({ reference: [agentSays("Short."), endConversation] }), {
  goal: "Find Homer",
  opening: "Who is Homer?",
});
const longGoal = named("long_goal", buildScenario({ reference: [agentSays("Long."), endConversation] }), {
  goal: "Find Homer S's phone number",
  opening: "What is Homer's number?",
});

let server: MockLlm;
let openai: OpenAI;

before(async () => {
  server = await startMockLlm({ scenarios: [wifiOff, wifiRefused, wifiOffVariant, shortGoal, longGoal] });
  openai = client(server.url);
});
after(() => server.close());

const lastRecord = (): (typeof server.requests)[number] | undefined => server.requests.at(-1);

test("the agent's scenario is the one whose opening and tools the request has", async () => {
  await openai.chat.completions.create({ model: "gpt-4o", messages: agentHistory(wifiRefused, []), tools: agentTools(wifiRefused) });
  assert.equal(lastRecord()?.scenario, "wifi_refused");
  const completion = await openai.chat.completions.create({
    model: "gpt-4o",
    messages: agentHistory(wifiOff, []),
    tools: agentTools(wifiOff),
  });
  assert.equal(
    completion.choices[0]?.message.tool_calls?.[0]?.type === "function" && completion.choices[0].message.tool_calls[0].function.name,
    "set_wifi_status",
  );
});

test("variants with the same solution are not ambiguous", async () => {
  // wifi_off and its variant both open this way and solve it the same way; either may answer.
  const completion = await openai.chat.completions.create({
    model: "gpt-4o",
    messages: agentHistory(wifiOff, []),
    tools: agentTools(wifiOffVariant),
  });
  assert.equal(completion.choices[0]?.message.tool_calls?.length, 1);
});

test("the simulated user's scenario follows the conversation when goals are shared", async () => {
  const refusedTurns = wifiRefused.reference.slice(0, 1);
  const completion = await openai.chat.completions.create({
    model: "gpt-4o",
    messages: userHistory(wifiRefused, refusedTurns),
    tools: endConversationTool(),
  });
  assert.equal(lastRecord()?.scenario, "wifi_refused");
  assert.equal(completion.choices[0]?.message.tool_calls?.[0]?.type, "function");
});

test("a system message rendered differently still names its scenario by the goal it contains, the longest goal winning", async () => {
  // Not renderUserSystemMessage's exact text: the goal is found inside the message instead.
  const reworded = (s: Scenario): ReturnType<typeof userHistory> => {
    const messages = userHistory(s, s.reference.slice(0, 1));
    const last = messages.map((m) => m.role).lastIndexOf("system");
    messages[last] = { role: "system", content: `${USER_INSTRUCTION}${s.user.goal}. Keep it brief.` };
    return messages;
  };
  await openai.chat.completions.create({ model: "gpt-4o", messages: reworded(longGoal), tools: endConversationTool() });
  assert.equal(lastRecord()?.scenario, "long_goal");
  await openai.chat.completions.create({ model: "gpt-4o", messages: reworded(shortGoal), tools: endConversationTool() });
  assert.equal(lastRecord()?.scenario, "short_goal");
});

test("an unknown opening is a 400 listing the loaded scenarios and the model-name way out", async () => {
  const messages = agentHistory(wifiOff, []);
  messages[1] = { role: "user", content: "Book me a flight." };
  await assert.rejects(openai.chat.completions.create({ model: "gpt-4o", messages }), (e: unknown) => {
    assert.ok(e instanceof OpenAI.BadRequestError);
    assert.match(e.message, /No loaded scenario opens with "Book me a flight\."/);
    assert.match(e.message, /wifi_off, wifi_refused/);
    assert.match(e.message, /mock\/<scenario name>/);
    return true;
  });
});

test("an agent request whose system message is not the scenario's agent prompt is a 400", async () => {
  const messages = agentHistory(wifiOff, []);
  messages[0] = { role: "system", content: "You are a pirate." };
  await assert.rejects(openai.chat.completions.create({ model: "gpt-4o", messages }), /is not the agent system prompt/);
});

test("scenarios that would answer differently are ambiguous; the model mock/<name> settles it", async () => {
  const twins = await startMockLlm({ scenarios: [wifiOff, wifiTwin] });
  try {
    const twinClient = client(twins.url);
    const request = { messages: agentHistory(wifiOff, []), tools: agentTools(wifiOff) };
    await assert.rejects(twinClient.chat.completions.create({ model: "gpt-4o", ...request }), (e: unknown) => {
      assert.ok(e instanceof OpenAI.BadRequestError);
      assert.match(e.message, /ambiguous: 2 loaded scenarios/);
      assert.match(e.message, /wifi_off, wifi_twin/);
      return true;
    });
    const twin = await twinClient.chat.completions.create({ model: "mock/wifi_twin", ...request });
    assert.equal(twin.choices[0]?.message.content, "Are you sure?");
    assert.equal(twin.model, "mock/wifi_twin");
  } finally {
    await twins.close();
  }
});

test("a model naming no loaded scenario is a 404 model_not_found", async () => {
  await assert.rejects(openai.chat.completions.create({ model: "mock/nope", messages: agentHistory(wifiOff, []) }), (e: unknown) => {
    assert.ok(e instanceof OpenAI.NotFoundError);
    assert.equal(e.code, "model_not_found");
    assert.match(e.message, /no loaded scenario is named "nope"/);
    return true;
  });
});

test("two loaded scenarios with one name are refused at start", async () => {
  await assert.rejects(startMockLlm({ scenarios: [wifiOff, wifiOff] }), /two scenarios are named "wifi_off"/);
});
