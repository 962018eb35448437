import { test } from "node:test";
import assert from "node:assert/strict";
import { toolTraceSimilarity } from "../../../engine/evaluation/measures/tool-trace-measure.js";
import type { ToolTrace } from "../../../engine/episode/types.js";
import type { GoldenTrace } from "../../../engine/scenario/model.js";

const trace = (tool_name: string, args: ToolTrace["arguments"], result: ToolTrace["result"] = null): ToolTrace => ({
  tool_name,
  arguments: args,
  result,
});
const golden = (tool_name: string, args: GoldenTrace["arguments"]): GoldenTrace => ({ tool_name, arguments: args });

test("a trace matching the golden tool and arguments scores 1; the result is ignored", () => {
  const cell = [trace("search_contacts", { name: "Fredrik Thordendal" }, [{ person_id: "x" }])];
  assert.deepEqual(toolTraceSimilarity(cell, [golden("search_contacts", { name: "Fredrik Thordendal" })], undefined), { similarity: 1 });
});

test("extra actual arguments are ignored, and empty golden arguments accept any call of that tool", () => {
  const cell = [trace("search_contacts", { name: "Fredrik", phone_number: null, relationship: null })];
  assert.equal(toolTraceSimilarity(cell, [golden("search_contacts", { name: "Fredrik" })], undefined).similarity, 1);
  assert.equal(toolTraceSimilarity(cell, [golden("search_contacts", {})], undefined).similarity, 1);
  assert.deepEqual(toolTraceSimilarity(cell, [golden("modify_reminder", {})], undefined), {
    similarity: 0,
    note: "no trace for tool 'modify_reminder'",
  });
});

test("a golden argument the call did not give never matches, even when golden expects null", () => {
  const cell = [trace("search_reminder", { content: "milk" })];
  assert.deepEqual(toolTraceSimilarity(cell, [golden("search_reminder", { content: "milk", latitude: null })], undefined), {
    similarity: 0,
    note: "search_reminder: argument 'latitude' was not given",
  });
  // Traces carry bound defaults, so an explicit null in the call matches.
  const withDefault = [trace("search_reminder", { content: "milk", latitude: null })];
  assert.equal(toolTraceSimilarity(withDefault, [golden("search_reminder", { content: "milk", latitude: null })], undefined).similarity, 1);
});

test("any trace matching any golden alternative is enough", () => {
  const cell = [trace("get_current_timestamp", {}), trace("search_holiday", { holiday_name: "Christmas Day", year: 2024 })];
  const alternatives = [
    golden("search_holiday", { holiday_name: "Christmas Day", year: null }),
    golden("search_holiday", { holiday_name: "Christmas Day", year: 2024 }),
  ];
  assert.equal(toolTraceSimilarity(cell, alternatives, undefined).similarity, 1);
  assert.deepEqual(toolTraceSimilarity(cell, [alternatives[0]!], undefined), {
    similarity: 0,
    note: "search_holiday: argument 'year' is 2024, expected null",
  });
});

test("atol applies per argument when both values are numbers; otherwise equality", () => {
  const cell = [trace("shift_timestamp", { timestamp: 1700000000.4, days: 1 })];
  const target = [golden("shift_timestamp", { timestamp: 1700000000, days: 1 })];
  assert.equal(toolTraceSimilarity(cell, target, undefined).similarity, 0);
  assert.equal(toolTraceSimilarity(cell, target, { timestamp: 1 }).similarity, 1);
  assert.deepEqual(toolTraceSimilarity(cell, target, { timestamp: 0.1 }), {
    similarity: 0,
    note: "shift_timestamp: argument 'timestamp' is 1700000000.4, expected 1700000000 ± 0.1",
  });
  // atol = Infinity: "any number given".
  assert.equal(toolTraceSimilarity(cell, [golden("shift_timestamp", { days: 99 })], { days: Infinity }).similarity, 1);
  // A string argument with an atol still compares by equality.
  const text = [trace("unit_conversion", { amount: "12" })];
  assert.equal(toolTraceSimilarity(text, [golden("unit_conversion", { amount: 12 })], { amount: 1 }).similarity, 0);
});

test("numbers compare like Python: 1 == 1.0 and True == 1", () => {
  assert.equal(toolTraceSimilarity([trace("t", { a: 1, b: true })], [golden("t", { a: 1.0, b: 1 })], undefined).similarity, 1);
});

test("a message without traces scores 0", () => {
  assert.deepEqual(toolTraceSimilarity(null, [golden("search_contacts", {})], undefined), {
    similarity: 0,
    note: "no tool trace on this message",
  });
  assert.deepEqual(toolTraceSimilarity([], [golden("search_contacts", {})], undefined), {
    similarity: 0,
    note: "no tool trace on this message",
  });
});

test("with several golden tools, the note names each missing tool", () => {
  const cell = [trace("get_wifi_status", {})];
  assert.equal(
    toolTraceSimilarity(cell, [golden("set_wifi_status", { on: true }), golden("set_cellular_service_status", { on: true })], undefined)
      .note,
    "no trace for tool 'set_wifi_status' or 'set_cellular_service_status'",
  );
});
