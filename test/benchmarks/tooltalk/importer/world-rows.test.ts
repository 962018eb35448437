// The rows an imported scenario carries: those of the databases its conversation reaches (here our
// own fixture's, test/fixtures/tooltalk/databases/).
import { test } from "node:test";
import assert from "node:assert/strict";
import { conversationWorld, worldEntries } from "../../../../engine/benchmarks/tooltalk/importer/world-rows.js";
import { importConversation } from "../../../../engine/benchmarks/tooltalk/importer/import-conversation.js";
import { checkScenarioText } from "../../../../engine/scenario/resolve.js";
import type { Row, Tables } from "../../../../engine/world/types.js";
import { toolTalkConversations, toolTalkDatabases } from "../../../fixtures/tooltalk-data.js";
import { TOKEN, assistant, conversation, gardenConversation, user } from "./fixtures.js";

const owners = (rows: readonly Record<string, unknown>[] | undefined): string[] =>
  [...new Set((rows ?? []).map((r) => String(r["username"])))].sort();

/**
 * Our fixture's databases with rows nobody in the conversation reaches: a third person (ines_bravo)
 * with an account, a message and an event, and the weather of Porto and Oslo; plus a message and an
 * event of tomas_lind's, so a receiver's rows show. The extra rows are copies of the fixture's with
 * another owner or place.
 */
function databasesWithBystanders(): Tables {
  const db = toolTalkDatabases();
  const first = (table: string): Row => {
    const row = db[table]?.[0];
    assert.ok(row, `the fixture has a ${table} row`);
    return row;
  };
  const owned = (table: string, ...usernames: string[]): Row[] => [
    ...(db[table] ?? []),
    ...usernames.map((username) => ({ ...first(table), username })),
  ];
  const placed = (table: string, ...places: string[]): Row[] => [
    ...(db[table] ?? []),
    ...places.map((location) => ({ ...first(table), location })),
  ];
  return {
    ...db,
    ACCOUNT: [...(db["ACCOUNT"] ?? []), { ...first("ACCOUNT"), username: "ines_bravo", email: "ines@fmail.com", phone: "555-000-0000" }],
    MESSAGE: owned("MESSAGE", "tomas_lind", "ines_bravo"),
    CALENDAR: owned("CALENDAR", "tomas_lind", "ines_bravo"),
    WEATHER: placed("WEATHER", "porto", "oslo"),
    HISTORIC_WEATHER: placed("HISTORIC_WEATHER", "porto", "oslo"),
  };
}

test("the user's rows, a message receiver's rows and the named places' weather; nobody and nowhere else", () => {
  const turns = [
    user("Tell Tomas I'm late, and what's the weather in Porto?"),
    assistant("Done.", [
      ["SendMessage", { receiver: "tomas_lind", message: "Running late" }, { response: { message_id: "m-1" }, exception: null }],
      ["CurrentWeather", { location: " Porto " }, { response: { weather: {} }, exception: null }],
    ]),
  ];
  const world = conversationWorld(conversation(turns), databasesWithBystanders());
  assert.deepEqual(owners(world.ACCOUNT), ["mira_okafor", "tomas_lind"]);
  assert.deepEqual(owners(world.MESSAGE), ["mira_okafor", "tomas_lind"]);
  assert.deepEqual(owners(world.CALENDAR), ["mira_okafor", "tomas_lind"]);
  // Lisbon from the user's location in the metadata, Porto from the call (trimmed, lower-cased); not Oslo.
  assert.deepEqual([...new Set(world.WEATHER?.map((r) => r["location"]))], ["lisbon", "porto"]);
  assert.deepEqual([...new Set(world.HISTORIC_WEATHER?.map((r) => r["location"]))], ["lisbon", "porto"]);
  // mira_okafor starts logged in, as the file's user block says.
  assert.deepEqual(world.SESSION, [{ username: "mira_okafor", session_token: TOKEN }]);
  assert.equal(world.ACCOUNT?.find((r) => r["username"] === "mira_okafor")?.["session_token"], TOKEN);
});

test("the world is written as rows added to an empty base, null cells left out, the session only when someone is logged in", () => {
  const world = conversationWorld(conversation([user("Hi"), assistant("Hello.")]), toolTalkDatabases());
  const entries = worldEntries(world);
  assert.deepEqual(
    Object.keys(entries),
    ["ACCOUNT", "SESSION", "ALARM", "CALENDAR", "EMAIL", "MESSAGE", "REMINDER", "WEATHER", "HISTORIC_WEATHER"].filter((t) => t in entries),
  );
  assert.deepEqual(entries["SESSION"], { username: "mira_okafor", session_token: TOKEN });
  const account = (entries["ACCOUNT"] as { add: Record<string, unknown>[] }).add;
  assert.equal(account.length, 1);
  assert.equal(Object.values(account[0] ?? {}).includes(null), false);
  // The fixture's pottery class has no attendees (null): the row leaves the cell out.
  const calendar = (entries["CALENDAR"] as { add: Record<string, unknown>[] }).add;
  assert.equal(world.CALENDAR?.[0]?.["attendees"], null);
  assert.equal("attendees" in (calendar[0] ?? {}), false);
  const loggedOut = worldEntries(
    conversationWorld(
      conversation([user("Hi"), assistant("Hello.")], {
        user: {
          username: "mira_okafor",
          email: "mira.okafor@fmail.com",
          phone: "555-201-3344",
          name: "Mira Okafor",
          password: "tidepool-88",
        },
        metadata: { location: "Lisbon", timestamp: "2024-03-13 08:00:00" },
      }),
      toolTalkDatabases(),
    ),
  );
  assert.equal("SESSION" in loggedOut, false);
});

test("a user who starts logged in without an account cannot be imported", () => {
  const ghost = conversation([user("Hi"), assistant("Hello.")], {
    user: { username: "ghost", email: "g@h.com", phone: "1", name: "G", password: "p", session_token: "t" },
    metadata: { location: "Lisbon", timestamp: "2024-03-13 08:00:00", session_token: "t", username: "ghost" },
  });
  assert.throws(
    () => conversationWorld(ghost, toolTalkDatabases()),
    /\$\.user\.session_token: ghost has no account in ToolTalk's databases/,
  );
});

test("each imported scenario starts from its own rows: an empty base, its user logged in as the file says, rows of the databases", () => {
  const databases = toolTalkDatabases();
  const conversations = [...toolTalkConversations(), gardenConversation()];
  for (const conversation of conversations) {
    const { name, text } = importConversation(conversation, { schemaPath: null, databases });
    assert.match(text, /^ {2}base: empty$/m, name);
    const { scenario, diagnostics } = checkScenarioText(text, `${name}.scenario.yaml`);
    assert.deepEqual(diagnostics, [], name);
    assert.ok(scenario, name);
    const { username, session_token } = conversation.user;
    assert.ok(session_token !== undefined, `${name}: every conversation of the fixture starts logged in`);
    const account = scenario.world.tables["ACCOUNT"]?.find((r) => r["username"] === username);
    assert.equal(account?.["session_token"], session_token, `${name}: ${username} starts logged in`);
    assert.deepEqual(scenario.world.tables["SESSION"], [{ username, session_token }], name);
    for (const [table, rows] of Object.entries(scenario.world.tables)) {
      if (table === "SESSION" || table === "ACCOUNT") continue;
      const all = new Set((databases[table] ?? []).map((r) => JSON.stringify(r)));
      for (const row of rows)
        assert.ok(all.has(JSON.stringify(row)), `${name}: ${table} row ${JSON.stringify(row)} is not in the databases`);
    }
  }
});
