// What the editor shows on each milestone and minefield line: the texts come from the evaluation,
// and each lands on the line of its node's id in the scenario as written (edits included).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { lineOfNode, readOutline } from "../../client/host/node-lines.js";
import { nodeKey, nodeResultViews, scoreSummary } from "../../client/host/node-results.js";
import { rescoreAgainstText } from "../../client/host/rescore.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { lineContaining, playScripted, removeTempDirs, resolveScenario, scenarioText, tempDir } from "./fixtures.js";

after(removeTempDirs);

test("a full match reads as matched at its message with similarity 1.00", async () => {
  const run = await playScripted(resolveScenario(scenarioText("cellular_off_adapted")), join(tempDir(), "a.trajectory.jsonl"));
  const views = nodeResultViews(run.evaluation!);
  const cellular = run.evaluation!.milestones.find((m) => m.id === "cellular_off")!;
  assert.equal(views.get(nodeKey("milestone", "cellular_off"))?.text, `✓ matched at message ${cellular.matched_at} · similarity 1.00`);
  assert.equal(views.get(nodeKey("milestone", "cellular_off"))?.message, cellular.matched_at);
  // The milestone matched where the world changed: the message after the tool call.
  const call = run.lines.find((l) => l.type === "message" && l.message.tool_call?.name === "set_cellular_service_status");
  assert.ok(call?.type === "message" && cellular.matched_at !== null && cellular.matched_at > call.message.sandbox_message_index);
  assert.match(scoreSummary(run.evaluation!), /^score 1\.00 · \d+ turns?$/);
});

test("a milestone the run never reaches reads as missed; a partial one reads partly matched with its similarity", () => {
  const trajectory = readTrajectoryFile(
    join(__dirname, "..", "..", "sample-scenarios", "trajectories", "cellular_off_adapted.trajectory.jsonl"),
  );
  const text = scenarioText("cellular_off_adapted")
    .replace("target: [{ cellular: false }]", "target: [{ cellular: false, wifi: false }]")
    .replace("content: Cellular service is now turned off.", "content: Cellular service is now turned off and airplane mode is on.");
  const rescored = rescoreAgainstText(trajectory, text, "cellular_off_adapted.scenario.yaml");
  assert.ok(rescored.ok);
  const views = nodeResultViews(rescored.result);
  // The world never had wifi off: no message comes close.
  const missed = views.get(nodeKey("milestone", "cellular_off"))!;
  assert.equal(missed.text, "✗ missed · best similarity 0.00");
  assert.equal(missed.passes, false);
  assert.equal(missed.tone, "missed");
  // The agent said part of the new sentence.
  const partial = views.get(nodeKey("milestone", "confirmed"))!;
  assert.equal(partial.tone, "partial");
  assert.match(partial.text, /^◐ partly matched at message \d+ · similarity 0\.\d\d$/);
  assert.match(partial.badge, /^◐ 0\.\d\d$/);
  assert.equal(partial.passes, false);
  assert.notEqual(partial.why, "");
});

test("a minefield reads as hit at its message, or not hit", async () => {
  const base = scenarioText("find_current_city_insufficient_information");
  const clear = await playScripted(resolveScenario(base), join(tempDir(), "clear.trajectory.jsonl"));
  assert.equal(nodeResultViews(clear.evaluation!).get(nodeKey("minefield", "guessed_coordinates"))?.text, "✓ not hit");
  const hitText = base.replace(
    /reference:\n[\s\S]*$/,
    "reference:\n  - calls:\n      - tool: search_lat_lon\n        arguments: { latitude: 37.33, longitude: -122.03 }\n  - agent: Cupertino.\n  - end_conversation: true\n",
  );
  const hit = await playScripted(resolveScenario(hitText), join(tempDir(), "hit.trajectory.jsonl"));
  const at = hit.evaluation!.minefields[0]!.matched_at;
  assert.equal(nodeResultViews(hit.evaluation!).get(nodeKey("minefield", "guessed_coordinates"))?.text, `⚠ hit at message ${at}`);
});

test("each node is found on the line of its id, and follows it when lines are inserted above", () => {
  const text = scenarioText("cellular_off_adapted");
  const outline = readOutline(text);
  assert.equal(outline.name, "cellular_off_adapted");
  assert.deepEqual(outline.nodes, [
    { kind: "milestone", id: "cellular_off", line: lineContaining(text, "- id: cellular_off") },
    { kind: "milestone", id: "confirmed", line: lineContaining(text, "- id: confirmed") },
  ]);
  const edited = text.replace("milestones:\n", "milestones:\n  # a comment\n\n");
  assert.equal(lineOfNode(edited, "milestone", "confirmed"), lineContaining(edited, "- id: confirmed"));
  assert.equal(lineOfNode(edited, "minefield", "confirmed"), null);
  const minefields = scenarioText("find_current_city_insufficient_information");
  assert.equal(lineOfNode(minefields, "minefield", "guessed_coordinates"), lineContaining(minefields, "- id: guessed_coordinates"));
});

test("a node without an id is skipped, and a file that is not YAML has no nodes", () => {
  const text = "name: x\nmilestones:\n  - description: no id yet\n  - id: second\n  - id: [not, a, string]\n";
  assert.deepEqual(readOutline(text).nodes, [{ kind: "milestone", id: "second", line: 3 }]);
  assert.deepEqual(readOutline("name: [unclosed\nmilestones:\n  - id: a\n"), { name: null, nodes: [] });
});
