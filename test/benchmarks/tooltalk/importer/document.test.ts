// Whatever the texts hold, the scenario file says exactly them: the YAML comes from the `yaml`
// library's document API, and strings YAML 1.1 readers would take for something else are quoted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parse, parseDocument } from "yaml";
import { importConversation } from "../../../../engine/benchmarks/tooltalk/importer/import-conversation.js";
import { clockFor } from "../../../../engine/benchmarks/tooltalk/importer/clock.js";
import { toolTalkDatabases } from "../../../fixtures/tooltalk-data.js";
import { TOKEN, assistant, conversation, user } from "./fixtures.js";

const TRICKY = [
  'He said "hi" and it\'s fine',
  "key: value # not a comment",
  "  leading and trailing spaces  ",
  "two\nlines",
  "yes",
  "18:00:00",
  "- looks like a list",
  "{looks: like a map}",
  "Are you coming to the canoe race on Sunday?",
  "tab\there, emoji 🎿, and a backslash \\",
];

test("texts with quotes, colons, #, spaces, line breaks and YAML look-alikes come back unchanged", () => {
  const turns = TRICKY.flatMap((text, i) => [
    user(text),
    assistant(text, [["SendMessage", { session_token: TOKEN, receiver: "tomas_lind", message: text }, { message_id: `m${i}` }]]),
  ]);
  const { text } = importConversation(conversation(turns, { scenario: TRICKY.join(" | ") }), {
    schemaPath: null,
    databases: toolTalkDatabases(),
  });
  assert.deepEqual(parseDocument(text).errors, []);
  const scenario = parse(text) as {
    user: { goal: string; opening: string };
    reference: Record<string, unknown>[];
  };
  assert.equal(scenario.user.goal, TRICKY.join(" | ").trim());
  const said = [scenario.user.opening, ...scenario.reference.flatMap((s) => (typeof s["user"] === "string" ? [s["user"]] : []))];
  assert.deepEqual(said, TRICKY);
  const replies = scenario.reference.flatMap((s) => (typeof s["agent"] === "string" ? [s["agent"]] : []));
  assert.deepEqual(replies, TRICKY);
  const messages = scenario.reference.flatMap((s) =>
    Array.isArray(s["calls"]) ? s["calls"].map((c: { arguments: { message: string } }) => c.arguments.message) : [],
  );
  assert.deepEqual(messages, TRICKY);
  // YAML 1.1 would read these as a sexagesimal number and a boolean; they are quoted.
  assert.match(text, /message: "18:00:00"/);
  assert.match(text, /message: "yes"/);
});

test("the same conversation gives the same bytes, and the modeline points at the schema given", () => {
  const turns = [
    user("Wake me at 6."),
    assistant("Done.", [["AddAlarm", { session_token: TOKEN, time: "06:00:00" }, { alarm_id: "5bff-dd80" }]]),
  ];
  const one = importConversation(conversation(turns), {
    schemaPath: "../schemas/scenario.schema.json",
    databases: toolTalkDatabases(),
  }).text;
  const two = importConversation(conversation(turns), {
    schemaPath: "../schemas/scenario.schema.json",
    databases: toolTalkDatabases(),
  }).text;
  assert.equal(one, two);
  assert.equal(one.split("\n", 1)[0], "# yaml-language-server: $schema=../schemas/scenario.schema.json");
});

test("the clock is the file's wall time, in the location's timezone when it is known and has that time", () => {
  assert.deepEqual(clockFor("2023-09-11 09:00:00", "Tokyo"), { now: "2023-09-11T09:00:00", timezone: "Asia/Tokyo" });
  assert.deepEqual(clockFor("2023-09-11 09:00:00", "Atlantis"), { now: "2023-09-11T09:00:00", timezone: "UTC" });
  // 02:30 does not exist in New York on 2023-03-12 (clocks jump from 2:00 to 3:00).
  assert.deepEqual(clockFor("2023-03-12 02:30:00", "New York"), { now: "2023-03-12T02:30:00", timezone: "UTC" });
});

test("an empty text cannot be a scenario message: the problem names the turn", () => {
  assert.throws(
    () => importConversation(conversation([user("Hi"), assistant("")]), { schemaPath: null, databases: toolTalkDatabases() }),
    (e: unknown) =>
      e instanceof Error && e.message === "test.json: $.conversation[1].text: an empty assistant text cannot be a scenario's message",
  );
});
