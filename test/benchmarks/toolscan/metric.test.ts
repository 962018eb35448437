import { test } from "node:test";
import assert from "node:assert/strict";
import type { ReferenceCall } from "../../../engine/scenario/model.js";
import { toolScanMetrics, type ToolScanResult } from "../../../engine/benchmarks/toolscan/metric.js";
import { buildScenario, call, calls } from "../../episode/fixtures.js";
import { Transcript } from "../../evaluation/peers/transcript.js";

const OFFERED = [
  "add_contact",
  "search_contacts",
  "send_message_with_phone_number",
  "get_wifi_status",
  "set_wifi_status",
  "search_weather_around_lat_lon",
  "shift_timestamp",
];
const SEND = call("r2", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });

function scenarioWith(...steps: (readonly ReferenceCall[])[]) {
  return buildScenario({ reference: steps.map((list) => calls(...list)), max_messages: 10 });
}

function scan(t: Transcript, ...steps: (readonly ReferenceCall[])[]): ToolScanResult {
  return toolScanMetrics(scenarioWith(...steps), t.messages, OFFERED);
}

const tagsOf = (r: ToolScanResult) => r.calls.map((c) => c.tags);

test("the reference solution, finished, has no errors and every accuracy 1", () => {
  const t = new Transcript().user("Text Homer hi");
  t.call("a", "search_contacts", { name: "Homer S" });
  t.call("b", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });
  t.agentSays("Sent.").end();
  const result = scan(t, [call("r1", "search_contacts", { name: "Homer S" })], [SEND]);
  assert.deepEqual(tagsOf(result), [[], []]);
  assert.deepEqual(result.counts, { IAC: 0, IAV: 0, IAN: 0, IAT: 0, RAC: 0, IFN: 0, IFE: 0 });
  assert.deepEqual(result.accuracies, { IAC: 1, IAV: 1, IAN: 1, IAT: 1, RAC: 1, IFN: 1, IFE: 1 });
  assert.equal(result.finished, true);
  assert.equal(result.error_success_rate, 1);
  assert.deepEqual(
    result.calls.map((c) => [c.message_index, c.executed, c.feedback]),
    [
      [1, true, null],
      [3, true, null],
    ],
  );
});

test("IFE: unreadable arguments or no call at all; nothing else is checked", () => {
  const t = new Transcript();
  t.call("a", "not_offered", { raw: '{"on": fals' }, "ValueError: bad");
  t.bareRequest();
  const result = scan(t);
  assert.deepEqual(tagsOf(result), [["IFE"], ["IFE"]]);
  assert.equal(
    result.calls[0]?.feedback,
    `ERROR | ValueError(Tool call arguments are not a valid JSON object: '{"on": fals') Format error, please response in the format of  "Action: [your action] with Action Input: [your action input]`,
  );
  assert.equal(result.calls[1]?.feedback?.startsWith("ERROR |  Format error"), true);
  assert.equal(result.counts.IFE, 2);
  assert.equal(
    result.calls.some((c) => c.executed),
    false,
  );
});

test("IFN: a name that was not offered, even one the catalog has; its arguments are not checked", () => {
  const t = new Transcript();
  t.call("a", "remove_contact", { bogus: 1 }, "KeyError: no");
  t.call("b", "get_weather", {}, "KeyError: no");
  const result = scan(t);
  assert.deepEqual(tagsOf(result), [["IFN"], ["IFN"]]);
  assert.deepEqual(result.calls[0]?.unknown_arguments, []);
  assert.equal(
    result.calls[1]?.feedback,
    "ERROR | Incorrect function name get_weather please refer to the list of function calls available " +
      "['add_contact', 'search_contacts', 'send_message_with_phone_number', 'get_wifi_status', 'set_wifi_status', 'search_weather_around_lat_lon', 'shift_timestamp']",
  );
  assert.equal(result.counts.IFN, 2);
  assert.equal(result.accuracies.IFN, 0.8);
});

