// Reminder on our fixture's rows. AddReminder draws its ids from its own Random(489):
// python3 -c "import random; r=random.Random(489); print(f'{r.randint(0,0xff):02x}-{r.randint(0,0xffff):04x}')"
import { test } from "node:test";
import assert from "node:assert/strict";
import { loggedIn, ownRows } from "./harness.js";

test("AddReminder stores a pending reminder, with or without a due date", () => {
  const h = loggedIn("ines_duarte");
  assert.deepEqual(h.call("AddReminder", { task: "water plants" }).response, { reminder_id: "5b-dd80" });
  assert.deepEqual(h.call("AddReminder", { task: "pay rent", due_date: "2024-04-01 00:00:00" }).response, { reminder_id: "20-d9ca" });
  assert.deepEqual(ownRows(h, "REMINDER", "ines_duarte").slice(-2), [
    { username: "ines_duarte", reminder_id: "5b-dd80", task: "water plants", due_date: null, status: "pending" },
    { username: "ines_duarte", reminder_id: "20-d9ca", task: "pay rent", due_date: "2024-04-01 00:00:00", status: "pending" },
  ]);
  assert.equal(h.call("AddReminder", { task: "x", due_date: "next friday" }).exception, "Invalid due_date: next friday");
  // Only a ValueError becomes "Invalid due_date"; a number fails with strptime's TypeError.
  assert.equal(h.call("AddReminder", { task: "x", due_date: 5 }).exception, "strptime() argument 1 must be str, not int");
  assert.equal(ownRows(h, "REMINDER", "ines_duarte").length, 3);
});

test("CompleteReminder marks the user's own pending reminder complete, once", () => {
  // Ines's a4-6c1e is pending; Ravi's reminder of the same id is already complete.
  const h = loggedIn("ines_duarte");
  assert.deepEqual(h.call("CompleteReminder", { reminder_id: "a4-6c1e" }).response, { status: "success" });
  assert.equal(ownRows(h, "REMINDER", "ines_duarte").find((r) => r.reminder_id === "a4-6c1e")?.status, "complete");
  assert.equal(h.call("CompleteReminder", { reminder_id: "a4-6c1e" }).exception, "Reminder a4-6c1e already completed");
  assert.equal(h.call("CompleteReminder", { reminder_id: "zz-0000" }).exception, "Reminder zz-0000 not found in database");
  // Ravi's pending reminder is not Ines's to complete.
  assert.equal(h.call("CompleteReminder", { reminder_id: "37-b5e0" }).exception, "Reminder 37-b5e0 not found in database");
  assert.equal(loggedIn("ravi_menon").call("CompleteReminder", { reminder_id: "a4-6c1e" }).exception, "Reminder a4-6c1e already completed");
});

test("DeleteReminder removes the reminder", () => {
  const h = loggedIn("ravi_menon");
  assert.deepEqual(h.call("DeleteReminder", { reminder_id: "d2-09f7" }).response, { status: "success" });
  assert.deepEqual(
    ownRows(h, "REMINDER", "ravi_menon").map((r) => r.reminder_id),
    ["a4-6c1e", "37-b5e0"],
  );
  assert.equal(h.call("DeleteReminder", { reminder_id: "d2-09f7" }).exception, "Reminder d2-09f7 not found in database");
});

test("a user who never had a reminder list gets ToolTalk's KeyError, until AddReminder creates the list (even when it then refuses)", () => {
  // Kai has nothing in Reminder.json.
  const h = loggedIn("kai_brenner");
  assert.equal(h.call("CompleteReminder", { reminder_id: "x" }).exception, "'kai_brenner'");
  assert.equal(h.call("DeleteReminder", { reminder_id: "x" }).exception, "'kai_brenner'");
  assert.deepEqual(h.call("GetReminders").response, { reminders: [] });
  assert.equal(h.call("AddReminder", { task: "t", due_date: "soon" }).exception, "Invalid due_date: soon");
  assert.equal(ownRows(h, "REMINDER", "kai_brenner").length, 0);
  assert.equal(h.call("DeleteReminder", { reminder_id: "x" }).exception, "Reminder x not found in database");
});

test("GetReminders lists every reminder of the user in stored order", () => {
  assert.deepEqual(loggedIn("ravi_menon").call("GetReminders").response, {
    reminders: [
      { reminder_id: "a4-6c1e", task: "Return the projector", due_date: "2024-03-08 00:00:00", status: "complete" },
      { reminder_id: "d2-09f7", task: "Renew the parking permit", due_date: null, status: "pending" },
      { reminder_id: "37-b5e0", task: "Send the budget draft", due_date: "2024-03-18 09:00:00", status: "pending" },
    ],
  });
});
