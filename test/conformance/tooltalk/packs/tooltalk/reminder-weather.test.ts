// Reminder and Weather. The first reminder id is CPython's Random(489):
// python3 -c "import random; r=random.Random(489); print(f'{r.randint(0,0xff):02x}-{r.randint(0,0xffff):04x}')"
import { test } from "node:test";
import assert from "node:assert/strict";
import { harness, loggedIn, ownRows } from "./harness.js";

test("AddReminder stores a pending reminder, with or without a due date", () => {
  const h = loggedIn("decture");
  assert.deepEqual(h.call("AddReminder", { task: "water plants" }).response, { reminder_id: "5b-dd80" });
  assert.deepEqual(h.call("AddReminder", { task: "pay rent", due_date: "2023-10-01 00:00:00" }).response, { reminder_id: "20-d9ca" });
  assert.deepEqual(ownRows(h, "REMINDER", "decture").slice(-2), [
    { username: "decture", reminder_id: "5b-dd80", task: "water plants", due_date: null, status: "pending" },
    { username: "decture", reminder_id: "20-d9ca", task: "pay rent", due_date: "2023-10-01 00:00:00", status: "pending" },
  ]);
  assert.equal(h.call("AddReminder", { task: "x", due_date: "next friday" }).exception, "Invalid due_date: next friday");
  // Only a ValueError becomes "Invalid due_date"; a number fails with strptime's TypeError.
  assert.equal(h.call("AddReminder", { task: "x", due_date: 5 }).exception, "strptime() argument 1 must be str, not int");
});

test("CompleteReminder marks a pending reminder complete, once", () => {
  const h = loggedIn("justinkool");
  assert.deepEqual(h.call("CompleteReminder", { reminder_id: "14-579a" }).response, { status: "success" });
  assert.equal(ownRows(h, "REMINDER", "justinkool").find((r) => r.reminder_id === "14-579a")?.status, "complete");
  assert.equal(h.call("CompleteReminder", { reminder_id: "14-579a" }).exception, "Reminder 14-579a already completed");
  assert.equal(h.call("CompleteReminder", { reminder_id: "zz-0000" }).exception, "Reminder zz-0000 not found in database");
});

test("DeleteReminder removes the reminder", () => {
  const h = loggedIn("olivedo");
  assert.deepEqual(h.call("DeleteReminder", { reminder_id: "1f-8a4c" }).response, { status: "success" });
  assert.deepEqual(
    ownRows(h, "REMINDER", "olivedo").map((r) => r.reminder_id),
    ["14-579a", "0b-5119"],
  );
  assert.equal(h.call("DeleteReminder", { reminder_id: "1f-8a4c" }).exception, "Reminder 1f-8a4c not found in database");
});

test("a user who never had a reminder list gets ToolTalk's KeyError, until AddReminder creates the list (even when it then refuses)", () => {
  const h = loggedIn("geoff");
  assert.equal(h.call("CompleteReminder", { reminder_id: "x" }).exception, "'geoff'");
  assert.equal(h.call("DeleteReminder", { reminder_id: "x" }).exception, "'geoff'");
  assert.deepEqual(h.call("GetReminders").response, { reminders: [] });
  assert.equal(h.call("AddReminder", { task: "t", due_date: "soon" }).exception, "Invalid due_date: soon");
  assert.equal(h.call("DeleteReminder", { reminder_id: "x" }).exception, "Reminder x not found in database");
});

test("GetReminders lists every reminder of the user in stored order", () => {
  assert.deepEqual(loggedIn("decture").call("GetReminders").response, {
    reminders: [{ reminder_id: "0b-5119", task: "buy more yarn", due_date: "2023-09-30 00:00:00", status: "pending" }],
  });
});

test("CurrentWeather: today's row at the place, looked up lower-cased and trimmed", () => {
  const h = harness();
  assert.deepEqual(h.call("CurrentWeather", { location: "  New York " }).response, {
    weather: { date: "2023-09-11", high: 78, low: 60, conditions: "Sunny" },
  });
  assert.equal(h.call("CurrentWeather", { location: "Atlantis" }).exception, "Location atlantis not found in database");
  assert.equal(h.call("CurrentWeather", { location: "Boston" }).exception, "datetime.date(2023, 9, 11)");
  assert.equal(h.call("CurrentWeather", { location: 12 }).exception, "'int' object has no attribute 'lower'");
});

test("ForecastWeather: the three days after today", () => {
  const h = harness();
  const forecast = h.call("ForecastWeather", { location: "paris" }).response?.forecast as { date: string }[];
  assert.deepEqual(
    forecast.map((d) => d.date),
    ["2023-09-12", "2023-09-13", "2023-09-14"],
  );
  assert.equal(h.call("ForecastWeather", { location: "San Francisco" }).exception, "datetime.date(2023, 9, 12)");
});

test("HistoricWeather: a place's figures for a month named in full, any case", () => {
  const h = harness();
  assert.deepEqual(h.call("HistoricWeather", { location: "San Francisco", month: "SEPTEMBER" }).response, {
    weather: { min_temp: 50, max_temp: 90, record_min_temp: 48, record_max_temp: 102, avg_rainfall: 3, snow_days: 0 },
  });
  assert.equal(
    h.call("HistoricWeather", { location: "London", month: "March" }).exception,
    "Historic weather data for london missing for month march",
  );
  assert.equal(h.call("HistoricWeather", { location: "Tokyo", month: "september" }).exception, "Location tokyo not found in database");
});

test("weather needs no login", () => {
  const h = harness();
  assert.deepEqual(h.rows("SESSION"), [{ username: null, session_token: null }]);
  assert.equal(h.call("CurrentWeather", { location: "london" }).exception, null);
});
