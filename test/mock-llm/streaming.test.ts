// Streamed chat completions (`stream: true`) through the real openai client: the chunks reassemble
// into the answer the mock gives without streaming (texts, parallel tool calls with their ids and
// arguments), the finish reason comes last, and `stream_options.include_usage` adds a usage chunk.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type OpenAI from "openai";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { agentHistory, agentTools, client, sampleScenario } from "./conversation.js";

const multiTurn = sampleScenario("send_message_with_contact_content_cellular_off_multiple_user_turn_adapted");
const parallel = sampleScenario("update_contact_relationship_with_relationship_adapted");
let server: MockLlm;
let openai: OpenAI;

before(async () => {
  server = await startMockLlm({ scenarios: [multiTurn, parallel] });
  openai = client(server.url);
});
after(() => server.close());

test("every agent step, streamed, reassembles into the non-streamed answer, with the usage in a last chunk", async () => {
  let parallelSteps = 0;
  for (const scenario of [multiTurn, parallel]) {
    for (const [i, step] of scenario.reference.entries()) {
      if (step.kind !== "agent_text" && step.kind !== "agent_calls") continue;
      const request = { model: "gpt-4o", messages: agentHistory(scenario, scenario.reference.slice(0, i)), tools: agentTools(scenario) };
      const plain = await openai.chat.completions.create(request);
      const stream = await openai.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } });
      const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      const where = `${scenario.name} step ${i + 1}`;
      assert.ok(chunks.length >= 3, `${where}: several chunks`);
      assert.ok(
        chunks.every((c) => c.object === "chat.completion.chunk" && c.id === chunks[0]?.id),
        `${where}: chunks of the same completion`,
      );
      const usage = chunks.at(-1);
      assert.deepEqual(usage?.choices, [], `${where}: the last chunk has no choices`);
      // The prompt is counted off the request body, which is longer by its stream arguments.
      assert.equal(usage?.usage?.completion_tokens, plain.usage?.completion_tokens, `${where}: and the usage`);
      assert.ok((usage?.usage?.prompt_tokens ?? 0) > 0);
      assert.equal(chunks.at(-2)?.choices[0]?.finish_reason, plain.choices[0]?.finish_reason, `${where}: finish reason`);
      assert.ok(
        chunks.slice(0, -2).every((c) => c.choices[0]?.finish_reason === null && c.usage === null),
        `${where}: no finish reason or usage before`,
      );

      // Reassembled by hand, as a client must: text pieces in order, calls by index.
      const content = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
      const calls: { id: string; name: string; arguments: string }[] = [];
      for (const c of chunks) {
        for (const d of c.choices[0]?.delta.tool_calls ?? []) {
          const call = (calls[d.index] ??= { id: "", name: "", arguments: "" });
          call.id += d.id ?? "";
          call.name += d.function?.name ?? "";
          call.arguments += d.function?.arguments ?? "";
        }
      }
      const message = plain.choices[0]?.message;
      assert.equal(content, message?.content ?? "", `${where}: text`);
      assert.deepEqual(
        calls,
        (message?.tool_calls ?? []).map((c) =>
          c.type === "function" ? { id: c.id, name: c.function.name, arguments: c.function.arguments } : null,
        ),
        `${where}: tool calls`,
      );
      if (calls.length > 1) parallelSteps++;
    }
  }
  assert.ok(parallelSteps > 0, "a step with parallel calls was streamed");
});

test("the openai client's stream helper accumulates the chunks into the same completion", async () => {
  const request = { model: "gpt-4o", messages: agentHistory(parallel, []), tools: agentTools(parallel) };
  const plain = await openai.chat.completions.create(request);
  const final = await openai.chat.completions.stream(request).finalChatCompletion();
  assert.deepEqual(final.choices[0]?.message.tool_calls, plain.choices[0]?.message.tool_calls);
  assert.equal(final.choices[0]?.finish_reason, "tool_calls");
});

test("without include_usage no usage chunk is sent, and the stream ends after the finish reason", async () => {
  const stream = await openai.chat.completions.create({
    model: "gpt-4o",
    messages: agentHistory(multiTurn, []),
    tools: agentTools(multiTurn),
    stream: true,
  });
  const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  assert.ok(chunks.every((c) => c.usage === undefined && c.choices.length === 1));
  assert.notEqual(chunks.at(-1)?.choices[0]?.finish_reason, null);
});

test("the stream is server-sent events ending in [DONE], the same bytes for the same request", async () => {
  const body = JSON.stringify({
    model: "gpt-4o",
    messages: agentHistory(multiTurn, []),
    tools: agentTools(multiTurn),
    stream: true,
    stream_options: { include_usage: true },
  });
  const fetchText = async (): Promise<{ type: string | null; text: string }> => {
    const answer = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    });
    return { type: answer.headers.get("content-type"), text: await answer.text() };
  };
  const first = await fetchText();
  assert.match(first.type ?? "", /^text\/event-stream/);
  assert.match(first.text, /^data: \{/);
  assert.ok(first.text.endsWith("data: [DONE]\n\n"));
  // Only the request number (in the completion id) differs between two answers.
  const second = await fetchText();
  const numberless = (text: string): string => text.replaceAll(/chatcmpl-mock-\d+/g, "chatcmpl-mock-n");
  assert.equal(numberless(second.text), numberless(first.text));
});
