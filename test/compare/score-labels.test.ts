// Issue 26, item 6, below the browser: the state and figure each milestone and minefield is drawn
// with (client/webview/view/node-state.ts), and a run whose agent has not acted past the setup's
// demonstration chat has no score yet in the runs view and `report`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { runRecordOf } from "../../engine/reports/run-record.js";
import { comparisonHtml } from "../../engine/compare/compare-html.js";
import { compareRuns, savedRun } from "../../engine/compare/compare-runs.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";
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

test("compare's card of a run that ended in model_error says errored, not its recorded score", () => {
  const file = "sample-scenarios/trajectories/find_temperature_adapted.trajectory.jsonl";
  const text = readFileSync(file, "utf8");
  const errored = text
    .split("\n")
    .map((l) => (l.includes('"type":"end"') ? JSON.stringify({ ...JSON.parse(l), reason: "model_error", detail: "HTTP 500" }) : l))
    .join("\n");
  const html = comparisonHtml(
    compareRuns(savedRun("a", parseTrajectory(text, file)), savedRun("b", parseTrajectory(errored, "b.trajectory.jsonl"))),
  );
  const cardA = html.slice(html.indexOf('<div class="side" data-side="A">'), html.indexOf('<div class="side" data-side="B">'));
  const cardB = html.slice(html.indexOf('<div class="side" data-side="B">'), html.indexOf('data-testid="divergence"'));
  assert.match(cardA, /<b data-testid="side-score">score 1\.00<\/b>/);
  assert.match(cardB, /<b class="errored" data-testid="side-score">errored: not scored<\/b>/);
  assert.doesNotMatch(cardB, /score 1\.00/);
});
