import { test } from "node:test";
import assert from "node:assert/strict";
import {
  closeSimilarity,
  columnSimilarity,
  containsSimilarity,
  exactSimilarity,
  rougeSimilarity,
} from "../../../engine/evaluation/measures/column-measures.js";
import { defaultMeasures, effectiveMeasures } from "../../../engine/evaluation/measures/default-measures.js";
import { CONTACT, MESSAGING, REMINDER, SETTING } from "../../../engine/packs/toolsandbox/table-schemas.js";
import { sandboxRow } from "../../../engine/evaluation/measures/sandbox-rows.js";
import type { Message } from "../../../engine/episode/types.js";

test("exact: equal values score 1, different values 0 with a note saying what was found", () => {
  assert.deepEqual(exactSimilarity(true, true), { similarity: 1 });
  assert.deepEqual(exactSimilarity("+10000000000", "+10000000000"), { similarity: 1 });
  assert.deepEqual(exactSimilarity(1700000000, 1700000000.0), { similarity: 1 });
  assert.deepEqual(exactSimilarity(["user", "agent"], ["user", "agent"]), { similarity: 1 });
  assert.equal(exactSimilarity(["agent", "user"], ["user", "agent"]).similarity, 0);
  assert.deepEqual(exactSimilarity("Fred", "Fredrik"), { similarity: 0, note: 'found "Fred", expected "Fredrik"' });
});

test("exact: a null cell against a non-null value is neutral (kept upstream quirk); a null expectation wants null", () => {
  const neutral = exactSimilarity(null, "friend");
  assert.equal(neutral.similarity, null);
  assert.match(neutral.note ?? "", /left out/);
  assert.deepEqual(exactSimilarity(null, null), { similarity: 1 });
  assert.deepEqual(exactSimilarity(0, null), { similarity: 0, note: "found 0, expected null" });
});

test("close: within atol scores 1, outside or null scores 0", () => {
  assert.equal(closeSimilarity(37.3349, 37.334, 0.001).similarity, 1);
  assert.equal(closeSimilarity(37.336, 37.334, 0.001).similarity, 0);
  assert.equal(closeSimilarity(37.336, 37.334, 0.001).note, "found 37.336, expected 37.334 ± 0.001");
  assert.equal(closeSimilarity(null, 37.334, 0.001).similarity, 0);
  assert.equal(closeSimilarity(5, 4, Infinity).similarity, 1);
  assert.equal(closeSimilarity(null, null, 0.001).similarity, 1);
});

test("contains: case-sensitive literal substring; a null cell is neutral like exact", () => {
  assert.equal(containsSimilarity("search_lat_lon(latitude=1.0)", "search_lat_lon").similarity, 1);
  assert.equal(containsSimilarity("Search_Lat_Lon()", "search_lat_lon").similarity, 0);
  // A literal, not a pattern: "." only matches a dot.
  assert.equal(containsSimilarity("axb", "a.b").similarity, 0);
  assert.equal(containsSimilarity("a.b", "a.b").similarity, 1);
  assert.equal(containsSimilarity(null, "x").similarity, null);
});

test("rouge_l: the expected value is the target and the cell the prediction", () => {
  // target [hello, world], prediction [hello, there, world]: P = 2/3, R = 1, F = 0.8.
  assert.equal(rougeSimilarity("hello there world", "hello world").similarity, 0.8);
  // prediction [hello], target [hello, world]: P = 1, R = 1/2, F = 2/3.
  assert.equal(rougeSimilarity("hello", "hello world").similarity, 2 / 3);
  assert.equal(rougeSimilarity("Hello, WORLD!", "hello world").similarity, 1);
  assert.equal(rougeSimilarity(null, "hello").similarity, 0);
});

test("any scores 1 whatever the cell holds", () => {
  assert.deepEqual(columnSimilarity({ kind: "any" }, null, "x"), { similarity: 1 });
  assert.deepEqual(columnSimilarity({ kind: "any" }, "call_9", "call_1"), { similarity: 1 });
});

test("default measures follow upstream per table and a constraint's own measures win", () => {
  assert.deepEqual(defaultMeasures("SANDBOX").content, { kind: "rouge_l" });
  assert.deepEqual(defaultMeasures("SANDBOX").openai_function_name, { kind: "any" });
  assert.deepEqual(defaultMeasures("SANDBOX").tool_call_exception, { kind: "any" });
  assert.deepEqual(defaultMeasures("SANDBOX").tool_trace, { kind: "tool_trace" });
  assert.deepEqual(defaultMeasures("SANDBOX").visible_to, { kind: "exact" });
  assert.deepEqual(defaultMeasures("CONTACT", CONTACT).relationship, { kind: "rouge_l" });
  assert.deepEqual(defaultMeasures("CONTACT", CONTACT).name, { kind: "exact" });
  assert.deepEqual(defaultMeasures("MESSAGING", MESSAGING).content, { kind: "rouge_l" });
  assert.deepEqual(defaultMeasures("REMINDER", REMINDER).content, { kind: "rouge_l" });
  assert.deepEqual(defaultMeasures("SETTING", SETTING).latitude, { kind: "exact" });
  const merged = effectiveMeasures("SANDBOX", { content: { kind: "contains" } });
  assert.deepEqual(merged.content, { kind: "contains" });
  assert.deepEqual(merged.sender, { kind: "exact" });
});

function message(overrides: Partial<Message>): Message {
  return {
    sandbox_message_index: 16,
    sender: "execution_environment",
    recipient: "agent",
    content: "[]",
    visible_to: ["execution_environment", "agent"],
    conversation_active: true,
    openai_tool_call_id: "call_1",
    openai_function_name: "search_contacts",
    tool_call_exception: null,
    tool_trace: [{ tool_name: "search_contacts", arguments: { name: "Fredrik" }, result: [] }],
    ...overrides,
  };
}

test("a message becomes a SANDBOX row with every upstream column", () => {
  const row = sandboxRow(message({}));
  assert.deepEqual(Object.keys(row).sort(), [
    "content",
    "conversation_active",
    "openai_function_name",
    "openai_tool_call_id",
    "recipient",
    "sandbox_message_index",
    "sender",
    "tool_call_exception",
    "tool_trace",
    "visible_to",
  ]);
  assert.equal(row.sandbox_message_index, 16);
  assert.deepEqual(row.visible_to, ["execution_environment", "agent"]);
  assert.deepEqual(row.tool_trace, [{ tool_name: "search_contacts", arguments: { name: "Fredrik" }, result: [] }]);
});

test("scripted rows with the default visibility read as null visible_to, like upstream's stored rows", () => {
  const opening = sandboxRow(
    message({ sender: "user", recipient: "agent", visible_to: ["user", "agent"], scripted: true, tool_trace: null }),
  );
  assert.equal(opening.visible_to, null);
  const demo = sandboxRow(message({ sender: "user", recipient: "agent", visible_to: ["user"], scripted: true }));
  assert.deepEqual(demo.visible_to, ["user"]);
});
