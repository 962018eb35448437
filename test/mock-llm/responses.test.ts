// The Responses API (`POST /v1/responses`) through the real openai client, as an agent framework
// over our MCP server uses it: the agent talks to the user by calling send_message_to_user, so the
// mock answers a reference text as that call, reads the user's replies from its results, and once
// the user has ended the conversation answers in text. Streamed (`stream: true`) the events build
// the same response; requests the service would refuse, or that need state the mock does not keep,
// are 400s naming the field.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import type { ResponseInputItem, FunctionTool, Response, ResponseStreamEvent } from "openai/resources/responses/responses";
import { toolResultText } from "../../engine/mock-llm/played-turns.js";
import { OUTSIDE_AGENT_DONE_TEXT } from "../../engine/mock-llm/reply.js";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { endedText } from "../../engine/roles/mcp/agent.js";
import type { ReferenceStep, Scenario } from "../../engine/scenario/model.js";
import { agentTools, client, sampleScenario } from "./conversation.js";

const multiTurn = sampleScenario("send_message_with_contact_content_cellular_off_multiple_user_turn_adapted");
const parallel = sampleScenario("update_contact_relationship_with_relationship_adapted");
let server: MockLlm;
let openai: OpenAI;

before(async () => {
  server = await startMockLlm({ scenarios: [multiTurn, parallel] });
  openai = client(server.url);
});
after(() => server.close());

/** The agent's own prompt: an outside agent brings its own, and the mock does not check it. */
const INSTRUCTIONS = "You are a framework's agent. Talk to the user with send_message_to_user.";

/** The scenario's tools and the conversation's, as the MCP server lists them, as Responses function tools. */
function tools(scenario: Scenario): FunctionTool[] {
  const own = agentTools(scenario).flatMap((t): FunctionTool[] =>
    t.type === "function"
      ? [
          {
            type: "function",
            name: t.function.name,
            description: t.function.description ?? null,
            parameters: t.function.parameters ?? null,
            strict: false,
          },
        ]
      : [],
  );
  const conversation: FunctionTool[] = [
    {
      type: "function",
      name: "send_message_to_user",
      description: "Send a message to the user and wait for their reply.",
      parameters: { type: "object", properties: { content: { type: "string" } }, required: ["content"] },
      strict: false,
    },
    {
      type: "function",
      name: "get_user_message",
      description: "The user's latest message.",
      parameters: { type: "object", properties: {} },
      strict: false,
    },
  ];
  return [...own, ...conversation];
}

/** The input items after the given reference steps were played by an outside agent. */
function outsideInput(scenario: Scenario, played: readonly ReferenceStep[]): ResponseInputItem[] {
  const input: ResponseInputItem[] = [{ role: "user", content: scenario.user.opening }];
  let said = 0;
  for (const step of played) {
    if (step.kind === "agent_calls") {
      for (const c of step.calls)
        input.push({ type: "function_call", call_id: c.id, name: c.tool, arguments: JSON.stringify(c.arguments) });
      for (const c of step.calls) input.push({ type: "function_call_output", call_id: c.id, output: "None" });
    } else if (step.kind === "agent_text") {
      said++;
      input.push({
        type: "function_call",
        call_id: `say_${said}`,
        name: "send_message_to_user",
        arguments: JSON.stringify({ content: step.text }),
      });
    } else if (step.kind === "user_text") {
      input.push({ type: "function_call_output", call_id: `say_${said}`, output: step.text });
    } else {
      input.push({ type: "function_call_output", call_id: `say_${said}`, output: endedText("end_conversation") });
    }
  }
  return input;
}

const request = (scenario: Scenario, played: readonly ReferenceStep[]) => ({
  model: "gpt-4o",
  instructions: INSTRUCTIONS,
  input: outsideInput(scenario, played),
  tools: tools(scenario),
});

const functionCalls = (response: Response) =>
  response.output.flatMap((item) =>
    item.type === "function_call" ? [{ call_id: item.call_id, name: item.name, arguments: JSON.parse(item.arguments) as unknown }] : [],
  );

test("an outside agent gets each reference step in turn: texts as send_message_to_user calls, calls as function_call items", async () => {
  let texts = 0;
  for (const [i, step] of multiTurn.reference.entries()) {
    if (step.kind !== "agent_text" && step.kind !== "agent_calls") continue;
    const response = await openai.responses.create(request(multiTurn, multiTurn.reference.slice(0, i)));
    const where = `step ${i + 1}`;
    assert.equal(response.status, "completed", where);
    assert.equal(response.output_text, "", `${where}: no text of its own`);
    if (step.kind === "agent_text") {
      texts++;
      assert.deepEqual(
        functionCalls(response).map((c) => ({ name: c.name, arguments: c.arguments })),
        [{ name: "send_message_to_user", arguments: { content: step.text } }],
        where,
      );
    } else {
      assert.deepEqual(
        functionCalls(response),
        step.calls.map((c) => ({ call_id: c.id, name: c.tool, arguments: c.arguments })),
        where,
      );
    }
  }
  assert.ok(texts >= 2, "the reference talks to the user more than once");
});

