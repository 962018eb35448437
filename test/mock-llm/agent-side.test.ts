// The mock plays the agent's side of a scenario's reference through the real openai client.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { AGENT_DONE_TEXT } from "../../engine/mock-llm/reply.js";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { packById } from "../../engine/packs/registry.js";
import { scrambledToolNames } from "../../engine/scenario/augmentations/scrambling.js";
import type { ReferenceStep } from "../../engine/scenario/model.js";
import { agentHistory, agentTools, client, sampleScenario } from "./conversation.js";

const multiTurn = sampleScenario("send_message_with_contact_content_cellular_off_multiple_user_turn_adapted");
const parallel = sampleScenario("update_contact_relationship_with_relationship_adapted");
let server: MockLlm;
let openai: OpenAI;

before(async () => {
  server = await startMockLlm({ scenarios: [multiTurn, parallel], faults: [] });
  openai = client(server.url);
});
after(() => server.close());

const SCRAMBLED_TOOL_NAMES = scrambledToolNames(packById("toolsandbox").tools);

test("every agent step of a multi-turn reference comes back in order, texts as content and calls as tool_calls", async () => {
  const steps = multiTurn.reference;
  for (const [i, step] of steps.entries()) {
    if (step.kind !== "agent_text" && step.kind !== "agent_calls") continue;
    const completion = await openai.chat.completions.create({
      model: "gpt-4o",
      messages: agentHistory(multiTurn, steps.slice(0, i)),
      tools: agentTools(multiTurn),
    });
    const message = completion.choices[0]?.message;
    assert.ok(message, `step ${i + 1}: a choice`);
    if (step.kind === "agent_text") {
      assert.equal(message.content, step.text, `step ${i + 1}`);
      assert.equal(message.tool_calls, undefined);
      assert.equal(completion.choices[0]?.finish_reason, "stop");
    } else {
      assert.equal(message.content, null, `step ${i + 1}`);
      assert.deepEqual(
        message.tool_calls?.map((c) =>
          c.type === "function" ? { id: c.id, name: c.function.name, args: JSON.parse(c.function.arguments) as unknown } : null,
        ),
        step.calls.map((c) => ({ id: c.id, name: c.tool, args: c.arguments })),
        `step ${i + 1}`,
      );
      assert.equal(completion.choices[0]?.finish_reason, "tool_calls");
    }
  }
});

test("parallel calls of one step come back in one message, each with the reference id and JSON-string arguments", async () => {
  const completion = await openai.chat.completions.create({
    model: "gpt-4o",
    messages: agentHistory(parallel, parallel.reference.slice(0, 1)),
    tools: agentTools(parallel),
  });
  const calls = completion.choices[0]?.message.tool_calls ?? [];
  assert.equal(calls.length, 2);
  const step = parallel.reference[1];
  assert.ok(step?.kind === "agent_calls");
  for (const [j, call] of calls.entries()) {
    assert.ok(call.type === "function");
    assert.equal(call.id, step.calls[j]?.id);
    assert.equal(call.function.name, "modify_contact");
    assert.equal(typeof call.function.arguments, "string");
    assert.deepEqual(JSON.parse(call.function.arguments), step.calls[j]?.arguments);
  }
});

test("parallel calls with parallel_tool_calls: false, or any call with tool_choice: none, are a 400 naming the step", async () => {
  const request = { model: "gpt-4o", messages: agentHistory(parallel, parallel.reference.slice(0, 1)), tools: agentTools(parallel) };
  await assert.rejects(
    openai.chat.completions.create({ ...request, parallel_tool_calls: false }),
    (e: unknown) =>
      e instanceof OpenAI.BadRequestError &&
      /Reference step 2 of update_contact_relationship_with_relationship_adapted makes 2 parallel calls/.test(e.message),
  );
  await assert.rejects(
    openai.chat.completions.create({ ...request, tool_choice: "none" }),
    (e: unknown) => e instanceof OpenAI.BadRequestError && /calls tools, but "tool_choice" is "none"/.test(e.message),
  );
});

