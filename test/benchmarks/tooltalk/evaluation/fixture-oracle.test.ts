// ToolTalk's oracle (replaying a conversation's ground truth through the real tools scores
// precision = recall = 1 and success) on our own ToolTalk-format fixture (test/fixtures/tooltalk/),
// so `npm test` checks the ToolTalk pack and its evaluation on a clean clone. The same oracle over
// the 78 published conversations is in test/conformance/tooltalk/ (`npm run conformance:tooltalk`).
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { loadConversationFolder } from "../../../../engine/benchmarks/tooltalk/evaluation/conversation-files.js";
import { groundTruthPredictor } from "../../../../engine/benchmarks/tooltalk/evaluation/ground-truth-predictor.js";
import { aggregateConversations } from "../../../../engine/benchmarks/tooltalk/evaluation/metrics.js";
import { ToolTalkPackBackend } from "../../../../engine/benchmarks/tooltalk/evaluation/pack-backend.js";
import { runConversation, type ToolTalkPredictor } from "../../../../engine/benchmarks/tooltalk/evaluation/simulation.js";
import { toolTalkConversations, toolTalkDatabases, toolTalkDataRoot } from "../../../fixtures/tooltalk-data.js";

test("the fixture reads as ToolTalk's data does: 3 easy and 2 hard conversations, 8 databases", () => {
  const easy = loadConversationFolder(join(toolTalkDataRoot(), "easy")).map((c) => c.name);
  const hard = loadConversationFolder(join(toolTalkDataRoot(), "tooltalk")).map((c) => c.name);
  assert.deepEqual(easy, ["AddAlarm-easy", "CurrentWeather-easy", "SendMessage-easy"]);
  assert.deepEqual(hard, ["AccountTools-Email-Calendar-SendEmail-0", "Alarm-Reminder-Weather-AddReminder-0"]);
  const tables = toolTalkDatabases();
  assert.equal(tables.ACCOUNT?.length, 5);
  assert.ok((tables.ALARM?.length ?? 0) >= 1 && (tables.EMAIL?.length ?? 0) >= 1, Object.keys(tables).join(", "));
});

test("oracle: the ground truth of every fixture conversation replays through the pack with precision = recall = 1", async () => {
  const results = [];
  for (const conversation of toolTalkConversations()) {
    results.push(await runConversation(conversation, new ToolTalkPackBackend(toolTalkDatabases()), groundTruthPredictor(conversation)));
  }
  const imperfect = results
    .filter((r) => r.metrics.precision !== 1 || r.metrics.recall !== 1 || !r.metrics.success)
    .map((r) => `${r.file}: precision ${r.metrics.precision}, recall ${r.metrics.recall}`);
  assert.deepEqual(imperfect, []);
  const total = aggregateConversations(results.map((r) => r.metrics));
  // AddAlarm, CurrentWeather, SendMessage; AddReminder, AddAlarm, HistoricWeather; SendEmail, LogoutUser.
  assert.equal(total.micro.ground_truths, 8);
  assert.equal(total.micro.predictions, 8);
  assert.equal(total.micro.actions, 6);
  assert.equal(total.success_rate, 1);
});

test("a wrong argument in a prediction is a miss: the oracle can fail", async () => {
  const [conversation] = toolTalkConversations().filter((c) => c.name === "AddAlarm-easy");
  assert.ok(conversation);
  const truth = groundTruthPredictor(conversation);
  const wrong: ToolTalkPredictor = {
    async predict(metadata, history) {
      const p = await truth.predict(metadata, history);
      return p.role === "api" && p.request.api_name === "AddAlarm"
        ? { ...p, request: { ...p.request, parameters: { time: "05:15:00" } } }
        : p;
    },
  };
  const result = await runConversation(conversation, new ToolTalkPackBackend(toolTalkDatabases()), wrong);
  assert.equal(result.metrics.recall, 0);
  assert.equal(result.metrics.success, false);
});
