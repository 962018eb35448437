import { test } from "node:test";
import assert from "node:assert/strict";
import type { JsonValue } from "../../engine/base/json.js";
import { REMINDER_TOOLS } from "../../engine/packs/toolsandbox/tools/reminder.js";
import type { ToolContext } from "../../engine/tools/types.js";
import { defaultWorld } from "../../engine/packs/toolsandbox/default-world.js";
import { IDS, NOW, call, makeContext, uuidN, worldWithTable } from "./fixtures.js";

const run = (name: string, args: Readonly<Record<string, JsonValue>>, ctx: ToolContext) => call(REMINDER_TOOLS, name, args, ctx);
const defaultReminders = () => defaultWorld(NOW).REMINDER ?? [];
const TOMORROW_5PM = 1763773200; // 2025-11-21 17:00 America/Los_Angeles
const contents = (out: { ok: boolean; result?: JsonValue }) => ((out.ok ? out.result : []) as { content: string }[]).map((r) => r.content);

test("add_reminder appends a reminder created now, with no place by default", () => {
  const ctx = makeContext();
  const out = run("add_reminder", { content: "Call mom", reminder_timestamp: TOMORROW_5PM }, ctx);
  assert.equal(out.text, `'${uuidN(1)}'`);
  assert.ok(out.ok);
  assert.deepEqual(out.trace.arguments, { content: "Call mom", reminder_timestamp: TOMORROW_5PM, latitude: null, longitude: null });
  assert.deepEqual(ctx.world.changes(), [
    {
      op: "insert",
      table: "REMINDER",
      position: 3,
      row: {
        reminder_id: uuidN(1),
        content: "Call mom",
        creation_timestamp: NOW,
        reminder_timestamp: TOMORROW_5PM,
        latitude: null,
        longitude: null,
      },
    },
  ]);
});

test("add_reminder stores a place; the two coordinates are independent", () => {
  const ctx = makeContext();
  assert.equal(run("add_reminder", { content: "Buy milk", reminder_timestamp: TOMORROW_5PM, latitude: 37.5 }, ctx).ok, true);
  const row = ctx.world.rows("REMINDER").at(-1);
  assert.equal(row?.latitude, 37.5);
  assert.equal(row?.longitude, null);
});

test("add_reminder validates the timestamp and the coordinates' ranges", () => {
  const ctx = makeContext();
  const at = (extra: Record<string, JsonValue>) =>
    run("add_reminder", { content: "x", reminder_timestamp: TOMORROW_5PM, ...extra }, ctx).text;
  assert.equal(
    at({ reminder_timestamp: TOMORROW_5PM * 1000 }),
    "ValueError: Parameter 'reminder_timestamp' is larger than its valid range maximum of 2524604400.0.",
  );
  assert.equal(
    at({ reminder_timestamp: 86400 }),
    "ValueError: Parameter 'reminder_timestamp' is smaller than its valid range minimum of 315529200.0.",
  );
  assert.equal(at({ latitude: 91 }), "ValueError: Parameter 'latitude' is larger than its valid range maximum of 90.0.");
  assert.equal(at({ latitude: -90.5 }), "ValueError: Parameter 'latitude' is smaller than its valid range minimum of -90.0.");
  assert.equal(at({ longitude: 180.01 }), "ValueError: Parameter 'longitude' is larger than its valid range maximum of 180.0.");
  assert.equal(at({ longitude: -181 }), "ValueError: Parameter 'longitude' is smaller than its valid range minimum of -180.0.");
  assert.deepEqual(ctx.world.changes(), []);
});

test("add_reminder checks types; a bool passes as a number and then fails the range, as in Python", () => {
  const ctx = makeContext();
  assert.equal(
    run("add_reminder", { content: "x", reminder_timestamp: "tomorrow 5pm" }, ctx).text,
    "TypeError: Parameter 'reminder_timestamp' is of type '<class 'str'>', but expected '<class 'float'>'.",
  );
  assert.equal(
    run("add_reminder", { content: "x", reminder_timestamp: TOMORROW_5PM, latitude: "37.5" }, ctx).text,
    "TypeError: Parameter 'latitude' is of type '<class 'str'>', but expected 'typing.Optional[float]'.",
  );
  assert.equal(
    run("add_reminder", { content: "x", reminder_timestamp: true }, ctx).text,
    "ValueError: Parameter 'reminder_timestamp' is smaller than its valid range minimum of 315529200.0.",
  );
});

test("modify_reminder replaces the given fields, resets creation_timestamp to now and moves the row to the end", () => {
  const ctx = makeContext();
  const out = run("modify_reminder", { reminder_id: IDS.reminder0, content: "Look for Company SF tickets today" }, ctx);
  assert.equal(out.text, "None");
  assert.ok(out.ok);
  assert.deepEqual(out.trace.arguments, { reminder_id: IDS.reminder0, content: "Look for Company SF tickets today" });
  const old = defaultReminders()[0];
  assert.deepEqual(ctx.world.changes(), [
    {
      op: "update",
      table: "REMINDER",
      position: 0,
      new_position: 2,
      old,
      new: { ...old, content: "Look for Company SF tickets today", creation_timestamp: NOW },
    },
  ]);
});

test("modify_reminder may clear the place with None and set a new time", () => {
  const ctx = makeContext();
  const out = run(
    "modify_reminder",
    { reminder_id: IDS.reminder2, reminder_timestamp: TOMORROW_5PM, latitude: null, longitude: null },
    ctx,
  );
  assert.equal(out.ok, true);
  const row = ctx.world.rows("REMINDER").at(-1);
  assert.deepEqual(row, {
    ...defaultReminders()[2],
    reminder_timestamp: TOMORROW_5PM,
    latitude: null,
    longitude: null,
    creation_timestamp: NOW,
  });
});