test("IAN: an unknown argument name or a missing required one, counted once per call", () => {
  const t = new Transcript();
  t.call("a", "set_wifi_status", { enabled: false }, "TypeError: x");
  t.call("b", "send_message_with_phone_number", { content: "Hi" }, "TypeError: x");
  t.call("c", "get_wifi_status", { verbose: true }, "TypeError: x");
  const result = scan(t);
  assert.deepEqual(tagsOf(result), [["IAN"], ["IAN"], ["IAN"]]);
  assert.equal(result.counts.IAN, 3);
  assert.deepEqual(result.calls[0]?.unknown_arguments, ["enabled"]);
  assert.deepEqual(result.calls[0]?.missing_arguments, ["on"]);
  // The unknown name is reported before the missing one.
  assert.equal(
    result.calls[0]?.feedback,
    "ERROR | Incorrect argument name enabled for function set_wifi_status, Valid arguments are ['on']",
  );
  assert.equal(
    result.calls[1]?.feedback,
    "ERROR | Insufficient required arguments for function send_message_with_phone_number, Please add the required argument ['phone_number']",
  );
  assert.equal(
    result.calls[2]?.feedback,
    "ERROR | Incorrect argument name verbose for function get_wifi_status, this function does not require any arguments.",
  );
});

test("IAT: isinstance semantics, with None allowed only for Optional parameters", () => {
  const t = new Transcript();
  t.call("a", "set_wifi_status", { on: "false" }, "TypeError: x");
  t.call("b", "search_weather_around_lat_lon", { days: 1.5 }, "TypeError: x");
  t.call("c", "shift_timestamp", { timestamp: null }, "TypeError: x");
  // A bool is an int in Python, and None is fine where the parameter is Optional.
  t.call("d", "shift_timestamp", { timestamp: true, days: false });
  t.call("e", "search_weather_around_lat_lon", { latitude: null, longitude: 2 });
  const result = scan(t);
  assert.deepEqual(tagsOf(result), [["IAT"], ["IAT"], ["IAT"], [], []]);
  assert.equal(
    result.calls[0]?.feedback,
    "ERROR | Incorrect argument type for on for function set_wifi_status, Valid argument type is <class 'bool'>",
  );
  assert.equal(result.calls[1]?.feedback?.endsWith("Valid argument type is <class 'int'>"), true);
  assert.equal(result.calls[2]?.feedback?.endsWith("Valid argument type is (<class 'int'>, <class 'float'>, <class 'complex'>)"), true);
  assert.equal(result.counts.IAT, 3);
});

test("one call can be both IAN and IAT; the name feedback comes first", () => {
  const t = new Transcript();
  t.call("a", "set_wifi_status", { on: "yes", now: true }, "TypeError: x");
  const [only] = scan(t).calls;
  assert.deepEqual(only?.tags, ["IAN", "IAT"]);
  assert.deepEqual(only?.mistyped_arguments, ["on"]);
  assert.equal(only?.feedback?.startsWith("ERROR | Incorrect argument name now"), true);
});

test("RAC: the same name and arguments as an earlier executed call, whatever it returned", () => {
  const t = new Transcript();
  t.call("a", "send_message_with_phone_number", { phone_number: "+1", content: "Hi" }, "ConnectionError: off");
  t.call("b", "send_message_with_phone_number", { content: "Hi", phone_number: "+1" });
  t.call("c", "send_message_with_phone_number", { phone_number: "+1", content: "Hi again" });
  t.call("d", "get_wifi_status");
  t.call("e", "get_wifi_status");
  const result = scan(t);
  assert.deepEqual(tagsOf(result), [[], ["RAC"], [], [], ["RAC"]]);
  assert.equal(result.counts.RAC, 2);
});

test("RAC: calls the validator rejects are not executed, so their repeats are not RAC", () => {
  const t = new Transcript();
  t.call("a", "get_weather", {}, "KeyError: x");
  t.call("b", "get_weather", {}, "KeyError: x");
  t.call("c", "set_wifi_status", { on: "no" }, "TypeError: x");
  t.call("d", "set_wifi_status", { on: "no" }, "TypeError: x");
  assert.deepEqual(tagsOf(scan(t)), [["IFN"], ["IFN"], ["IAT"], ["IAT"]]);
});