test("after the reference's last agent step the agent closes politely", async () => {
  const completion = await openai.chat.completions.create({
    model: "gpt-4o",
    messages: agentHistory(parallel, parallel.reference.slice(0, 3)),
    tools: agentTools(parallel),
  });
  assert.equal(completion.choices[0]?.message.content, AGENT_DONE_TEXT);
  assert.equal(completion.choices[0]?.message.tool_calls, undefined);
});

test("scrambled tool names: the mock calls the tool by the name the request offers it under", async () => {
  const scramble = (name: string): string => SCRAMBLED_TOOL_NAMES.get(name) ?? name;
  assert.equal(scramble("search_contacts"), "contact_3");
  assert.equal(scramble("modify_contact"), "contact_1");
  const completion = await openai.chat.completions.create({
    model: "gpt-4o",
    messages: agentHistory(parallel, parallel.reference.slice(0, 1), scramble),
    tools: agentTools(parallel, scramble),
  });
  const names = completion.choices[0]?.message.tool_calls?.map((c) => (c.type === "function" ? c.function.name : ""));
  assert.deepEqual(names, ["contact_1", "contact_1"]);
});

test("the scrambling scheme is upstream's <module>_<k>, k counting each module's tools sorted by name", () => {
  const expected: Record<string, string> = {
    add_contact: "contact_0",
    get_cellular_service_status: "setting_0",
    get_current_location: "setting_1",
    set_wifi_status: "setting_8",
    send_message_with_phone_number: "messaging_1",
    search_weather_around_lat_lon: "rapid_api_search_tools_4",
    search_reminder: "reminder_3",
    end_conversation: "user_tools_0",
    unit_conversion: "utilities_8",
  };
  for (const [real, scrambled] of Object.entries(expected)) assert.equal(SCRAMBLED_TOOL_NAMES.get(real), scrambled, real);
  assert.equal(SCRAMBLED_TOOL_NAMES.size, 34);
});

test("a reference tool the request does not offer under any name is a 400 that names the tool and the offer", async () => {
  const tools = agentTools(parallel).filter((t) => t.type === "function" && t.function.name !== "modify_contact");
  await assert.rejects(
    openai.chat.completions.create({ model: "gpt-4o", messages: agentHistory(parallel, parallel.reference.slice(0, 1)), tools }),
    (e: unknown) =>
      e instanceof OpenAI.BadRequestError && /calls modify_contact/.test(e.message) && /Offered tools: search_contacts/.test(e.message),
  );
});

test("the recorded requests keep each body as sent: system prompt and tool schemas can be checked", async () => {
  const before = server.requests.length;
  await openai.chat.completions.create({
    model: "gpt-4o",
    messages: agentHistory(parallel, []),
    tools: agentTools(parallel),
    temperature: 0,
    seed: 3,
  });
  const recorded = server.requests[before];
  assert.ok(recorded);
  assert.equal(recorded.side, "agent");
  assert.equal(recorded.scenario, parallel.name);
  assert.equal(recorded.step, 1);
  assert.equal(recorded.status, 200);
  assert.deepEqual(recorded.body, {
    model: "gpt-4o",
    messages: agentHistory(parallel, []),
    tools: agentTools(parallel),
    temperature: 0,
    seed: 3,
  });
});

test("a turn the mock injected as a fault does not count, so an agent that recovers gets the step it was owed", async () => {
  const played: ReferenceStep[] = parallel.reference.slice(0, 1);
  const messages = agentHistory(parallel, played);
  messages.push(
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "bad", type: "function", function: { name: "unknown_tool", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "bad", content: "KeyError: unknown tool" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "cut", type: "function", function: { name: "modify_contact", arguments: '{"person_id": "x"' } }],
    },
    { role: "tool", tool_call_id: "cut", content: "error: malformed arguments" },
  );
  const completion = await openai.chat.completions.create({ model: "gpt-4o", messages, tools: agentTools(parallel) });
  assert.equal(completion.choices[0]?.message.tool_calls?.length, 2, "still reference step 2, the parallel modify_contact calls");
});
