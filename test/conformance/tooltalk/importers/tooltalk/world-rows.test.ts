// The rows an imported scenario carries: those of ToolTalk's databases its conversation reaches.
import { test } from "node:test";
import assert from "node:assert/strict";
import { conversationWorld, worldEntries } from "../../../../../engine/benchmarks/tooltalk/importer/world-rows.js";
import { toolTalkDatabases } from "../../published-data.js";
import { assistant, conversation, user } from "../../../../benchmarks/tooltalk/importer/fixtures.js";

const owners = (rows: readonly Record<string, unknown>[] | undefined): string[] =>
  [...new Set((rows ?? []).map((r) => String(r["username"])))].sort();

test("the user's rows, a message receiver's rows and the named places' weather; nobody and nowhere else", () => {
  const turns = [
    user("Tell Mike I'm late, and what's the weather in London?"),
    assistant("Done.", [
      ["SendMessage", { receiver: "mstein", message: "Running late" }, { response: { message_id: "m-1" }, exception: null }],
      ["CurrentWeather", { location: " London " }, { response: { weather: {} }, exception: null }],
    ]),
  ];
  const world = conversationWorld(conversation(turns), toolTalkDatabases());
  assert.deepEqual(owners(world.ACCOUNT), ["justinkool", "mstein"]);
  assert.deepEqual(owners(world.MESSAGE), ["justinkool", "mstein"]);
  // London from the call, San Francisco from the user's location in the metadata; not Tokyo or Paris.
  assert.deepEqual([...new Set(world.WEATHER?.map((r) => r["location"]))], ["london", "san francisco"]);
  assert.deepEqual([...new Set(world.HISTORIC_WEATHER?.map((r) => r["location"]))], ["london", "san francisco"]);
  assert.ok((world.CALENDAR ?? []).every((r) => r["username"] === "justinkool" || r["username"] === "mstein"));
  // justinkool starts logged in, as the file's user block says.
  assert.deepEqual(world.SESSION, [{ username: "justinkool", session_token: "98a5a87a-7714-b404" }]);
  assert.equal(world.ACCOUNT?.find((r) => r["username"] === "justinkool")?.["session_token"], "98a5a87a-7714-b404");
});

test("the world is written as rows added to an empty base, null cells left out, the session only when someone is logged in", () => {
  const world = conversationWorld(conversation([user("Hi"), assistant("Hello.")]), toolTalkDatabases());
  const entries = worldEntries(world);
  assert.deepEqual(
    Object.keys(entries),
    ["ACCOUNT", "SESSION", "ALARM", "CALENDAR", "EMAIL", "MESSAGE", "REMINDER", "WEATHER", "HISTORIC_WEATHER"].filter((t) => t in entries),
  );
  assert.deepEqual(entries["SESSION"], { username: "justinkool", session_token: "98a5a87a-7714-b404" });
  const account = (entries["ACCOUNT"] as { add: Record<string, unknown>[] }).add;
  assert.equal(account.length, 1);
  assert.equal(Object.values(account[0] ?? {}).includes(null), false);
  const loggedOut = worldEntries(
    conversationWorld(
      conversation([user("Hi"), assistant("Hello.")], {
        user: {
          username: "justinkool",
          email: "justintime@fmail.com",
          phone: "123-456-7890",
          name: "Justin Kool",
          password: "justforkicks123",
        },
        metadata: { location: "Paris", timestamp: "2023-09-11 09:00:00" },
      }),
      toolTalkDatabases(),
    ),
  );
  assert.equal("SESSION" in loggedOut, false);
});

test("a user who starts logged in without an account cannot be imported", () => {
  const ghost = conversation([user("Hi"), assistant("Hello.")], {
    user: { username: "ghost", email: "g@h.com", phone: "1", name: "G", password: "p", session_token: "t" },
    metadata: { location: "Paris", timestamp: "2023-09-11 09:00:00", session_token: "t", username: "ghost" },
  });
  assert.throws(
    () => conversationWorld(ghost, toolTalkDatabases()),
    /\$\.user\.session_token: ghost has no account in ToolTalk's databases/,
  );
});
