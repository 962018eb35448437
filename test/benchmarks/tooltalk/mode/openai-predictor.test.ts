// The model-backed ToolTalk predictor: the history it sends, and a whole ToolTalk-mode run against
// the mock server (which answers with each scenario's reference) that must match ToolTalk's oracle.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "../../../../engine/mock-llm/server.js";
import { packById } from "../../../../engine/packs/registry.js";
import { ChatModel } from "../../../../engine/roles/openai/chat-model.js";
import { modelSettings } from "../../../../engine/roles/openai/settings.js";
import { loadScenarioFile } from "../../../../engine/scenario/load.js";
import type { Scenario } from "../../../../engine/scenario/model.js";
import { runConversation } from "../../../../engine/benchmarks/tooltalk/evaluation/simulation.js";
import { OpenAiToolTalkPredictor, toolTalkChatMessages } from "../../../../engine/benchmarks/tooltalk/mode/openai-predictor.js";
import { ScenarioBackend, scenarioConversation } from "../../../../engine/benchmarks/tooltalk/mode/scenario-conversation.js";
import { importedToolTalkFolder } from "../../../fixtures/tooltalk-data.js";

const DIR = importedToolTalkFolder();
const scenarios: Scenario[] = readdirSync(DIR)
  .filter((f) => f.endsWith(".scenario.yaml"))
  .sort()
  .slice(0, 12)
  .map((f) => {
    const { scenario } = loadScenarioFile(join(DIR, f));
    assert.ok(scenario, f);
    return scenario;
  });

let mock: MockLlm;
before(async () => {
  mock = await startMockLlm({ scenarios });
});
after(() => mock.close());

test("the history maps as ToolTalk's predictor maps it: texts, then one call and its outcome as JSON, without the session token", () => {
  const messages = toolTalkChatMessages("prompt", [
    { role: "user", text: "Set an alarm at 6." },
    {
      role: "api",
      request: { api_name: "AddAlarm", parameters: { time: "06:00:00", session_token: "t" } },
      response: { alarm_id: "5bff-dd80" },
      exception: null,
    },
    { role: "assistant", text: "Done." },
  ]);
  assert.deepEqual(messages, [
    { role: "system", content: "prompt" },
    { role: "user", content: "Set an alarm at 6." },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "AddAlarm", arguments: '{"time": "06:00:00"}' } }],
    },
    { role: "tool", tool_call_id: "call_1", content: '{"response": {"alarm_id": "5bff-dd80"}, "exception": null}' },
    { role: "assistant", content: "Done." },
  ]);
});

test("a model that plays the references through the predictor scores precision = recall = 1 and success", async () => {
  const model = new ChatModel({ settings: modelSettings("mock", { base_url: `${mock.url}/v1` }), apiKey: "test-key" });
  const tools = packById("tooltalk").tools;
  for (const scenario of scenarios) {
    const conversation = scenarioConversation(scenario, scenario.name);
    const result = await runConversation(
      conversation,
      new ScenarioBackend(scenario),
      new OpenAiToolTalkPredictor(model, scenario.agent.system_prompt, tools),
    );
    assert.deepEqual([result.metrics.precision, result.metrics.recall, result.metrics.success], [1, 1, true], scenario.name);
  }
  // Every request offered the 28 tools and started with the scenario's system prompt.
  const first = mock.requests[0]?.body as { tools?: unknown[]; messages?: { role: string; content: string }[] } | undefined;
  assert.equal(first?.tools?.length, 28);
  assert.equal(first?.messages?.[0]?.content, scenarios[0]?.agent.system_prompt);
});
