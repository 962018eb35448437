// Alarm: set, delete, list; the first id is CPython's Random(489):
// python3 -c "import random; r=random.Random(489); print(f'{r.randint(0,0xffff):04x}-{r.randint(0,0xffff):04x}')"
import { test } from "node:test";
import assert from "node:assert/strict";
import { harness, loggedIn, ownRows } from "./harness.js";
import { toolTalkDatabases } from "../../published-data.js";

test("AddAlarm stores the alarm under a generated id and checks the time format first", () => {
  const h = loggedIn("ahhchiu");
  assert.deepEqual(h.call("AddAlarm", { time: "08:00:00" }).response, { alarm_id: "5bff-dd80" });
  assert.deepEqual(ownRows(h, "ALARM", "ahhchiu").at(-1), { username: "ahhchiu", alarm_id: "5bff-dd80", time: "08:00:00" });
  assert.deepEqual(h.call("AddAlarm", { time: "7:5:3" }).response, { alarm_id: "20d0-d9ca" }, "Python's %H accepts one digit");
  assert.equal(h.call("AddAlarm", { time: "25:00:00" }).exception, "time data '25:00:00' does not match format '%H:%M:%S'");
  assert.equal(h.call("AddAlarm", { time: "8:00 am" }).exception, "time data '8:00 am' does not match format '%H:%M:%S'");
  assert.equal(h.call("AddAlarm", { time: "08:00:00 pm" }).exception, "unconverted data remains:  pm");
  assert.equal(h.call("AddAlarm", { time: 800 }).exception, "strptime() argument 1 must be str, not int");
});

test("a generated id that the user already has replaces that alarm in place, as a dict assignment does", () => {
  const base = toolTalkDatabases();
  const clash = { ...base, ALARM: [{ username: "mstein", alarm_id: "5bff-dd80", time: "06:00:00" }, ...(base.ALARM ?? [])] };
  const h = harness({ base: clash, user: { username: "mstein", session_token: "t" } });
  h.call("AddAlarm", { time: "09:15:00" });
  assert.deepEqual(h.rows("ALARM")[0], { username: "mstein", alarm_id: "5bff-dd80", time: "09:15:00" });
  assert.equal(h.rows("ALARM").length, (base.ALARM ?? []).length + 1);
});

test("DeleteAlarm removes only the logged-in user's alarm", () => {
  const h = loggedIn("olivedo");
  assert.deepEqual(h.call("DeleteAlarm", { alarm_id: "593d-49e9" }).response, { status: "success" });
  assert.equal(
    ownRows(h, "ALARM", "olivedo").some((r) => r.alarm_id === "593d-49e9"),
    false,
  );
  assert.ok(
    ownRows(h, "ALARM", "mstein").some((r) => r.alarm_id === "593d-49e9"),
    "another user's alarm with the same id stays",
  );
  assert.equal(h.call("DeleteAlarm", { alarm_id: "593d-49e9" }).exception, "Alarm 593d-49e9 not found.");
  assert.equal(loggedIn("justinkool").call("DeleteAlarm", { alarm_id: "593d-49e9" }).exception, "Alarm 593d-49e9 not found.");
});

test("FindAlarms lists alarms within an inclusive range, and checks the range", () => {
  const h = loggedIn("mstein");
  assert.deepEqual(h.call("FindAlarms").response, {
    alarms: [
      { alarm_id: "593d-49e9", time: "07:30:00" },
      { alarm_id: "4631-000e", time: "18:00:00" },
      { alarm_id: "4e20-0a4c", time: "18:30:00" },
      { alarm_id: "987a-5fa5", time: "21:30:00" },
    ],
  });
  assert.deepEqual(h.call("FindAlarms", { start_range: "18:00:00", end_range: "21:30:00" }).response?.alarms, [
    { alarm_id: "4631-000e", time: "18:00:00" },
    { alarm_id: "4e20-0a4c", time: "18:30:00" },
    { alarm_id: "987a-5fa5", time: "21:30:00" },
  ]);
  assert.deepEqual(h.call("FindAlarms", { end_range: "08:00:00" }).response?.alarms, [{ alarm_id: "593d-49e9", time: "07:30:00" }]);
  assert.equal(
    h.call("FindAlarms", { start_range: "20:00:00", end_range: "08:00:00" }).exception,
    "Start range must be earlier than end range.",
  );
  assert.equal(h.call("FindAlarms", { start_range: "noon" }).exception, "time data 'noon' does not match format '%H:%M:%S'");
});

test("FindAlarms answers an empty list before checking anything for a user who never had an alarm, but not once they had one", () => {
  const h = loggedIn("justinkool");
  assert.deepEqual(h.call("FindAlarms", { start_range: "noon" }).response, { alarms: [] });
  const { alarm_id } = h.call("AddAlarm", { time: "06:00:00" }).response as { alarm_id: string };
  h.call("DeleteAlarm", { alarm_id });
  assert.equal(ownRows(h, "ALARM", "justinkool").length, 0);
  assert.equal(h.call("FindAlarms", { start_range: "noon" }).exception, "time data 'noon' does not match format '%H:%M:%S'");
});
