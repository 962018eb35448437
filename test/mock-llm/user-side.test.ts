// The mock plays the simulated user's side: roles reversed, end_conversation only when offered.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { renderUserSystemMessage } from "../../engine/scenario/prompts/prompts.js";
import { client, endConversationTool, sampleScenario, userHistory } from "./conversation.js";

const multiTurn = sampleScenario("send_message_with_contact_content_cellular_off_multiple_user_turn_adapted");
const single = sampleScenario("update_contact_relationship_with_relationship_adapted");
let server: MockLlm;
let openai: OpenAI;

before(async () => {
  server = await startMockLlm({ scenarios: [multiTurn, single] });
  openai = client(server.url);
});
after(() => server.close());

test("the simulated user answers each agent question with the reference's next user step", async () => {
  const steps = multiTurn.reference;
  const said: string[] = [];
  for (const [i, step] of steps.entries()) {
    if (step.kind !== "user_text") continue;
    const completion = await openai.chat.completions.create({
      model: "gpt-4o",
      messages: userHistory(multiTurn, steps.slice(0, i)),
      tools: endConversationTool(),
    });
    assert.equal(completion.choices[0]?.message.tool_calls, undefined, `step ${i + 1}`);
    said.push(completion.choices[0]?.message.content ?? "");
  }
  assert.deepEqual(said, ["Fredrik Thordendal.", "How's the new album coming along", "Yes, go ahead."]);
});

test("at the reference's end_conversation step the user calls end_conversation with empty arguments", async () => {
  const steps = multiTurn.reference;
  const completion = await openai.chat.completions.create({
    model: "gpt-4o",
    messages: userHistory(multiTurn, steps.slice(0, -1)),
    tools: endConversationTool(),
  });
  const calls = completion.choices[0]?.message.tool_calls ?? [];
  assert.equal(calls.length, 1);
  assert.ok(calls[0]?.type === "function");
  assert.equal(calls[0].function.name, "end_conversation");
  assert.deepEqual(JSON.parse(calls[0].function.arguments), {});
  assert.equal(completion.choices[0]?.finish_reason, "tool_calls");
});

test("ending without end_conversation on offer is a 400 that says when the tool is offered", async () => {
  await assert.rejects(
    openai.chat.completions.create({ model: "gpt-4o", messages: userHistory(single, single.reference.slice(0, 3)) }),
    (e: unknown) =>
      e instanceof OpenAI.BadRequestError &&
      /does not offer the end_conversation tool/.test(e.message) &&
      /agent has just spoken/.test(e.message),
  );
});

test("once the reference has no user step left, the user ends the conversation", async () => {
  // The agent keeps talking after the reference's end; the user has nothing more to say.
  const messages = userHistory(single, single.reference.slice(0, 3));
  messages.push({ role: "assistant", content: "Thanks!" }, { role: "user", content: "Anything else?" });
  const completion = await openai.chat.completions.create({ model: "gpt-4o", messages, tools: endConversationTool() });
  const call = completion.choices[0]?.message.tool_calls?.[0];
  assert.ok(call?.type === "function");
  assert.equal(call.function.name, "end_conversation");
});

test("a user-simulator request offering any tool besides end_conversation is refused", async () => {
  const tools = [
    ...endConversationTool(),
    { type: "function" as const, function: { name: "search_contacts", parameters: { type: "object", properties: {} } } },
  ];
  await assert.rejects(
    openai.chat.completions.create({ model: "gpt-4o", messages: userHistory(multiTurn, multiTurn.reference.slice(0, 1)), tools }),
    (e: unknown) => e instanceof OpenAI.BadRequestError && /may offer only the end_conversation tool/.test(e.message),
  );
});

test("roles not reversed (the opening sent as a user message) are a 400 that explains the reversal", async () => {
  const messages = userHistory(single, []).map((m) => (m.role === "assistant" ? { role: "user" as const, content: String(m.content) } : m));
  await assert.rejects(
    openai.chat.completions.create({ model: "gpt-4o", messages, tools: endConversationTool() }),
    (e: unknown) => e instanceof OpenAI.BadRequestError && /roles are reversed/.test(e.message),
  );
});

test("the demonstrations' system messages come first; the last system message is the scenario's own", async () => {
  const before = server.requests.length;
  await openai.chat.completions.create({
    model: "gpt-4o",
    messages: userHistory(multiTurn, multiTurn.reference.slice(0, 1)),
    tools: endConversationTool(),
  });
  const recorded = server.requests[before];
  assert.equal(recorded?.side, "user");
  assert.equal(recorded?.scenario, multiTurn.name);
  const body = recorded?.body;
  assert.ok(body !== null && typeof body === "object" && !Array.isArray(body) && Array.isArray(body.messages));
  const systems = body.messages.filter((m) => typeof m === "object" && m !== null && !Array.isArray(m) && m.role === "system");
  assert.equal(systems.length, multiTurn.user.demonstrations.length + 1);
  const last = systems.at(-1);
  assert.ok(last !== null && typeof last === "object" && !Array.isArray(last));
  assert.equal(last.content, renderUserSystemMessage(multiTurn.user.goal, multiTurn.user.knowledge));
});
