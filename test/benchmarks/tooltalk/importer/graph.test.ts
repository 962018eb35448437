// The order the importer puts between milestones: turns in sequence, and inside a turn only what
// the task forces (the session, values read from an earlier result, changes to one table).
import { test } from "node:test";
import assert from "node:assert/strict";
import type { JsonObject, JsonValue } from "../../../../engine/base/json.js";
import { turnDependencies } from "../../../../engine/benchmarks/tooltalk/importer/dependencies.js";
import type { TableEffect } from "../../../../engine/benchmarks/tooltalk/importer/effects.js";
import { milestoneParts, type PlannedCall } from "../../../../engine/benchmarks/tooltalk/importer/milestone-graph.js";
import type { GroundTruthCall } from "../../../../engine/benchmarks/tooltalk/importer/script.js";
import { requiresAuth } from "../../../../engine/packs/tooltalk/tools/apis.js";
import type { Row } from "../../../../engine/world/types.js";

const rules = { needsLogin: (tool: string): boolean => requiresAuth(tool) ?? false };

function calls(...spec: [turn: number, tool: string, args: JsonObject][]): GroundTruthCall[] {
  return spec.map(([turn, tool, args], order) => ({
    order,
    turn,
    tool,
    arguments: args,
    recorded: { request: { api_name: tool, parameters: args }, response: null, exception: null },
    path: `$.conversation[${order}]`,
  }));
}

const nothingKnown = (): boolean => false;

test("a call needing a login follows the login of its turn; a logout follows the calls that used the session", () => {
  const gt = calls(
    [0, "UserLogin", { username: "u", password: "p" }],
    [0, "AddAlarm", { time: "06:00:00" }],
    [0, "FindAlarms", {}],
    [0, "LogoutUser", {}],
    [0, "UserLogin", { username: "u", password: "p" }],
  );
  const deps = turnDependencies(gt, new Map(), rules, nothingKnown);
  assert.deepEqual([...(deps.get(1) ?? [])], [0]);
  assert.deepEqual([...(deps.get(2) ?? [])], [0]);
  assert.deepEqual([...(deps.get(3) ?? [])].sort(), [0, 1, 2]);
  assert.deepEqual([...(deps.get(4) ?? [])], [3]);
});

test("a value read in an earlier result makes a dependency unless the user said it", () => {
  const gt = calls(
    [0, "QueryUser", { username: "ines_moreau" }],
    [0, "SendEmail", { to: ["ines.moreau@postbox.test"], subject: "Hi", body: "Hello" }],
    [0, "SendMessage", { receiver: "ines_moreau", message: "Hi" }],
  );
  const results = new Map<number, JsonValue>([[0, { users: [{ username: "ines_moreau", email: "ines.moreau@postbox.test" }] }]]);
  const deps = turnDependencies(gt, results, rules, (value) => value === "ines_moreau");
  assert.deepEqual([...(deps.get(1) ?? [])], [0]);
  assert.deepEqual([...(deps.get(2) ?? [])], []);
});

const effect = (kind: TableEffect["kind"], table: string, row: Row): TableEffect => ({ kind, table, rows: [row] });

function planned(gt: GroundTruthCall[], effects: TableEffect[][]): PlannedCall[] {
  return gt.map((call, i) => ({ call, result: null, effects: effects[i] ?? [] }));
}

test("same-kind changes to one table in a turn share one order-free milestone; turns are chained", () => {
  const gt = calls(
    [0, "AddAlarm", { time: "06:00:00" }],
    [1, "CreateEvent", { name: "A" }],
    [1, "CreateEvent", { name: "B" }],
    [1, "AddReminder", { task: "T" }],
    [2, "DeleteAlarm", { alarm_id: "x" }],
  );
  const parts = milestoneParts(
    planned(gt, [
      [effect("addition", "ALARM", { time: "06:00:00" })],
      [effect("addition", "CALENDAR", { name: "A" })],
      [effect("addition", "CALENDAR", { name: "B" })],
      [effect("addition", "REMINDER", { task: "T" })],
      [effect("removal", "ALARM", { alarm_id: "x" })],
    ]),
    new Map(),
    ["ALARM", "CALENDAR", "REMINDER"],
  );
  assert.deepEqual(
    parts.map((p) => [p.id, p.after]),
    [
      ["reply1_add_alarm", []],
      ["reply2_create_event", ["reply1_add_alarm"]],
      ["reply2_add_reminder", ["reply1_add_alarm"]],
      ["reply3_delete_alarm", ["reply2_create_event", "reply2_add_reminder"]],
    ],
  );
  const events = parts[1]?.constraints[0];
  assert.equal(events?.kind, "addition");
  assert.deepEqual(events?.target, [{ name: "A" }, { name: "B" }]);
  // Each change is compared with the state the last change to its table left.
  assert.equal(events?.reference, "initial");
  assert.equal(parts[3]?.constraints[0]?.reference, "reply1_add_alarm");
  assert.deepEqual(parts[0]?.exclude, ["ALARM", "CALENDAR", "REMINDER"]);
});

test("changes of different kinds to one table keep the ground truth's order, each against the one before", () => {
  const gt = calls([0, "AddReminder", { task: "T" }], [0, "DeleteReminder", { reminder_id: "r1" }]);
  const parts = milestoneParts(
    planned(gt, [[effect("addition", "REMINDER", { task: "T" })], [effect("removal", "REMINDER", { reminder_id: "r1" })]]),
    new Map(),
    ["REMINDER"],
  );
  assert.deepEqual(
    parts.map((p) => [p.id, p.after, p.constraints[0]?.reference]),
    [
      ["reply1_add_reminder", [], "initial"],
      ["reply1_delete_reminder", ["reply1_add_reminder"], "reply1_add_reminder"],
    ],
  );
});

test("calls with no effect on the world are tool-trace milestones; dependent same-kind calls are not merged", () => {
  const gt = calls([0, "CreateEvent", { name: "A" }], [0, "CreateEvent", { name: "B" }], [0, "CurrentWeather", { location: "Paris" }]);
  const deps = new Map([[1, new Set([0])]]);
  const parts = milestoneParts(
    planned(gt, [[effect("addition", "CALENDAR", { name: "A" })], [effect("addition", "CALENDAR", { name: "B" })], []]),
    deps,
    ["CALENDAR"],
  );
  assert.deepEqual(
    parts.map((p) => p.id),
    ["reply1_create_event", "reply1_create_event_2", "reply1_current_weather"],
  );
  assert.deepEqual(parts[1]?.after, ["reply1_create_event"]);
  assert.deepEqual(parts[2]?.after, []);
  assert.deepEqual(parts[2]?.constraints, [
    {
      kind: "snapshot",
      table: "SANDBOX",
      target: [
        {
          sender: "execution_environment",
          recipient: "agent",
          tool_trace: { tool_name: "CurrentWeather", arguments: { location: "Paris" } },
        },
      ],
    },
  ]);
});
