// Whole conversations with both sides played by the mock through the openai client: the agent's
// and the simulated user's histories are kept the upstream way, tool results are stand-ins, and
// the conversation that comes out must be the scenario's reference, step for step.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type OpenAI from "openai";
import { collectScenarioFiles, loadScenario } from "../../engine/runner/scenario-files.js";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import type { ReferenceStep, Scenario } from "../../engine/scenario/model.js";
import { agentHistory, agentTools, client, endConversationTool, userHistory } from "./conversation.js";

const samples: Scenario[] = collectScenarioFiles(["sample-scenarios"]).map((f) => {
  const s = loadScenario(f).scenario;
  if (!s) throw new Error(`${f} does not load`);
  return s;
});
let server: MockLlm;
let openai: OpenAI;

before(async () => {
  server = await startMockLlm({ scenarios: samples });
  openai = client(server.url);
});
after(() => server.close());

/** Plays one conversation; `model` is what both roles ask for. Bounded by the reference's length. */
async function play(scenario: Scenario, model: string): Promise<ReferenceStep[]> {
  const played: ReferenceStep[] = [];
  let turn: "agent" | "user" = "agent";
  for (let guard = 0; guard < scenario.reference.length + 2; guard++) {
    if (turn === "agent") {
      const completion = await openai.chat.completions.create({
        model,
        messages: agentHistory(scenario, played),
        tools: agentTools(scenario),
      });
      const message = completion.choices[0]?.message;
      assert.ok(message);
      if (message.tool_calls && message.tool_calls.length > 0) {
        played.push({
          kind: "agent_calls",
          calls: message.tool_calls.map((c) => {
            assert.ok(c.type === "function");
            return { id: c.id, tool: c.function.name, arguments: JSON.parse(c.function.arguments) as Record<string, never> };
          }),
        });
      } else {
        played.push({ kind: "agent_text", text: message.content ?? "" });
        turn = "user";
      }
    } else {
      // The simulator is offered end_conversation because the agent has just spoken.
      const completion = await openai.chat.completions.create({
        model,
        messages: userHistory(scenario, played),
        tools: endConversationTool(),
      });
      const message = completion.choices[0]?.message;
      assert.ok(message);
      if (message.tool_calls?.some((c) => c.type === "function" && c.function.name === "end_conversation")) {
        played.push({ kind: "end_conversation" });
        return played;
      }
      played.push({ kind: "user_text", text: message.content ?? "" });
      turn = "agent";
    }
  }
  assert.fail(`${scenario.name}: the conversation did not end within ${scenario.reference.length + 2} turns`);
}

test("every sample scenario plays to its reference with both sides recognised from the messages", async () => {
  assert.ok(samples.length >= 20);
  for (const scenario of samples) {
    assert.deepEqual(await play(scenario, "gpt-4o"), scenario.reference, scenario.name);
  }
});

test("with the model mock/<name> both sides play that scenario", async () => {
  const scenario = samples.find((s) => s.name === "send_message_with_contact_content_cellular_off_multiple_user_turn_adapted");
  assert.ok(scenario);
  const before = server.requests.length;
  assert.deepEqual(await play(scenario, `mock/${scenario.name}`), scenario.reference);
  const sides = server.requests.slice(before).map((r) => r.side);
  assert.ok(sides.includes("agent") && sides.includes("user"));
  assert.ok(server.requests.slice(before).every((r) => r.status === 200 && r.scenario === scenario.name));
});
