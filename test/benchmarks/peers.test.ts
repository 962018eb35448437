import { test } from "node:test";
import assert from "node:assert/strict";
import { callableTools, toolsFor } from "../../engine/episode/tool-calls.js";
import { peerMetrics } from "../../engine/benchmarks/peers.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { agentSays, buildScenario, call, calls, endConversation, userSays } from "../episode/fixtures.js";
import { queuedRoles, runScenario } from "../episode/harness.js";

const scenario: Scenario = buildScenario({
  allow: ["get_wifi_status", "set_wifi_status"],
  reference: [
    calls(call("call_1", "get_wifi_status")),
    agentSays("Wifi is on. Turn it off?"),
    userSays("Yes please."),
    calls(call("call_2", "set_wifi_status", { on: false })),
    agentSays("Done."),
    endConversation,
  ],
});
const offered = toolsFor(scenario, "agent").map((t) => t.name);

test("the scripted reference solution scores perfectly on every peer metric (ToolTalk's oracle check)", async () => {
  const { episode } = await runScenario(scenario);
  const metrics = peerMetrics(scenario, episode.messages, offered);
  const tt = metrics.tooltalk.metrics;
  assert.deepEqual([tt.predictions, tt.matches, tt.precision, tt.recall, tt.success, tt.soft_success], [2, 2, 1, 1, true, 1]);
  assert.deepEqual(
    metrics.toolscan.calls.map((c) => c.tags),
    [[], []],
  );
  assert.deepEqual(Object.values(metrics.toolscan.counts), [0, 0, 0, 0, 0, 0, 0]);
  assert.equal(metrics.toolscan.finished, true);
  assert.equal(metrics.toolscan.error_success_rate, 1);
});

test("a clumsy agent's mistakes land on the right messages", async () => {
  const roles = queuedRoles([
    { kind: "calls", calls: [{ id: "c1", name: "fly_to_moon", arguments: {} }] },
    { kind: "calls", calls: [{ id: "c2", name: "set_wifi_status", raw_arguments: '{"on": fals' }] },
    { kind: "calls", calls: [{ id: "c3", name: "set_wifi_status", arguments: { on: false } }] },
    // Wifi is already off: this repeat fails ("wifi already disabled").
    { kind: "calls", calls: [{ id: "c4", name: "set_wifi_status", arguments: { on: false } }] },
    { kind: "calls", calls: [{ id: "c5", name: "set_wifi_status", arguments: { on: true } }] },
    { kind: "text", text: "Done." },
  ]);
  const { episode } = await runScenario(scenario, { agent: roles.agent, user: roles.user });
  const metrics = peerMetrics(scenario, episode.messages, offered);

  const requests = episode.messages.filter((m) => m.sender === "agent" && m.recipient === "execution_environment");
  assert.deepEqual(
    metrics.toolscan.calls.map((c) => c.message_index),
    requests.map((m) => m.sandbox_message_index),
  );
  assert.deepEqual(
    metrics.toolscan.calls.map((c) => c.tags),
    [["IFN"], ["IFE"], [], ["RAC"], []],
  );
  assert.deepEqual(metrics.toolscan.insufficient_calls, [{ tool: "get_wifi_status", reference_calls: 1, executed_calls: 0, missing: 1 }]);

  assert.deepEqual(
    metrics.tooltalk.predictions.map((p) => [p.tool, p.outcome, p.match, p.bad_action]),
    [
      ["fly_to_moon", "failed", null, false],
      ["set_wifi_status", "failed", null, false],
      ["set_wifi_status", "succeeded", "call_2", false],
      ["set_wifi_status", "failed", null, false],
      ["set_wifi_status", "succeeded", null, true],
    ],
  );
  const tt = metrics.tooltalk.metrics;
  assert.deepEqual([tt.actions, tt.valid_actions, tt.bad_actions, tt.recall, tt.success], [4, 1, 1, 0.5, false]);
});

test("the result is plain JSON data", async () => {
  const { episode } = await runScenario(scenario);
  const metrics = peerMetrics(scenario, episode.messages, offered, { toolscanBudget: 5 });
  assert.deepEqual(JSON.parse(JSON.stringify(metrics)), metrics);
  assert.equal(metrics.toolscan.budget, 5);
});

test("under tool-name scrambling the metrics compare catalog names, so the reference still scores perfectly", async () => {
  const scrambled: Scenario = { ...scenario, options: { ...scenario.options, augmentations: ["tool_name_scrambled"] } };
  const { episode } = await runScenario(scrambled);
  const agentFacing = [...callableTools(scrambled, "agent").keys()];
  assert.ok(agentFacing.includes("setting_4"), "the agent saw scrambled names");
  const metrics = peerMetrics(scrambled, episode.messages, agentFacing);
  assert.deepEqual([metrics.tooltalk.metrics.precision, metrics.tooltalk.metrics.recall], [1, 1]);
  assert.deepEqual(
    metrics.toolscan.calls.map((c) => [c.tool, c.tags]),
    [
      ["get_wifi_status", []],
      ["set_wifi_status", []],
    ],
  );
});