test("RAC: two identical parallel calls, the second is the repeat", () => {
  const t = new Transcript();
  t.request("p1", "get_wifi_status");
  t.request("p2", "get_wifi_status");
  t.answer("p1").answer("p2");
  assert.deepEqual(tagsOf(scan(t)), [[], ["RAC"]]);
});

test("IAC: reference calls per tool the agent did not make, repeats and rejected calls not counted", () => {
  const reference = [
    [call("r1", "search_contacts", { name: "Homer S" })],
    [SEND],
    [call("r3", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Bye" })],
  ];
  const t = new Transcript();
  t.call("a", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });
  t.call("b", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });
  t.call("c", "send_message_with_phone_number", { phone: "+10000000000", content: "Bye" }, "TypeError: x");
  const result = scan(t, ...reference);
  assert.deepEqual(result.insufficient_calls, [
    { tool: "search_contacts", reference_calls: 1, executed_calls: 0, missing: 1 },
    { tool: "send_message_with_phone_number", reference_calls: 2, executed_calls: 1, missing: 1 },
  ]);
  assert.equal(result.counts.IAC, 2);
  assert.equal(result.accuracies.IAC, 1 / 3);
});

test("IAV: a reference call whose tool ran, but never with exactly its arguments", () => {
  const t = new Transcript();
  t.call("a", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi!" });
  t.call("b", "add_contact", { name: "Ann", phone_number: "+15550000000", relationship: "friend" });
  const result = scan(
    t,
    [SEND],
    [call("r3", "add_contact", { name: "Ann", phone_number: "+15550000000" })],
    [call("r4", "search_contacts", { name: "Ann" })],
  );
  // r4's tool never ran: that is IAC, not IAV. Extra arguments make r3 unequal.
  assert.deepEqual(result.incorrect_values, ["r2", "r3"]);
  assert.equal(result.counts.IAV, 2);
  assert.equal(result.accuracies.IAV, 0.8);
  assert.equal(result.counts.IAC, 1);
});

test("IAV: a wrong call followed by the right one is fine", () => {
  const t = new Transcript();
  t.call("a", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi!" });
  t.call("b", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" });
  assert.deepEqual(scan(t, [SEND]).incorrect_values, []);
});

test("no reference calls and no agent calls: IAC accuracy 1, nothing counted", () => {
  const result = scan(new Transcript().user("hi"));
  assert.deepEqual(result.calls, []);
  assert.deepEqual(result.counts, { IAC: 0, IAV: 0, IAN: 0, IAT: 0, RAC: 0, IFN: 0, IFE: 0 });
  assert.equal(result.accuracies.IAC, 1);
  assert.equal(result.finished, false);
  assert.equal(result.error_success_rate, 0);
});

test("the error success rate is the mean of the seven accuracies once finished", () => {
  const t = new Transcript();
  t.call("a", "get_weather", {}, "KeyError: x");
  t.call("b", "get_wifi_status");
  t.call("c", "get_wifi_status");
  t.end();
  const result = scan(t, [SEND]);
  assert.equal(result.budget, 10);
  assert.deepEqual(result.accuracies, { IAC: 0, IAV: 1, IAN: 1, IAT: 1, RAC: 0.9, IFN: 0.9, IFE: 1 });
  assert.equal(result.error_success_rate, (0 + 1 + 1 + 1 + 0.9 + 0.9 + 1) / 7);
});

test("the budget defaults to max_messages and must be a positive integer", () => {
  const scenario = buildScenario({ max_messages: 25 });
  const t = new Transcript();
  t.call("a", "get_weather", {}, "KeyError: x");
  assert.equal(toolScanMetrics(scenario, t.messages, OFFERED).accuracies.IFN, 24 / 25);
  assert.equal(toolScanMetrics(scenario, t.messages, OFFERED, 4).accuracies.IFN, 0.75);
  assert.throws(() => toolScanMetrics(scenario, t.messages, OFFERED, 0), RangeError);
});
