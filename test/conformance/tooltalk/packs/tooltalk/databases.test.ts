// ToolTalk's published databases as world rows, read from the user's copy of ToolTalk's data: its
// rows in the files' order. Loading, counts and refusals: test/packs/tooltalk/databases.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readToolTalkDatabases } from "../../../../../engine/packs/tooltalk/database-files.js";
import { TOOLTALK_TABLES } from "../../../../../engine/packs/tooltalk/tables.js";
import { toolTalkDatabasesFolder } from "../../published-data.js";

const DIR = toolTalkDatabasesFolder();

test("rows keep the files' order and carry their owner; every column of the schema is present", () => {
  const world = readToolTalkDatabases(DIR);
  assert.deepEqual(world.CALENDAR?.[0], {
    username: "justinkool",
    event_id: "5480d946-2381",
    name: "Justin:Alicia",
    event_type: "meeting",
    start_time: "2023-09-11 10:00:00",
    end_time: "2023-09-11 10:30:00",
    location: "Conference Room 1",
    description: "Talk about anything. Move to your convenience.",
    attendees: ["justinkool", "aliciab"],
  });
  assert.deepEqual(world.HISTORIC_WEATHER?.at(-1), {
    location: "paris",
    month: "september",
    min_temp: 50,
    max_temp: 74,
    record_min_temp: 40,
    record_max_temp: 94,
    avg_rainfall: 2.01,
    snow_days: 0,
  });
  assert.deepEqual(world.ACCOUNT?.map((r) => r.username).slice(0, 3), ["justinkool", "decture", "mstein"]);
  for (const [name, rows] of Object.entries(world)) {
    const columns = TOOLTALK_TABLES.schemas.get(name)?.columns.map((c) => c.name);
    for (const row of rows) assert.deepEqual(Object.keys(row), columns, name);
  }
});
