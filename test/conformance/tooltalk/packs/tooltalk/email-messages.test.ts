// SearchInbox / SearchMessages: at least one filter, "any"/"all" keywords, inclusive dates, items
// dated after the frozen clock ignored, the five newest. SendEmail / SendMessage ids are CPython's:
// python3 -c "import random; r=random.Random(489); print(f'{r.randint(0,0xff):02x}-{r.randint(0,0xffff):04x}-{r.randint(0,0xffffffff):08x}')"
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Row } from "../../../../../engine/world/types.js";
import { harness, loggedIn } from "./harness.js";
import { toolTalkDatabases } from "../../published-data.js";

const emailIds = (r: { response: unknown }) => ((r.response as { emails: { email_id: string }[] }).emails ?? []).map((e) => e.email_id);
const messageIds = (r: { response: unknown }) =>
  ((r.response as { messages: { message_id: string }[] }).messages ?? []).map((m) => m.message_id);

test("SearchInbox returns the five newest matches and ignores mail dated after now", () => {
  // mstein has 7 e-mails (newest first: 09-11 18:00, 09-10 11:06, 09-10 11:00, 09-09 11:00,
  // 09-05 17:40, 09-05 00:00, 09-02); the one of 09-11 18:00 lies after the clock (09:00).
  const h = loggedIn("mstein");
  const all = h.call("SearchInbox", { start_date: "2023-01-01 00:00:00" });
  assert.deepEqual(emailIds(all), ["ff-7890-abcdef12", "0a-1b2c-3d4e5f6", "75-ff99-d8d1383b", "8c-7e2a-df490b13", "b5-cf2d-5231552e"]);
  const later = loggedIn("mstein", "2023-09-12 00:00:00");
  assert.equal(emailIds(later.call("SearchInbox", { query: "canceled" }))[0], "2f-9c6d-5e7a81c4");
  assert.deepEqual(emailIds(h.call("SearchInbox", { query: "canceled" })), []);
});

test("SearchInbox keywords: any or all, case-insensitive, in subject or body; sender and date filters", () => {
  const h = loggedIn("mstein");
  assert.deepEqual(emailIds(h.call("SearchInbox", { query: "EDINBURGH london" })), [
    "ff-7890-abcdef12",
    "0a-1b2c-3d4e5f6",
    "75-ff99-d8d1383b",
  ]);
  assert.deepEqual(emailIds(h.call("SearchInbox", { query: "visit edinburgh", match_type: "all" })), ["ff-7890-abcdef12"]);
  assert.deepEqual(emailIds(h.call("SearchInbox", { sender: "john.carbugle@fmail.com", end_date: "2023-09-05 00:00:00" })), [
    "b5-cf2d-5231552e",
    "0b-5119-b5f0a5b5",
  ]);
  // A query of spaces has no keywords: "any" of none is false.
  assert.deepEqual(emailIds(h.call("SearchInbox", { query: "   " })), []);
});

test("SearchInbox refusals", () => {
  const h = loggedIn("mstein");
  assert.equal(h.call("SearchInbox").exception, "At least one of query, sender, start_date, end_date must be provided.");
  assert.equal(h.call("SearchInbox", { query: "x", match_type: "some" }).exception, 'match_type must be either "any" or "all".');
  assert.equal(h.call("SearchInbox", { query: "x", match_type: null }).exception, 'match_type must be either "any" or "all".');
  assert.equal(
    h.call("SearchInbox", { start_date: "2023-09-10 00:00:00", end_date: "2023-09-01 00:00:00" }).exception,
    "Start date must be earlier than end date.",
  );
  assert.equal(
    h.call("SearchInbox", { start_date: "yesterday" }).exception,
    "time data 'yesterday' does not match format '%Y-%m-%d %H:%M:%S'",
  );
  // An empty inbox answers before any check.
  assert.deepEqual(loggedIn("justinkool").call("SearchInbox").response, { emails: [] });
  assert.deepEqual(loggedIn("geoff").call("SearchInbox").response, { emails: [] });
});

test("SendEmail checks every address and stores nothing", () => {
  const h = loggedIn("lifeng");
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

test("SearchMessages: future messages ignored, sender by username, newest first", () => {
  const h = loggedIn("justinkool");
  // The message of 2023-09-11 14:05 lies after the clock.
  assert.deepEqual(messageIds(h.call("SearchMessages", { query: "late" })), []);
  assert.deepEqual(messageIds(loggedIn("justinkool", "2023-09-11 14:05:00").call("SearchMessages", { query: "late" })).length, 1);
  const salcano = loggedIn("salcano");
  assert.deepEqual(messageIds(salcano.call("SearchMessages", { query: "oat milk", match_type: "all", sender: "decture" })), [
    "00747977-006f526d",
    "006f526d-00747977",
  ]);
  assert.deepEqual(messageIds(salcano.call("SearchMessages", { query: "never obsessed" })), ["00747977-006f526d", "006f526d-00747977"]);
  assert.deepEqual(messageIds(salcano.call("SearchMessages", { query: "never obsessed", match_type: "all" })), []);
});

test("SearchMessages keeps the five newest of more matches", () => {
  const base = toolTalkDatabases();
  const extra: Row[] = Array.from({ length: 7 }, (_, i) => ({
    username: "geoff",
    message_id: `m${i}`,
    timestamp: `2023-09-0${i + 1} 12:00:00`,
    sender: "amy",
    message: "ping",
  }));
  const h = harness({ base: { ...base, MESSAGE: [...(base.MESSAGE ?? []), ...extra] }, user: { username: "geoff", session_token: "g" } });
  assert.deepEqual(messageIds(h.call("SearchMessages", { query: "ping" })), ["m6", "m5", "m4", "m3", "m2"]);
});

test("SearchMessages refusals, and no checks for a user without messages", () => {
  const h = loggedIn("decture");
  assert.equal(
    h.call("SearchMessages", { match_type: "all" }).exception,
    "At least one of query, sender, start_date, end_date must be provided.",
  );
  assert.equal(h.call("SearchMessages", { query: "x", match_type: "ANY" }).exception, 'match_type must be either "any" or "all".');
  assert.equal(
    h.call("SearchMessages", { start_date: "2023-09-10 00:00:00", end_date: "2023-09-09 00:00:00" }).exception,
    "Start date must be earlier than end date.",
  );
  assert.equal(h.call("SearchMessages", { query: 7 }).exception, "'int' object has no attribute 'lower'");
  assert.deepEqual(loggedIn("geoff").call("SearchMessages").response, { messages: [] });
});

test("SendMessage accepts any receiver, refuses an empty message, stores nothing", () => {
  const h = loggedIn("decture");
  assert.deepEqual(h.call("SendMessage", { receiver: "someone-unknown", message: "hi" }).response, { message_id: "e149636f-ecc3f121" });
  assert.deepEqual(h.call("SendMessage", { receiver: "nickie", message: "again" }).response, { message_id: "5c5373e0-ecf4712d" });
  assert.equal(h.call("SendMessage", { receiver: "nickie", message: "" }).exception, "Message cannot be empty.");
  assert.equal(h.rows("MESSAGE").length, toolTalkDatabases().MESSAGE?.length);
});
