// List cells (ToolTalk's attendees and receivers): exact compares item by item, contains asks for
// every expected item, and a pack's free-text columns default to ROUGE-L while lists stay exact.
import { test } from "node:test";
import assert from "node:assert/strict";
import { columnSimilarity } from "../../../engine/evaluation/measures/column-measures.js";
import { constraintSimilarity } from "../../../engine/evaluation/measures/constraint-similarity.js";
import { defaultMeasures } from "../../../engine/evaluation/measures/default-measures.js";
import { packTables } from "../../../engine/packs/tables.js";
import type { Constraint } from "../../../engine/scenario/model.js";
import type { Row } from "../../../engine/world/types.js";

const CALENDAR = packTables("tooltalk").schemas.get("CALENDAR")!;

test("exact on a list cell: equal items in the same order", () => {
  assert.deepEqual(columnSimilarity({ kind: "exact" }, ["ann", "bob"], ["ann", "bob"]), { similarity: 1 });
  const swapped = columnSimilarity({ kind: "exact" }, ["bob", "ann"], ["ann", "bob"]);
  assert.equal(swapped.similarity, 0);
  assert.equal(swapped.note, 'found ["bob","ann"], expected ["ann","bob"]');
});

test("contains on a list cell: every expected item is held, in any order", () => {
  assert.deepEqual(columnSimilarity({ kind: "contains" }, ["carl", "bob", "ann"], ["ann", "bob"]), { similarity: 1 });
  const missing = columnSimilarity({ kind: "contains" }, ["ann"], ["ann", "bob"]);
  assert.deepEqual(missing, { similarity: 0, note: '["ann"] does not hold "bob"' });
  assert.equal(columnSimilarity({ kind: "contains" }, "ann, bob", ["ann"]).similarity, 0);
});

test("a pack's free-text columns default to rouge_l; its list and other columns to exact", () => {
  const measures = defaultMeasures("CALENDAR", CALENDAR);
  assert.deepEqual(measures.name, { kind: "rouge_l" });
  assert.deepEqual(measures.description, { kind: "rouge_l" });
  assert.deepEqual(measures.attendees, { kind: "exact" });
  assert.deepEqual(measures.event_type, { kind: "exact" });
});

test("an addition on a table with a list column: the new row is found and its list compared", () => {
  const lunch: Row = {
    username: "ann",
    event_id: "e1",
    name: "Lunch",
    event_type: "event",
    start_time: "2023-09-12 12:00:00",
    end_time: "2023-09-12 13:00:00",
    location: null,
    description: null,
    attendees: null,
  };
  const meeting: Row = { ...lunch, event_id: "e2", name: "Planning", event_type: "meeting", attendees: ["ann", "bob"] };
  const addition = (attendees: readonly string[]): Constraint => ({
    kind: "addition",
    table: "CALENDAR",
    target: [{ name: "Planning", attendees }],
    measures: {},
    reference: { kind: "initial" },
  });
  const input = { current: [lunch, meeting], reference: [lunch], schema: CALENDAR };
  assert.equal(constraintSimilarity(addition(["ann", "bob"]), input).similarity, 1);
  const wrong = constraintSimilarity(addition(["ann"]), input);
  assert.equal(wrong.similarity, 0);
  assert.equal(wrong.explanation.weakest?.column, "attendees");
});