test("modify_reminder validates values before checking that any was given or that the id exists", () => {
  const ctx = makeContext();
  assert.equal(
    run("modify_reminder", { reminder_id: "nope", reminder_timestamp: 5 }, ctx).text,
    "ValueError: Parameter 'reminder_timestamp' is smaller than its valid range minimum of 315529200.0.",
  );
  assert.equal(
    run("modify_reminder", { reminder_id: "nope", longitude: 200 }, ctx).text,
    "ValueError: Parameter 'longitude' is larger than its valid range maximum of 180.0.",
  );
  assert.equal(
    run("modify_reminder", { reminder_id: IDS.reminder0 }, ctx).text,
    "ValueError: No update information given. At least one new field should be provided among [content, reminder_timestamp, latitude, longitude] in order to modify reminder",
  );
});

test("modify_reminder reports an unknown or repeated id", () => {
  assert.equal(
    run("modify_reminder", { reminder_id: "nope", content: "x" }, makeContext()).text,
    "polars.exceptions.NoDataError: No db entry matching reminder_id='nope' found",
  );
  const first = defaultReminders()[0];
  assert.ok(first);
  const ctx = makeContext(worldWithTable("REMINDER", [...defaultReminders(), first]));
  assert.equal(
    run("modify_reminder", { reminder_id: IDS.reminder0, content: "x" }, ctx).text,
    `polars.exceptions.DuplicateError: More than 1 entry with reminder_id='${IDS.reminder0}' found`,
  );
  assert.deepEqual(ctx.world.changes(), []);
});

test("modify_reminder checks types against its NOT_GIVEN unions", () => {
  assert.equal(
    run("modify_reminder", { reminder_id: IDS.reminder2, latitude: "north" }, makeContext()).text,
    "TypeError: Parameter 'latitude' is of type '<class 'str'>', but expected 'typing.Union[float, NoneType, tool_sandbox.common.utils.NotGiven]'.",
  );
  assert.equal(
    run("modify_reminder", { reminder_id: IDS.reminder2, reminder_timestamp: null }, makeContext()).text,
    "TypeError: Parameter 'reminder_timestamp' is of type '<class 'NoneType'>', but expected 'typing.Union[float, tool_sandbox.common.utils.NotGiven]'.",
  );
});

test("remove_reminder deletes the reminder, or reports a missing id deterministically", () => {
  const ctx = makeContext();
  assert.equal(run("remove_reminder", { reminder_id: IDS.reminder1 }, ctx).text, "None");
  assert.deepEqual(ctx.world.changes(), [{ op: "delete", table: "REMINDER", position: 1, row: defaultReminders()[1] }]);
  assert.equal(
    run("remove_reminder", { reminder_id: IDS.reminder1 }, ctx).text,
    `polars.exceptions.NoDataError: No db entry matching predicate=[(col("reminder_id")) == (String(${IDS.reminder1}))] found`,
  );
  assert.equal(run("remove_reminder", {}, ctx).text, "TypeError: missing a required argument: 'reminder_id'");
});

test("search_reminder matches content approximately and prints rows with float timestamps", () => {
  const ctx = makeContext();
  assert.deepEqual(contents(run("search_reminder", { content: "tickets" }, ctx)), [
    "Look for Company SF tickets",
    "Buy tickets for Merrily next week",
  ]);
  assert.equal(
    run("search_reminder", { content: "bathing dress" }, ctx).text,
    `[{'reminder_id': '${IDS.reminder2}', 'content': 'Buy a nice rich navy bathing dress', 'creation_timestamp': 1763715600.0, ` +
      `'reminder_timestamp': 1763722800.0, 'latitude': 37.3237926356735, 'longitude': -122.03961770355414}]`,
  );
});

test("search_reminder bounds are inclusive and coordinates match exactly", () => {
  const ctx = makeContext();
  assert.deepEqual(contents(run("search_reminder", { reminder_timestamp_lowerbound: NOW - 60 }, ctx)), [
    "Buy tickets for Merrily next week",
    "Buy a nice rich navy bathing dress",
  ]);
  assert.deepEqual(contents(run("search_reminder", { creation_timestamp_upperbound: NOW - 86400 }, ctx)), [
    "Look for Company SF tickets",
    "Buy tickets for Merrily next week",
  ]);
  assert.deepEqual(contents(run("search_reminder", { latitude: 37.3237926356735 }, ctx)), ["Buy a nice rich navy bathing dress"]);
  assert.equal(run("search_reminder", { longitude: -122.04 }, ctx).text, "[]");
});

test("search_reminder needs a criterion and validates ranges and types", () => {
  const ctx = makeContext();
  assert.equal(
    run("search_reminder", {}, ctx).text,
    "ValueError: No search criteria are given. At least one search criteria should be provided among " +
      "('reminder_id', 'content', 'creation_timestamp', 'creation_timestamp', 'reminder_timestamp', 'reminder_timestamp', 'latitude', 'longitude')",
  );
  assert.equal(
    run("search_reminder", { reminder_timestamp_upperbound: 3e9 }, ctx).text,
    "ValueError: Parameter 'reminder_timestamp_upperbound' is larger than its valid range maximum of 2524604400.0.",
  );
  assert.equal(
    run("search_reminder", { latitude: -95 }, ctx).text,
    "ValueError: Parameter 'latitude' is smaller than its valid range minimum of -90.0.",
  );
  assert.equal(
    run("search_reminder", { latitude: null }, ctx).text,
    "TypeError: Parameter 'latitude' is of type '<class 'NoneType'>', but expected 'typing.Union[float, tool_sandbox.common.utils.NotGiven]'.",
  );
});
