// Email on our fixture's rows. SearchInbox: at least one filter, "any"/"all" keywords, inclusive
// dates, e-mails dated after the frozen clock ignored, the five newest. SendEmail's ids are drawn
// from its own Random(489):
// python3 -c "import random; r=random.Random(489); print(f'{r.randint(0,0xff):02x}-{r.randint(0,0xffff):04x}-{r.randint(0,0xffffffff):08x}')"
import { test } from "node:test";
import assert from "node:assert/strict";
import { loggedIn } from "./harness.js";

const emailIds = (r: { response: unknown }) => ((r.response as { emails: { email_id: string }[] }).emails ?? []).map((e) => e.email_id);

// Ines's inbox, stored out of date order: 5d 03-05 00:00, 3a 03-13 17:30 (after the clock, 08:00),
// e9 03-12 16:00, 8f 03-01, c4 03-12 16:05, 2b 03-06, 71 03-10.

test("SearchInbox returns the five newest matches, newest first, and ignores mail dated after now", () => {
  const h = loggedIn("ines_duarte");
  const all = h.call("SearchInbox", { start_date: "2024-01-01 00:00:00" });
  assert.deepEqual(emailIds(all), ["c4-18e0-7b2d93fa", "e9-5b3a-12fc07d6", "71-0d4c-8e6ab215", "2b-c6f8-40e1d9a3", "5d-93a7-f6b08c12"]);
  assert.deepEqual((all.response as { emails: unknown[] }).emails[0], {
    email_id: "c4-18e0-7b2d93fa",
    date: "2024-03-12 16:05:00",
    sender: "tickets@railway.example",
    receivers: ["ines.duarte@fmail.com"],
    subject: "Your tickets to Porto",
    body: "Your train leaves at 07:10 on Monday, coach 3.",
  });
  const later = loggedIn("ines_duarte", "2024-03-14 00:00:00");
  assert.deepEqual(emailIds(later.call("SearchInbox", { query: "postponed" })), ["3a-7f21-c09d4e88"]);
  assert.deepEqual(emailIds(h.call("SearchInbox", { query: "postponed" })), []);
});

test("SearchInbox keywords: any or all, case-insensitive, in subject or body; sender and date filters", () => {
  const h = loggedIn("ines_duarte");
  assert.deepEqual(emailIds(h.call("SearchInbox", { query: "PORTO braga" })), ["c4-18e0-7b2d93fa", "e9-5b3a-12fc07d6", "71-0d4c-8e6ab215"]);
  // "Visit" is in e9's subject, "Braga" in its body.
  assert.deepEqual(emailIds(h.call("SearchInbox", { query: "visit braga", match_type: "all" })), ["e9-5b3a-12fc07d6"]);
  assert.deepEqual(emailIds(h.call("SearchInbox", { sender: "ravi.menon@gahoo.com", end_date: "2024-03-05 00:00:00" })), [
    "5d-93a7-f6b08c12",
    "8f-2e61-a4c7053b",
  ]);
  // A query of spaces has no keywords: "any" of none is false.
  assert.deepEqual(emailIds(h.call("SearchInbox", { query: "   " })), []);
});

test("SearchInbox refusals", () => {
  const h = loggedIn("ines_duarte");
  assert.equal(h.call("SearchInbox").exception, "At least one of query, sender, start_date, end_date must be provided.");
  assert.equal(h.call("SearchInbox", { query: "x", match_type: "some" }).exception, 'match_type must be either "any" or "all".');
  assert.equal(h.call("SearchInbox", { query: "x", match_type: null }).exception, 'match_type must be either "any" or "all".');
  assert.equal(
    h.call("SearchInbox", { start_date: "2024-03-10 00:00:00", end_date: "2024-03-01 00:00:00" }).exception,
    "Start date must be earlier than end date.",
  );
  assert.equal(
    h.call("SearchInbox", { start_date: "yesterday" }).exception,
    "time data 'yesterday' does not match format '%Y-%m-%d %H:%M:%S'",
  );
  // An empty inbox (Tomas's is {} in Email.json) or none at all (Kai's) answers before any check.
  assert.deepEqual(loggedIn("tomas_lind").call("SearchInbox").response, { emails: [] });
  assert.deepEqual(loggedIn("kai_brenner").call("SearchInbox").response, { emails: [] });
});

test("SendEmail checks every address and stores nothing", () => {
  const h = loggedIn("ravi_menon");
  const before = h.rows("EMAIL");
  assert.deepEqual(h.call("SendEmail", { to: ["a@b.com", "c.d@e-f.org"], subject: "Hi", body: "Hello" }).response, {
    email_id: "5b-dd80-9f8a27ab",
  });
  assert.equal(h.rows("EMAIL"), before);
  assert.equal(
    h.call("SendEmail", { to: ["a@b.com", "bob"], subject: "Hi", body: "Hello" }).exception,
    "bob is not a valid email address.",
  );
  // A string is iterated character by character, as in Python.
  assert.equal(h.call("SendEmail", { to: "a@b.com", subject: "Hi", body: "Hello" }).exception, "a is not a valid email address.");
  assert.equal(
    h.call("SendEmail", { subject: "Hi", body: "Hello" }).exception,
    "SendEmail.call() missing 1 required positional argument: 'to'",
  );
});
