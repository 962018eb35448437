// Messages on our fixture's rows. SearchMessages shares SearchInbox's rules (keyword-search.ts):
// at least one filter, "any"/"all" keywords, messages dated after the frozen clock ignored, the
// five newest. SendMessage's ids are drawn from its own Random(489):
// python3 -c "import random; r=random.Random(489); print(f'{r.randint(0,0xffffffff):08x}-{r.randint(0,0xffffffff):08x}')"
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Row } from "../../../engine/world/types.js";
import { harness, loggedIn } from "./harness.js";
import { toolTalkDatabases } from "../../fixtures/tooltalk-data.js";

const messageIds = (r: { response: unknown }) =>
  ((r.response as { messages: { message_id: string }[] }).messages ?? []).map((m) => m.message_id);

// Ravi's messages, stored out of date order: c7e05b91 03-11 08:15 from Ines (oat milk, obsessed),
// 91d4e6a2 03-13 12:00 from Kai (late; after the clock, 08:00), 3f8a1c07 03-12 19:40 from Ines (oat
// milk, never), 5a20f7c3 03-09 from Kai (milk).

test("SearchMessages: future messages ignored, sender by username, newest first", () => {
  const h = loggedIn("ravi_menon");
  assert.deepEqual(messageIds(h.call("SearchMessages", { query: "late" })), []);
  assert.deepEqual(messageIds(loggedIn("ravi_menon", "2024-03-13 12:00:00").call("SearchMessages", { query: "late" })), [
    "91d4e6a2-07bc35f8",
  ]);
  assert.deepEqual(messageIds(h.call("SearchMessages", { query: "oat milk", match_type: "all", sender: "ines_duarte" })), [
    "3f8a1c07-b29e6d54",
    "c7e05b91-4d2a8f13",
  ]);
  assert.deepEqual(messageIds(h.call("SearchMessages", { query: "milk", sender: "kai_brenner" })), ["5a20f7c3-e81d9b46"]);
  assert.deepEqual(messageIds(h.call("SearchMessages", { query: "never obsessed" })), ["3f8a1c07-b29e6d54", "c7e05b91-4d2a8f13"]);
  assert.deepEqual(messageIds(h.call("SearchMessages", { query: "never obsessed", match_type: "all" })), []);
  assert.deepEqual(h.call("SearchMessages", { query: "never" }).response?.messages, [
    {
      message_id: "3f8a1c07-b29e6d54",
      timestamp: "2024-03-12 19:40:00",
      sender: "ines_duarte",
      message: "Can you get oat milk on the way home? Never mind the bread.",
    },
  ]);
});

test("SearchMessages keeps the five newest of more matches", () => {
  const base = toolTalkDatabases();
  const extra: Row[] = Array.from({ length: 7 }, (_, i) => ({
    username: "kai_brenner",
    message_id: `m${i}`,
    timestamp: `2024-03-0${i + 1} 12:00:00`,
    sender: "amy",
    message: "ping",
  }));
  const h = harness({
    base: { ...base, MESSAGE: [...(base.MESSAGE ?? []), ...extra] },
    user: { username: "kai_brenner", session_token: "k" },
  });
  assert.deepEqual(messageIds(h.call("SearchMessages", { query: "ping" })), ["m6", "m5", "m4", "m3", "m2"]);
});

test("SearchMessages refusals, and no checks for a user without messages", () => {
  const h = loggedIn("ravi_menon");
  assert.equal(
    h.call("SearchMessages", { match_type: "all" }).exception,
    "At least one of query, sender, start_date, end_date must be provided.",
  );
  assert.equal(h.call("SearchMessages", { query: "x", match_type: "ANY" }).exception, 'match_type must be either "any" or "all".');
  assert.equal(
    h.call("SearchMessages", { start_date: "2024-03-10 00:00:00", end_date: "2024-03-09 00:00:00" }).exception,
    "Start date must be earlier than end date.",
  );
  assert.equal(h.call("SearchMessages", { query: 7 }).exception, "'int' object has no attribute 'lower'");
  // Kai has nothing in Message.json.
  assert.deepEqual(loggedIn("kai_brenner").call("SearchMessages").response, { messages: [] });
});

test("SendMessage accepts any receiver, refuses an empty message, stores nothing", () => {
  const h = loggedIn("ravi_menon");
  assert.deepEqual(h.call("SendMessage", { receiver: "someone-unknown", message: "hi" }).response, { message_id: "e149636f-ecc3f121" });
  assert.deepEqual(h.call("SendMessage", { receiver: "ines_duarte", message: "again" }).response, { message_id: "5c5373e0-ecf4712d" });
  assert.equal(h.call("SendMessage", { receiver: "ines_duarte", message: "" }).exception, "Message cannot be empty.");
  assert.equal(h.rows("MESSAGE").length, toolTalkDatabases().MESSAGE?.length);
});
