// The ToolTalk pack as the ToolTalk evaluation's backend (engine/benchmarks/tooltalk/evaluation/
// pack-backend.ts), on our fixture's rows: the executor's rules (unknown tools, login, the injected
// token, one user at a time), a reset that restarts every id generator, the action flags, and the
// conversation clock.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MATCH_RULES } from "../../../../engine/benchmarks/tooltalk/evaluation/match-rules.js";
import { ToolTalkPackBackend, conversationClock } from "../../../../engine/benchmarks/tooltalk/evaluation/pack-backend.js";
import type { ToolTalkConversation } from "../../../../engine/benchmarks/tooltalk/evaluation/types.js";
import { toolTalkDatabases } from "../../../fixtures/tooltalk-data.js";

const mira = (session: boolean): ToolTalkConversation => ({
  file: "inline",
  name: "inline",
  conversation_id: "0",
  suites_used: [],
  apis_used: [],
  scenario: null,
  user: {
    username: "mira_okafor",
    email: "",
    phone: "",
    name: "",
    password: "",
    ...(session ? { session_token: "7f3e-1c2a-90b4-d5e6" } : {}),
  },
  metadata: { location: "Lisbon", timestamp: "2023-09-11 09:00:00" },
  turns: [],
  trailing_user_turns: [],
  normalisations: [],
});

test("the pack backend applies the executor's rules: unknown tools, login required, token injected, one user at a time", () => {
  const backend = new ToolTalkPackBackend(toolTalkDatabases());
  backend.reset(mira(false));
  assert.equal(backend.execute({ api_name: "Teleport", parameters: {} }).exception, "API Teleport not found");
  assert.equal(backend.execute({ api_name: "GetReminders", parameters: {} }).exception, "User is not logged in");

  backend.reset(mira(true));
  const reminders = backend.execute({ api_name: "GetReminders", parameters: {} });
  assert.equal(reminders.exception, null);
  assert.deepEqual(reminders.request, { api_name: "GetReminders", parameters: { session_token: "7f3e-1c2a-90b4-d5e6" } });
  const login = backend.execute({ api_name: "UserLogin", parameters: { username: "mira_okafor", password: "x" } });
  assert.equal(login.exception, "Only one user can be logged in at a time. Current user is mira_okafor.");
  assert.equal(backend.execute({ api_name: "LogoutUser", parameters: {} }).exception, null);
  assert.equal(backend.execute({ api_name: "GetReminders", parameters: {} }).exception, "User is not logged in");

  // A reset forgets the logout and restarts every id generator.
  backend.reset(mira(true));
  const first = backend.execute({ api_name: "AddAlarm", parameters: { time: "06:00:00" } }).response;
  backend.reset(mira(true));
  assert.deepEqual(backend.execute({ api_name: "AddAlarm", parameters: { time: "06:00:00" } }).response, first);
});

test("the pack's tools and action flags are the 28 tools the match rules know, 18 of them actions", () => {
  const backend = new ToolTalkPackBackend(toolTalkDatabases());
  const names = Object.keys(MATCH_RULES);
  assert.equal(names.filter((name) => backend.isAction(name)).length, 18);
  assert.equal(backend.isAction("end_conversation"), false);
  backend.reset(mira(true));
  for (const name of names) assert.notEqual(backend.execute({ api_name: name, parameters: {} }).exception, `API ${name} not found`, name);
});

test("the conversation clock is the naive timestamp, whatever the machine's timezone", () => {
  assert.deepEqual(conversationClock("2023-09-11 09:00:00"), { now: Date.UTC(2023, 8, 11, 9, 0, 0) / 1000, timezone: "UTC" });
  assert.throws(() => conversationClock("soon"), RangeError);
});
