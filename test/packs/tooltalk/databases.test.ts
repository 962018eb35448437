// ToolTalk-format databases as world rows (our fixture's; ToolTalk's published ones:
// test/conformance/tooltalk/packs/tooltalk/databases.test.ts): all of them, in the files' order,
// checked on load.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TOOLTALK_PACK, withConversationUser } from "../../../engine/packs/tooltalk/index.js";
import { databaseTables, type DatabaseSources } from "../../../engine/packs/tooltalk/databases.js";
import { readToolTalkDatabases } from "../../../engine/packs/tooltalk/database-files.js";
import { TOOLTALK_TABLES } from "../../../engine/packs/tooltalk/tables.js";
import { toolTalkDatabasesFolder } from "../../fixtures/tooltalk-data.js";

const DIR = toolTalkDatabasesFolder();
const read = (name: string): unknown => JSON.parse(readFileSync(join(DIR, `${name}.json`), "utf8"));
const sources = (): DatabaseSources => ({
  Account: read("Account"),
  Alarm: read("Alarm"),
  Calendar: read("Calendar"),
  Email: read("Email"),
  Message: read("Message"),
  Reminder: read("Reminder"),
  Weather: read("Weather"),
  HistoricWeather: read("HistoricWeather"),
});

/** Items per file: users' dicts flattened (Account: one per user). */
function itemCount(db: unknown, nested: boolean): number {
  const top = Object.values(db as Record<string, Record<string, unknown>>);
  return nested ? top.reduce((n, items) => n + Object.keys(items).length, 0) : top.length;
}

test("the databases as read hold every item of the eight files and nobody logged in", () => {
  const world = readToolTalkDatabases(DIR);
  const db = sources();
  assert.deepEqual(Object.keys(world), [...TOOLTALK_TABLES.schemas.keys()]);
  assert.equal(world.ACCOUNT?.length, itemCount(db.Account, false));
  for (const [table, file] of [
    ["ALARM", db.Alarm],
    ["CALENDAR", db.Calendar],
    ["EMAIL", db.Email],
    ["MESSAGE", db.Message],
    ["REMINDER", db.Reminder],
    ["WEATHER", db.Weather],
    ["HISTORIC_WEATHER", db.HistoricWeather],
  ] as const) {
    assert.equal(world[table]?.length, itemCount(file, true), table);
  }
  assert.deepEqual(world.SESSION, [{ username: null, session_token: null }]);
});

test("rows keep the files' order and carry their owner; every column of the schema is present", () => {
  const world = readToolTalkDatabases(DIR);
  // attendees is null for an event that is not a meeting, as ToolTalk's files write it.
  assert.deepEqual(world.CALENDAR?.[0], {
    username: "mira_okafor",
    event_id: "3f0a9c21-77b4",
    name: "Pottery class",
    event_type: "event",
    start_time: "2024-03-14 18:00:00",
    end_time: "2024-03-14 19:30:00",
    location: "Riverside studio",
    description: "Bring an apron.",
    attendees: null,
  });
  assert.deepEqual(world.HISTORIC_WEATHER?.at(-1), {
    location: "lisbon",
    month: "march",
    min_temp: 50,
    max_temp: 64,
    record_min_temp: 35,
    record_max_temp: 86,
    avg_rainfall: 2.4,
    snow_days: 0,
  });
  assert.deepEqual(
    world.ACCOUNT?.map((r) => r.username),
    ["mira_okafor", "tomas_lind", "ines_duarte", "ravi_menon", "kai_brenner"],
  );
  for (const [name, rows] of Object.entries(world)) {
    const columns = TOOLTALK_TABLES.schemas.get(name)?.columns.map((c) => c.name);
    for (const row of rows) assert.deepEqual(Object.keys(row), columns, name);
  }
});

test("the empty world, and the default one (no data ships), have only the logged-out session row", () => {
  for (const world of [TOOLTALK_PACK.emptyWorld(0), TOOLTALK_PACK.defaultWorld(0)]) {
    for (const [name, rows] of Object.entries(world)) assert.equal(rows.length, name === "SESSION" ? 1 : 0, name);
  }
});

test("a malformed database is refused with the file and the item", () => {
  const broken = (patch: Partial<DatabaseSources>) => () => databaseTables({ ...sources(), ...patch }, "data/databases");
  assert.throws(
    broken({ Alarm: { tomas_lind: { "a-1": { alarm_id: "a-1", time: 700 } } } }),
    /^Error: data\/databases\/Alarm\.json: tomas_lind > a-1: time should be a string, got 700$/,
  );
  assert.throws(
    broken({ Alarm: { tomas_lind: { "a-1": { alarm_id: "a-2", time: "07:00:00" } } } }),
    /Alarm\.json: tomas_lind > a-1: alarm_id differs from its key "a-1"/,
  );
  assert.throws(
    broken({ Reminder: { x: { r: { reminder_id: "r", task: "t", status: "pending", colour: "red" } } } }),
    /Reminder\.json: x > r: unknown field colour/,
  );
  assert.throws(
    broken({ Calendar: { x: { e: { event_id: "e", name: "n", event_type: "event", start_time: "s", end_time: "t", attendees: [1] } } } }),
    /attendees should be a list of strings/,
  );
  assert.throws(broken({ Weather: [] }), /Weather\.json: : expected an object/);
  assert.throws(broken({ Account: { bob: { username: "bob", password: "p" } } }), /Account\.json: bob: email is missing/);
});

test("a conversation's user starts logged in with its token, written to the account too", () => {
  const base = readToolTalkDatabases(DIR);
  const world = withConversationUser(base, { username: "tomas_lind", session_token: "3c7e01aa-5d42-e9b0" });
  assert.deepEqual(world.SESSION, [{ username: "tomas_lind", session_token: "3c7e01aa-5d42-e9b0" }]);
  assert.equal(world.ACCOUNT?.find((r) => r.username === "tomas_lind")?.session_token, "3c7e01aa-5d42-e9b0");
  assert.equal(base.ACCOUNT?.find((r) => r.username === "tomas_lind")?.session_token, null, "the databases are not changed");
  assert.equal(withConversationUser(base, { username: "mira_okafor" }), base, "a user without token or code changes nothing");
  assert.throws(
    () => withConversationUser(base, { username: "ghost", session_token: "t" }),
    /the conversation's user ghost has no account/,
  );
});
