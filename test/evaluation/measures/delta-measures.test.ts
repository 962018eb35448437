import { test } from "node:test";
import assert from "node:assert/strict";
import { constraintSimilarity as similarityWith } from "../../../engine/evaluation/measures/constraint-similarity.js";
import type { ConstraintInput, MeasuredConstraint } from "../../../engine/evaluation/measures/types.js";
import { TOOLSANDBOX_SCHEMAS } from "../../../engine/packs/toolsandbox/table-schemas.js";
import type { Constraint, TargetRow } from "../../../engine/scenario/model.js";
import type { Row } from "../../../engine/world/types.js";

/** Scored as the evaluation of a ToolSandbox scenario scores it: with the table's schema from the pack. */
const constraintSimilarity = (c: MeasuredConstraint, input: ConstraintInput) =>
  similarityWith(c, { ...input, schema: TOOLSANDBOX_SCHEMAS.get(c.table) });

function delta(kind: "addition" | "removal" | "update", target: TargetRow[]): Constraint {
  return { kind, table: "REMINDER", target, measures: {}, reference: { kind: "initial" } };
}

const milk: Row = {
  reminder_id: "r1",
  content: "Buy milk",
  creation_timestamp: 100,
  reminder_timestamp: 200,
  latitude: null,
  longitude: null,
};
const mom: Row = {
  reminder_id: "r2",
  content: "Call mom",
  creation_timestamp: 150,
  reminder_timestamp: 300,
  latitude: 37.3,
  longitude: -122.0,
};

test("addition: the reference must be contained and the new rows match the target", () => {
  const { similarity, explanation } = constraintSimilarity(delta("addition", [{ content: "call Mom", reminder_timestamp: 300 }]), {
    current: [milk, mom],
    reference: [milk],
  });
  assert.equal(similarity, 1);
  assert.equal(explanation.rows, "current");
  assert.deepEqual(
    explanation.pairs.map((p) => [p.target, p.row]),
    [[0, 1]],
  );
});

test("addition: no new row, or a changed reference row, scores 0 with the reason", () => {
  const none = constraintSimilarity(delta("addition", [{ content: "Call mom" }]), { current: [milk], reference: [milk] });
  assert.equal(none.similarity, 0);
  assert.equal(none.explanation.reason, "row count differs: expected 1 new row, found 0");
  const changed = constraintSimilarity(delta("addition", [{ content: "Call mom" }]), {
    current: [{ ...milk, content: "Buy oat milk" }, mom],
    reference: [milk],
  });
  assert.equal(changed.similarity, 0);
  assert.equal(
    changed.explanation.reason,
    "reference not contained in snapshot: the join on all columns found 0 rows, the reference has 1",
  );
});

test("addition: duplicate rows inflate the inner-join count and break containment (upstream semantics)", () => {
  const duplicated = constraintSimilarity(delta("addition", [{ content: "Call mom" }]), { current: [milk, milk, mom], reference: [milk] });
  assert.equal(duplicated.similarity, 0);
  assert.equal(
    duplicated.explanation.reason,
    "reference not contained in snapshot: the join on all columns found 2 rows, the reference has 1",
  );
  // Two equal reference rows each join both equal current rows: 4 joined rows for 2.
  const both = constraintSimilarity(delta("addition", [{ content: "Call mom" }]), { current: [milk, milk, mom], reference: [milk, milk] });
  assert.equal(both.similarity, 0);
  assert.match(both.explanation.reason ?? "", /found 4 rows, the reference has 2/);
});

test("null equals the column's zero value inside addition: in joins and in the target", () => {
  // latitude null at the reference and 0.0 now is the same row.
  const zeroed = { ...milk, latitude: 0, longitude: 0 };
  const atOrigin = { ...mom, latitude: 0, longitude: 0 };
  const result = constraintSimilarity(delta("addition", [{ content: "Call mom", latitude: null }]), {
    current: [zeroed, atOrigin],
    reference: [milk],
  });
  assert.equal(result.similarity, 1);
  assert.deepEqual(result.explanation.pairs[0]?.columns[1], { column: "latitude", measure: "exact", similarity: 1 });
  // Outside addition/removal/update a null target still wants a null cell.
  const plain = constraintSimilarity(
    { kind: "snapshot", table: "REMINDER", target: [{ content: "Call mom", latitude: null }], measures: {}, reference: null },
    { current: [atOrigin], reference: null },
  );
  assert.equal(plain.similarity, 0);
});

test("rows are matched on every column, timestamps included", () => {
  const copy = { ...milk, reminder_id: "r3", creation_timestamp: 500 };
  const added = constraintSimilarity(delta("addition", [{ reminder_id: "r3", content: "Buy milk" }]), {
    current: [milk, copy],
    reference: [milk],
  });
  assert.equal(added.similarity, 1);
  const touched = constraintSimilarity(delta("addition", [{ content: "Call mom" }]), {
    current: [{ ...milk, creation_timestamp: 101 }, mom],
    reference: [milk],
  });
  assert.equal(touched.similarity, 0);
  assert.match(touched.explanation.reason ?? "", /^reference not contained in snapshot/);
});

test("removal: the current rows must all be in the reference and the removed ones match the target", () => {
  const removed = constraintSimilarity(delta("removal", [{ reminder_id: "r2" }]), { current: [milk], reference: [milk, mom] });
  assert.equal(removed.similarity, 1);
  assert.equal(removed.explanation.rows, "reference");
  assert.equal(removed.explanation.pairs[0]?.row, 1);
  const extra = constraintSimilarity(delta("removal", [{ reminder_id: "r2" }]), {
    current: [milk, { ...mom, reminder_id: "r3" }],
    reference: [milk, mom],
  });
  assert.equal(extra.similarity, 0);
  assert.equal(extra.explanation.reason, "snapshot not contained in reference: the join on all columns found 1 row, the snapshot has 2");
});

test("update: equal row counts, and the changed rows (full rows) match the target", () => {
  // modify_reminder re-appends the row, so the changed row is now last.
  const updated = { ...milk, content: "Buy oat milk", creation_timestamp: 400 };
  const result = constraintSimilarity(delta("update", [{ reminder_id: "r1", content: "Buy oat milk" }]), {
    current: [mom, updated],
    reference: [milk, mom],
  });
  assert.equal(result.similarity, 1);
  assert.equal(result.explanation.pairs[0]?.row, 1);
  const grown = constraintSimilarity(delta("update", [{ reminder_id: "r1" }]), { current: [milk, mom], reference: [milk] });
  assert.equal(grown.similarity, 0);
  assert.equal(grown.explanation.reason, "row count differs: the reference has 1 row, the snapshot 2; an update keeps the count");
});

test("update: a no-op leaves no changed row and scores 0", () => {
  const noop = constraintSimilarity(delta("update", [{ reminder_id: "r1", content: "Buy milk" }]), {
    current: [mom, milk],
    reference: [milk, mom],
  });
  assert.equal(noop.similarity, 0);
  assert.equal(noop.explanation.reason, "row count differs: expected 1 changed row, found 0");
});

test("a delta measure without a reference state scores 0", () => {
  const result = constraintSimilarity(delta("addition", [{ content: "Call mom" }]), { current: [milk, mom], reference: null });
  assert.equal(result.similarity, 0);
  assert.equal(result.explanation.reason, "no reference state of REMINDER to compare with");
});
