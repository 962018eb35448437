// Issue 26, item 6, below the browser: the state and figure each milestone and minefield is drawn
// with (client/webview/view/node-state.ts), and a run whose agent has not acted past the setup's
// demonstration chat has no score yet in the runs view and `report`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { runRecordOf } from "../../engine/runs/run-record.js";
import { NODE_SYMBOLS, nodeFigure, nodeState } from "../../client/webview/view/node-state.js";

test("a partly matched milestone is partial (◐ 0.45), a stepped-on minefield says hit, never 1.00", () => {
  assert.deepEqual(
    [nodeState("milestone", true, 0.45), NODE_SYMBOLS.partial, nodeFigure("milestone", true, 0.45)],
    ["partial", "◐", "0.45"],
  );
  assert.deepEqual([nodeState("milestone", true, 0.99999999), NODE_SYMBOLS.hit], ["hit", "✓"]);
  assert.equal(nodeState("milestone", false, 0.3), "miss");
  assert.deepEqual([nodeState("minefield", true, 1), NODE_SYMBOLS.stepped, nodeFigure("minefield", true, 1)], ["stepped", "✗", "hit"]);
  assert.deepEqual([nodeState("minefield", false, 0), nodeFigure("minefield", false, 0)], ["avoided", ""]);
});

test("a run cut after the setup's demonstration chat (its agent lines scripted) has no score yet", () => {
  const lines = readFileSync(
    "sample-scenarios/trajectories/send_message_with_contact_content_cellular_off_adapted.trajectory.jsonl",
    "utf8",
  )
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { type: string; message?: { sender: string; scripted?: boolean; sandbox_message_index: number } });
  const firstAct = lines.find((l) => l.type === "message" && l.message?.sender === "agent" && l.message.scripted !== true)!.message!;
  const demonstrations = lines.filter((l) => l.type === "message" && l.message?.sender === "agent" && l.message.scripted === true);
  assert.ok(demonstrations.length > 0, "the sample's setup has the agent's demonstration messages");
  const kept = lines.filter(
    (l) => l.type === "header" || (l.type === "message" && l.message!.sandbox_message_index < firstAct.sandbox_message_index),
  );
  const evaluation = lines.find((l) => l.type === "evaluation")!;
  const text = [...kept, { type: "end", reason: "end_conversation", message_count: firstAct.sandbox_message_index }, evaluation]
    .map((l) => JSON.stringify(l))
    .join("\n");
  const record = runRecordOf(text, "setup-only.trajectory.jsonl", ".", 0);
  assert.deepEqual([record.status, record.score, record.error], ["unscored", null, "the agent never acted"]);
});
