// ToolTalk's own oracle test (tests/test_oracle.py), against the ToolTalk pack: replaying each
// conversation's ground truth through the real tools must give precision = recall = 1 and success.
// The pack backend's own rules, on our fixture's rows: test/benchmarks/tooltalk/evaluation/pack-backend.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConversationFolder } from "../../../../engine/benchmarks/tooltalk/evaluation/conversation-files.js";
import { groundTruthPredictor } from "../../../../engine/benchmarks/tooltalk/evaluation/ground-truth-predictor.js";
import { aggregateConversations } from "../../../../engine/benchmarks/tooltalk/evaluation/metrics.js";
import { ToolTalkPackBackend } from "../../../../engine/benchmarks/tooltalk/evaluation/pack-backend.js";
import { runConversation, type ToolTalkConversationResult } from "../../../../engine/benchmarks/tooltalk/evaluation/simulation.js";
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
