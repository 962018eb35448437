import { test } from "node:test";
import assert from "node:assert/strict";
import type { ReferenceCall } from "../../../engine/scenario/model.js";
import { aggregateToolTalk, toolTalkMetrics, type ToolTalkMetrics } from "../../../engine/benchmarks/tooltalk/metric.js";
import { buildScenario, call, calls } from "../../episode/fixtures.js";
import { Transcript } from "../../evaluation/peers/transcript.js";

const SEARCH = call("r1", "search_contacts", { name: "Homer S" });
const SEND = call("r2", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });

function scenarioWith(...steps: (readonly ReferenceCall[])[]) {
  return buildScenario({ reference: steps.map((list) => calls(...list)) });
}

const pick = (m: ToolTalkMetrics) => ({
  predictions: m.predictions,
  ground_truths: m.ground_truths,
  matches: m.matches,
  actions: m.actions,
  valid_actions: m.valid_actions,
  bad_actions: m.bad_actions,
  precision: m.precision,
  recall: m.recall,
  action_precision: m.action_precision,
  bad_action_rate: m.bad_action_rate,
  success: m.success,
  soft_success: m.soft_success,
});

test("replaying the reference exactly is a perfect score", () => {
  const t = new Transcript().user("Text Homer hi");
  t.call("a", "search_contacts", { name: "Homer S" });
  t.call("b", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });
  const result = toolTalkMetrics(scenarioWith([SEARCH], [SEND]), t.messages);
  assert.deepEqual(pick(result.metrics), {
    predictions: 2,
    ground_truths: 2,
    matches: 2,
    actions: 1,
    valid_actions: 1,
    bad_actions: 0,
    precision: 1,
    recall: 1,
    action_precision: 1,
    bad_action_rate: 0,
    success: true,
    soft_success: 1,
  });
  assert.deepEqual(
    result.ground_truths.map((g) => [g.reference_call_id, g.matched_by]),
    [
      ["r1", 1],
      ["r2", 3],
    ],
  );
  assert.deepEqual(
    result.predictions.map((p) => [p.tool, p.is_action, p.match, p.bad_action]),
    [
      ["search_contacts", false, "r1", false],
      ["send_message_with_phone_number", true, "r2", false],
    ],
  );
});

test("an extra read call lowers precision only", () => {
  const t = new Transcript();
  t.call("x", "get_cellular_service_status");
  t.call("a", "search_contacts", { name: "Homer S" });
  t.call("b", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });
  const { metrics } = toolTalkMetrics(scenarioWith([SEARCH], [SEND]), t.messages);
  assert.equal(metrics.precision, 2 / 3);
  assert.equal(metrics.recall, 1);
  assert.equal(metrics.success, true);
});

test("an unasked successful action is a bad action and fails the episode", () => {
  const t = new Transcript();
  t.call("a", "search_contacts", { name: "Homer S" });
  t.call("w", "set_wifi_status", { on: false });
  t.call("b", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });
  const result = toolTalkMetrics(scenarioWith([SEARCH], [SEND]), t.messages);
  assert.equal(result.metrics.actions, 2);
  assert.equal(result.metrics.bad_actions, 1);
  assert.equal(result.metrics.action_precision, 0.5);
  assert.equal(result.metrics.bad_action_rate, 0.5);
  assert.equal(result.metrics.recall, 1);
  assert.equal(result.metrics.success, false);
  assert.equal(result.metrics.soft_success, 0.5);
  assert.deepEqual(
    result.predictions.filter((p) => p.bad_action).map((p) => p.tool),
    ["set_wifi_status"],
  );
});

test("a failed call never matches and a failed action is not a bad action", () => {
  // Cellular is off: the first send fails, the agent turns cellular on and sends again.
  const scenario = scenarioWith([call("r0", "set_cellular_service_status", { on: true })], [SEND]);
  const t = new Transcript();
  t.call(
    "s1",
    "send_message_with_phone_number",
    { phone_number: "+10000000000", content: "Hi" },
    "ConnectionError: Cellular service is not enabled",
  );
  t.call("c", "set_cellular_service_status", { on: true });
  t.call("s2", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });
  const result = toolTalkMetrics(scenario, t.messages);
  assert.deepEqual(
    result.predictions.map((p) => [p.outcome, p.match, p.bad_action]),
    [
      ["failed", null, false],
      ["succeeded", "r0", false],
      ["succeeded", "r2", false],
    ],
  );
  assert.equal(result.metrics.precision, 2 / 3);
  assert.equal(result.metrics.valid_actions, 2);
  assert.equal(result.metrics.bad_action_rate, 0);
  assert.equal(result.metrics.success, true);
});

test("an unanswered action is neither a match nor a bad action", () => {
  const t = new Transcript();
  t.request("b", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });
  const { metrics } = toolTalkMetrics(scenarioWith([SEND]), t.messages);
  assert.equal(metrics.matches, 0);
  assert.equal(metrics.bad_actions, 0);
  assert.equal(metrics.actions, 1);
});

test("free text is compared exactly", () => {
  const t = new Transcript();
  t.call("b", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi!" });
  const { metrics } = toolTalkMetrics(scenarioWith([SEND]), t.messages);
  assert.equal(metrics.matches, 0);
  assert.equal(metrics.bad_actions, 1);
  assert.equal(metrics.success, false);
});

test("a repeated call matches the reference once; the repeat is a bad action", () => {
  const t = new Transcript();
  t.call("b1", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });
  t.call("b2", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });
  const result = toolTalkMetrics(scenarioWith([SEND]), t.messages);
  assert.deepEqual(
    result.predictions.map((p) => [p.match, p.bad_action]),
    [
      ["r2", false],
      [null, true],
    ],
  );
  assert.equal(result.metrics.recall, 1);
  assert.equal(result.metrics.success, false);
});