test("once the user has ended the conversation, the answer is text with no calls, so the framework's run stops", async () => {
  const response = await openai.responses.create(request(multiTurn, multiTurn.reference));
  assert.ok(multiTurn.reference.some((s) => s.kind === "end_conversation"));
  assert.deepEqual(functionCalls(response), []);
  assert.equal(response.output_text, OUTSIDE_AGENT_DONE_TEXT);
  assert.ok((response.usage?.total_tokens ?? 0) > 0);
});

test("parallel calls of one reference step are function_call items of one response", async () => {
  const first = parallel.reference.findIndex((s) => s.kind === "agent_calls" && s.calls.length > 1);
  const step = parallel.reference[first];
  assert.ok(step?.kind === "agent_calls");
  const response = await openai.responses.create(request(parallel, parallel.reference.slice(0, first)));
  assert.deepEqual(
    functionCalls(response).map((c) => c.call_id),
    step.calls.map((c) => c.id),
  );
});

test("streamed, the events build the same response: created first, arguments in pieces, completed last", async () => {
  const played = multiTurn.reference.slice(
    0,
    multiTurn.reference.findIndex((s) => s.kind === "agent_calls"),
  );
  const plain = await openai.responses.create(request(multiTurn, played));
  const events: ResponseStreamEvent[] = [];
  for await (const event of await openai.responses.create({ ...request(multiTurn, played), stream: true })) events.push(event);
  assert.equal(events[0]?.type, "response.created");
  assert.equal(events.at(-1)?.type, "response.completed");
  assert.deepEqual(
    events.map((e) => e.sequence_number),
    events.map((_, i) => i),
  );
  const completed = events.at(-1);
  assert.ok(completed?.type === "response.completed");
  // Item ids number the requests; the items are otherwise the same.
  const withoutIds = (items: Response["output"]) => items.map(({ id: _id, ...rest }) => rest);
  assert.deepEqual(withoutIds(completed.response.output), withoutIds(plain.output));
  const args = events.flatMap((e) => (e.type === "response.function_call_arguments.delta" ? [e.delta] : [])).join("");
  const plainArgs = plain.output.flatMap((item) => (item.type === "function_call" ? [item.arguments] : [])).join("");
  assert.ok(plainArgs.length > 0);
  assert.equal(args, plainArgs);

  // The client's own stream helper reassembles the text of a message step.
  const text = multiTurn.reference.findIndex((s) => s.kind === "end_conversation");
  const final = await openai.responses.stream({ ...request(multiTurn, multiTurn.reference.slice(0, text + 1)) }).finalResponse();
  assert.equal(final.output_text, OUTSIDE_AGENT_DONE_TEXT);
});

test("a framework's tool result wrapped as JSON is read as the user's words", () => {
  assert.equal(toolResultText('{"content":[{"type":"text","text":"Yes, go ahead."}]}'), "Yes, go ahead.");
  assert.equal(toolResultText('{"type":"text","text":"Yes."}'), "Yes.");
  assert.equal(toolResultText('[{"type":"text","text":"Yes."}]'), "Yes.");
  assert.equal(toolResultText("Yes."), "Yes.");
});

async function refused(body: Record<string, unknown>): Promise<{ status: number; param: string | null; message: string }> {
  const answer = await fetch(`${server.url}/v1/responses`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  const { error } = (await answer.json()) as { error: { message: string; param: string | null } };
  return { status: answer.status, param: error.param, message: error.message };
}

test("requests the mock cannot or the service would not answer are 400s naming the field, through the client too", async () => {
  const valid = request(multiTurn, []);
  await assert.rejects(openai.responses.create({ ...valid, previous_response_id: "resp_1" }), (e: unknown) => {
    assert.ok(e instanceof OpenAI.BadRequestError);
    assert.equal(e.param, "previous_response_id");
    assert.match(e.message, /send the whole conversation/);
    return true;
  });
  const unknown = await refused({ ...valid, top_k: 3 });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.param, "top_k");
  const hosted = await refused({ ...valid, tools: [{ type: "web_search" }] });
  assert.equal(hosted.param, "tools[0].type");
  assert.match(hosted.message, /function tools only/);
  const orphan = await refused({ ...valid, input: [...valid.input, { type: "function_call_output", call_id: "nope", output: "x" }] });
  assert.equal(orphan.param, "input[1].call_id");
  assert.match(orphan.message, /No tool call found for function call output with call_id nope/);
  const unanswered = await refused({
    ...valid,
    input: [
      ...valid.input,
      { type: "function_call", call_id: "c1", name: "get_user_message", arguments: "{}" },
      { role: "user", content: "hi" },
    ],
  });
  assert.equal(unanswered.param, "input[2]");
  assert.match(unanswered.message, /No tool output found for function call c1/);
  const image = await refused({ ...valid, input: [{ role: "user", content: [{ type: "input_image", image_url: "x" }] }] });
  assert.equal(image.param, "input[0].content[0]");
  const empty = await refused({ ...valid, input: [] });
  assert.equal(empty.param, "input");
  const streamOptions = await refused({ ...valid, stream_options: { include_obfuscation: false } });
  assert.equal(streamOptions.param, "stream_options");
});

test("GET on /v1/responses is a 405", async () => {
  const answer = await fetch(`${server.url}/v1/responses`);
  assert.equal(answer.status, 405);
});
