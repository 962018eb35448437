// Alarm on our fixture's rows: set, delete, list. AddAlarm draws its ids from its own Random(489):
// python3 -c "import random; r=random.Random(489); print(f'{r.randint(0,0xffff):04x}-{r.randint(0,0xffff):04x}')"
import { test } from "node:test";
import assert from "node:assert/strict";
import { harness, loggedIn, ownRows } from "./harness.js";
import { toolTalkDatabases } from "../../fixtures/tooltalk-data.js";

test("AddAlarm stores the alarm under a generated id and checks the time format first", () => {
  const h = loggedIn("ines_duarte");
  assert.deepEqual(h.call("AddAlarm", { time: "08:00:00" }).response, { alarm_id: "5bff-dd80" });
  assert.deepEqual(ownRows(h, "ALARM", "ines_duarte").at(-1), { username: "ines_duarte", alarm_id: "5bff-dd80", time: "08:00:00" });
  assert.deepEqual(h.call("AddAlarm", { time: "7:5:3" }).response, { alarm_id: "20d0-d9ca" }, "Python's %H accepts one digit");
  assert.equal(h.call("AddAlarm", { time: "25:00:00" }).exception, "time data '25:00:00' does not match format '%H:%M:%S'");
  assert.equal(h.call("AddAlarm", { time: "8:00 am" }).exception, "time data '8:00 am' does not match format '%H:%M:%S'");
  assert.equal(h.call("AddAlarm", { time: "08:00:00 pm" }).exception, "unconverted data remains:  pm");
  assert.equal(h.call("AddAlarm", { time: 800 }).exception, "strptime() argument 1 must be str, not int");
  assert.equal(ownRows(h, "ALARM", "ines_duarte").length, 6, "the four of the fixture and the two set");
});

test("a generated id that the user already has replaces that alarm in place, as a dict assignment does", () => {
  const base = toolTalkDatabases();
  const clash = { ...base, ALARM: [{ username: "ravi_menon", alarm_id: "5bff-dd80", time: "06:00:00" }, ...(base.ALARM ?? [])] };
  const h = harness({ base: clash, user: { username: "ravi_menon", session_token: "t" } });
  h.call("AddAlarm", { time: "09:15:00" });
  assert.deepEqual(h.rows("ALARM")[0], { username: "ravi_menon", alarm_id: "5bff-dd80", time: "09:15:00" });
  assert.equal(h.rows("ALARM").length, (base.ALARM ?? []).length + 1);
});

test("DeleteAlarm removes only the logged-in user's alarm", () => {
  // Ines and Mira each have an alarm 0c1d-2e3f.
  const h = loggedIn("ines_duarte");
  assert.deepEqual(h.call("DeleteAlarm", { alarm_id: "0c1d-2e3f" }).response, { status: "success" });
  assert.equal(
    ownRows(h, "ALARM", "ines_duarte").some((r) => r.alarm_id === "0c1d-2e3f"),
    false,
  );
  assert.ok(
    ownRows(h, "ALARM", "mira_okafor").some((r) => r.alarm_id === "0c1d-2e3f"),
    "another user's alarm with the same id stays",
  );
  assert.equal(h.call("DeleteAlarm", { alarm_id: "0c1d-2e3f" }).exception, "Alarm 0c1d-2e3f not found.");
  assert.equal(loggedIn("kai_brenner").call("DeleteAlarm", { alarm_id: "0c1d-2e3f" }).exception, "Alarm 0c1d-2e3f not found.");
});

test("FindAlarms lists alarms within an inclusive range, and checks the range", () => {
  const h = loggedIn("ines_duarte");
  assert.deepEqual(h.call("FindAlarms").response, {
    alarms: [
      { alarm_id: "0c1d-2e3f", time: "06:15:00" },
      { alarm_id: "7a41-c2d8", time: "12:30:00" },
      { alarm_id: "b3e9-5f06", time: "19:00:00" },
      { alarm_id: "e8d2-0a17", time: "22:45:00" },
    ],
  });
  assert.deepEqual(h.call("FindAlarms", { start_range: "12:30:00", end_range: "22:45:00" }).response?.alarms, [
    { alarm_id: "7a41-c2d8", time: "12:30:00" },
    { alarm_id: "b3e9-5f06", time: "19:00:00" },
    { alarm_id: "e8d2-0a17", time: "22:45:00" },
  ]);
  assert.deepEqual(h.call("FindAlarms", { end_range: "07:00:00" }).response?.alarms, [{ alarm_id: "0c1d-2e3f", time: "06:15:00" }]);
  assert.equal(
    h.call("FindAlarms", { start_range: "20:00:00", end_range: "07:00:00" }).exception,
    "Start range must be earlier than end range.",
  );
  assert.equal(h.call("FindAlarms", { start_range: "noon" }).exception, "time data 'noon' does not match format '%H:%M:%S'");
});

test("FindAlarms answers an empty list before checking anything for a user who never had an alarm, but not once they had one", () => {
  // Kai has an account and nothing in Alarm.json.
  const h = loggedIn("kai_brenner");
  assert.deepEqual(h.call("FindAlarms", { start_range: "noon" }).response, { alarms: [] });
  const { alarm_id } = h.call("AddAlarm", { time: "06:00:00" }).response as { alarm_id: string };
  h.call("DeleteAlarm", { alarm_id });
  assert.equal(ownRows(h, "ALARM", "kai_brenner").length, 0);
  assert.equal(h.call("FindAlarms", { start_range: "noon" }).exception, "time data 'noon' does not match format '%H:%M:%S'");
});