test("a reference that calls a tool twice needs two matching calls", () => {
  const twice = scenarioWith([call("g1", "get_wifi_status")], [call("g2", "get_wifi_status")]);
  const t = new Transcript();
  t.call("a", "get_wifi_status");
  assert.equal(toolTalkMetrics(twice, t.messages).metrics.recall, 0.5);
  t.call("b", "get_wifi_status");
  assert.equal(toolTalkMetrics(twice, t.messages).metrics.recall, 1);
});

test("parallel calls match whatever order the agent lists them in", () => {
  const scenario = scenarioWith([call("w", "get_wifi_status"), call("c", "get_cellular_service_status")]);
  const t = new Transcript();
  t.request("p1", "get_cellular_service_status");
  t.request("p2", "get_wifi_status");
  t.answer("p2").answer("p1");
  const result = toolTalkMetrics(scenario, t.messages);
  assert.deepEqual(
    result.predictions.map((p) => p.match),
    ["c", "w"],
  );
  assert.equal(result.metrics.success, true);
});

test("matching is global: a call made before its turn still counts", () => {
  const scenario = scenarioWith([SEARCH], [SEND]);
  const t = new Transcript();
  t.call("b", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });
  t.call("a", "search_contacts", { name: "Homer S" });
  assert.equal(toolTalkMetrics(scenario, t.messages).metrics.recall, 1);
});

test("extra predicted arguments are allowed; an omitted one counts as its default", () => {
  const scenario = scenarioWith([call("r", "add_contact", { name: "Ann", phone_number: "+15550000000", is_self: false })]);
  const t = new Transcript();
  t.call("a", "add_contact", { name: "Ann", phone_number: "+15550000000", relationship: "friend" });
  assert.equal(toolTalkMetrics(scenario, t.messages).metrics.matches, 1);
});

test("an omitted argument without a default, or a different value, does not match", () => {
  const scenario = scenarioWith([call("r", "search_contacts", { name: "Ann", relationship: "friend" })]);
  const omitted = new Transcript();
  omitted.call("a", "search_contacts", { name: "Ann" });
  assert.equal(toolTalkMetrics(scenario, omitted.messages).metrics.matches, 0);
  const differs = new Transcript();
  differs.call("a", "search_contacts", { name: "Ann", relationship: "family" });
  assert.equal(toolTalkMetrics(scenario, differs.messages).metrics.matches, 0);
});

test("values compare as Python ==: True equals 1", () => {
  const scenario = scenarioWith([call("r", "shift_timestamp", { timestamp: 100, days: 1 })]);
  const t = new Transcript();
  t.call("a", "shift_timestamp", { timestamp: 100.0, days: true });
  assert.equal(toolTalkMetrics(scenario, t.messages).metrics.matches, 1);
});

test("malformed arguments and unknown tools never match; unknown tools are not actions", () => {
  const scenario = scenarioWith([call("r", "set_wifi_status", { on: false })]);
  const t = new Transcript();
  t.call("a", "set_wifi_status", { raw: "{on: false" }, "ValueError: bad");
  t.call("b", "turn_off_wifi", {}, "KeyError: nope");
  const result = toolTalkMetrics(scenario, t.messages);
  assert.deepEqual(
    result.predictions.map((p) => [p.tool, p.is_action, p.match]),
    [
      ["set_wifi_status", true, null],
      ["turn_off_wifi", false, null],
    ],
  );
  assert.equal(result.metrics.actions, 1);
});

test("no predictions: precision 0, recall 0, action precision 1", () => {
  const { metrics } = toolTalkMetrics(scenarioWith([SEND]), new Transcript().user("hi").messages);
  assert.deepEqual(pick(metrics), {
    predictions: 0,
    ground_truths: 1,
    matches: 0,
    actions: 0,
    valid_actions: 0,
    bad_actions: 0,
    precision: 0,
    recall: 0,
    action_precision: 1,
    bad_action_rate: 0,
    success: false,
    soft_success: 0,
  });
});

test("no reference calls: recall is 1 and success means no successful action", () => {
  const none = buildScenario({ reference: [] });
  const silent = toolTalkMetrics(none, new Transcript().user("hi").messages).metrics;
  assert.equal(silent.recall, 1);
  assert.equal(silent.precision, 0);
  assert.equal(silent.success, true);

  const reads = new Transcript();
  reads.call("a", "get_wifi_status");
  assert.equal(toolTalkMetrics(none, reads.messages).metrics.success, true);

  const acts = new Transcript();
  acts.call("a", "set_wifi_status", { on: false });
  const acted = toolTalkMetrics(none, acts.messages).metrics;
  assert.equal(acted.success, false);
  assert.equal(acted.soft_success, 0);
});

test("a suite aggregates micro ratios and a macro success rate", () => {
  const good = new Transcript();
  good.call("a", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });
  const bad = new Transcript();
  bad.call("a", "get_wifi_status");
  bad.call("b", "get_wifi_status");
  bad.call("c", "set_wifi_status", { on: false });
  const scenario = scenarioWith([SEND]);
  const aggregate = aggregateToolTalk([toolTalkMetrics(scenario, good.messages).metrics, toolTalkMetrics(scenario, bad.messages).metrics]);
  assert.equal(aggregate.episodes, 2);
  assert.equal(aggregate.micro.precision, 1 / 4);
  assert.equal(aggregate.micro.recall, 1 / 2);
  assert.equal(aggregate.micro.action_precision, 1 / 2);
  assert.equal(aggregate.micro.bad_action_rate, 1 / 2);
  assert.equal(aggregate.success_rate, 0.5);
  assert.equal(aggregate.soft_success_rate, 0.5);
  assert.equal(aggregateToolTalk([]).success_rate, 0);
});
