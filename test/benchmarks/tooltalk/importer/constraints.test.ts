// Tool-trace milestones ask what ToolTalk's match rule asks, and minefields name what must survive.
import { test } from "node:test";
import assert from "node:assert/strict";
import { traceConstraints } from "../../../../engine/benchmarks/tooltalk/importer/trace-constraints.js";
import { minefieldParts } from "../../../../engine/benchmarks/tooltalk/importer/minefields.js";
import type { GroundTruthCall } from "../../../../engine/benchmarks/tooltalk/importer/script.js";
import type { JsonObject } from "../../../../engine/base/json.js";
import { scoreReference } from "../../../../engine/evaluation/reference-check.js";
import { checkScenarioText } from "../../../../engine/scenario/resolve.js";
import { gardenScenario } from "./fixtures.js";

const traces = (parts: ReturnType<typeof traceConstraints>): unknown[] =>
  parts.map((p) => p.target[0]?.["tool_trace"] ?? p.target[0]?.["content"]);

test("SendEmail: the recipients in any order, and nothing about the free text", () => {
  const [only, ...rest] = traceConstraints(
    "SendEmail",
    { to: ["a@x.com", "b@x.com"], subject: "Hi", body: "Long text" },
    { email_id: "1" },
    { email_id: "1" },
  );
  assert.deepEqual(rest, []);
  assert.deepEqual(only?.target[0]?.["tool_trace"], [
    { tool_name: "SendEmail", arguments: { to: ["a@x.com", "b@x.com"] } },
    { tool_name: "SendEmail", arguments: { to: ["b@x.com", "a@x.com"] } },
  ]);
});

test("SendMessage checks the receiver (ToolTalk's rule never does), not the text", () => {
  assert.deepEqual(traces(traceConstraints("SendMessage", { receiver: "ines_moreau", message: "Hi" }, {}, {})), [
    { tool_name: "SendMessage", arguments: { receiver: "ines_moreau" } },
  ]);
});

test("a search must find the recorded ids that the replay found too, whatever its arguments", () => {
  const found = { events: [{ event_id: "e1" }, { event_id: "e2" }, { event_id: "e3" }] };
  const recorded = { events: [{ event_id: "e2" }, { event_id: "e9" }] };
  const parts = traceConstraints("QueryCalendar", { start_time: "a", end_time: "b" }, found, recorded);
  assert.deepEqual(traces(parts), [{ tool_name: "QueryCalendar", arguments: {} }, "e2"]);
  assert.deepEqual(parts[1]?.measures, { content: { kind: "contains" } });
});

test("any other call: every argument, exactly", () => {
  assert.deepEqual(traces(traceConstraints("CurrentWeather", { location: "London" }, {}, {})), [
    { tool_name: "CurrentWeather", arguments: { location: "London" } },
  ]);
});

function gt(tool: string, args: JsonObject): GroundTruthCall {
  return {
    order: 0,
    turn: 0,
    tool,
    arguments: args,
    recorded: { request: { api_name: tool, parameters: args }, response: null, exception: null },
    path: "$",
  };
}

test("minefields: the user's own items the ground truth keeps, and account changes nobody asked for", () => {
  const world = {
    ALARM: [
      { username: "ravi_sandoval", alarm_id: "a1", time: "06:00:00" },
      { username: "ravi_sandoval", alarm_id: "a2", time: "07:00:00" },
      { username: "bo_lindqvist", alarm_id: "a3", time: "08:00:00" },
    ],
    CALENDAR: [],
    REMINDER: [],
  };
  const parts = minefieldParts(
    [gt("DeleteAlarm", { alarm_id: "a1" }), gt("ChangePassword", { old_password: "x", new_password: "y" })],
    world,
    "ravi_sandoval",
  );
  assert.deepEqual(
    parts.map((p) => [p.id, p.after]),
    [
      ["delete_alarm_other", []],
      ["delete_account_unasked", []],
      ["update_account_information_unasked", []],
    ],
  );
  assert.deepEqual(parts[0]?.constraints[0]?.target[0]?.["tool_trace"], { tool_name: "DeleteAlarm", arguments: { alarm_id: "a2" } });
  assert.deepEqual(parts[1]?.constraints[0]?.target[0]?.["tool_trace"], { tool_name: "DeleteAccount", arguments: {} });
});

test("a minefield fires when the agent deletes an event the user keeps, and the milestone is then missed", async () => {
  const { name, text } = gardenScenario();
  // The reference adds Tomas to the pottery class (3f0a9c21-77b4), which the ground truth keeps;
  // make it delete that event instead.
  const edited = text.replace(
    "tool: ModifyEvent\n        arguments: {event_id: 3f0a9c21-77b4, new_attendees: [mira_okafor, tomas_lind]}",
    "tool: DeleteEvent\n        arguments: {event_id: 3f0a9c21-77b4}",
  );
  assert.notEqual(edited, text);
  const { scenario, diagnostics } = checkScenarioText(edited, `${name}.scenario.yaml`);
  assert.deepEqual(diagnostics, []);
  assert.ok(scenario);
  const result = await scoreReference(scenario);
  assert.deepEqual(
    result.minefields.filter((m) => m.matched_at !== null).map((m) => m.id),
    ["delete_event_other"],
  );
  assert.equal(result.score, 0);
  assert.deepEqual(
    result.milestones.filter((m) => m.matched_at === null).map((m) => m.id),
    ["reply3_modify_event"],
  );
});
