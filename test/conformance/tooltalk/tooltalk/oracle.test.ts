// ToolTalk's own oracle test (tests/test_oracle.py), against the ToolTalk pack: replaying each
// conversation's ground truth through the real tools must give precision = recall = 1 and success.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConversationFolder } from "../../../../engine/benchmarks/tooltalk/evaluation/conversation-files.js";
import { groundTruthPredictor } from "../../../../engine/benchmarks/tooltalk/evaluation/ground-truth-predictor.js";
import { MATCH_RULES } from "../../../../engine/benchmarks/tooltalk/evaluation/match-rules.js";
import { aggregateConversations } from "../../../../engine/benchmarks/tooltalk/evaluation/metrics.js";
import { ToolTalkPackBackend, conversationClock } from "../../../../engine/benchmarks/tooltalk/evaluation/pack-backend.js";
import { runConversation, type ToolTalkConversationResult } from "../../../../engine/benchmarks/tooltalk/evaluation/simulation.js";
import type { ToolTalkConversation } from "../../../../engine/benchmarks/tooltalk/evaluation/types.js";
import { toolTalkDataRoot, toolTalkDatabases } from "../published-data.js";

const DATA = toolTalkDataRoot();

async function replayAll(folder: string): Promise<ToolTalkConversationResult[]> {
  const results: ToolTalkConversationResult[] = [];
  for (const conversation of loadConversationFolder(join(DATA, folder))) {
    results.push(await runConversation(conversation, new ToolTalkPackBackend(toolTalkDatabases()), groundTruthPredictor(conversation)));
  }
  return results;
}

function failures(results: readonly ToolTalkConversationResult[]): string[] {
  return results
    .filter((r) => r.metrics.precision !== 1 || r.metrics.recall !== 1 || !r.metrics.success)
    .map((r) => {
      const unmatched = r.turns.flatMap((t) => t.apis.filter((a) => !a.match).map((a) => `turn ${t.position} ${a.request.api_name}`));
      return `${r.file}: precision ${r.metrics.precision}, recall ${r.metrics.recall}; unmatched ${unmatched.join(", ")}`;
    });
}

for (const [folder, conversations, calls, actions] of [
  ["easy", 28, 28, 18],
  ["tooltalk", 50, 238, 155],
] as const) {
  test(`oracle: replaying the ground truth of the ${conversations} ${folder} conversations scores perfectly`, async () => {
    const results = await replayAll(folder);
    assert.equal(results.length, conversations);
    assert.deepEqual(failures(results), []);
    const total = aggregateConversations(results.map((r) => r.metrics));
    assert.equal(total.micro.ground_truths, calls);
    assert.equal(total.micro.predictions, calls);
    assert.equal(total.micro.actions, actions);
    assert.equal(total.success_rate, 1);
    assert.ok(results.every((r) => r.turns.every((t) => !t.step_cap_reached)));
  });
}

const justin = (session: boolean): ToolTalkConversation => ({
  file: "inline",
  name: "inline",
  conversation_id: "0",
  suites_used: [],
  apis_used: [],
  scenario: null,
  user: {
    username: "justinkool",
    email: "",
    phone: "",
    name: "",
    password: "",
    ...(session ? { session_token: "98a5a87a-7714-b404" } : {}),
  },
  metadata: { location: "San Francisco", timestamp: "2023-09-11 09:00:00" },
  turns: [],
  trailing_user_turns: [],
  normalisations: [],
});

test("the pack backend applies the executor's rules: unknown tools, login required, token injected, one user at a time", () => {
  const backend = new ToolTalkPackBackend(toolTalkDatabases());
  backend.reset(justin(false));
  assert.equal(backend.execute({ api_name: "Teleport", parameters: {} }).exception, "API Teleport not found");
  assert.equal(backend.execute({ api_name: "GetReminders", parameters: {} }).exception, "User is not logged in");

  backend.reset(justin(true));
  const reminders = backend.execute({ api_name: "GetReminders", parameters: {} });
  assert.equal(reminders.exception, null);
  assert.deepEqual(reminders.request, { api_name: "GetReminders", parameters: { session_token: "98a5a87a-7714-b404" } });
  const login = backend.execute({ api_name: "UserLogin", parameters: { username: "justinkool", password: "x" } });
  assert.equal(login.exception, "Only one user can be logged in at a time. Current user is justinkool.");
  assert.equal(backend.execute({ api_name: "LogoutUser", parameters: {} }).exception, null);
  assert.equal(backend.execute({ api_name: "GetReminders", parameters: {} }).exception, "User is not logged in");

  // A reset forgets the logout and restarts every id generator.
  backend.reset(justin(true));
  const first = backend.execute({ api_name: "AddAlarm", parameters: { time: "06:00:00" } }).response;
  backend.reset(justin(true));
  assert.deepEqual(backend.execute({ api_name: "AddAlarm", parameters: { time: "06:00:00" } }).response, first);
});

test("the pack's tools and action flags are the 28 tools the match rules know, 18 of them actions", () => {
  const backend = new ToolTalkPackBackend(toolTalkDatabases());
  const names = Object.keys(MATCH_RULES);
  assert.equal(names.filter((name) => backend.isAction(name)).length, 18);
  assert.equal(backend.isAction("end_conversation"), false);
  backend.reset(justin(true));
  for (const name of names) assert.notEqual(backend.execute({ api_name: name, parameters: {} }).exception, `API ${name} not found`, name);
});

test("the conversation clock is the naive timestamp, whatever the machine's timezone", () => {
  assert.deepEqual(conversationClock("2023-09-11 09:00:00"), { now: Date.UTC(2023, 8, 11, 9, 0, 0) / 1000, timezone: "UTC" });
  assert.throws(() => conversationClock("soon"), RangeError);
});
