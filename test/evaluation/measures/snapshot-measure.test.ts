import { test } from "node:test";
import assert from "node:assert/strict";
import { constraintSimilarity as similarityWith } from "../../../engine/evaluation/measures/constraint-similarity.js";
import type { ConstraintInput, MeasuredConstraint } from "../../../engine/evaluation/measures/types.js";
import { TOOLSANDBOX_SCHEMAS } from "../../../engine/packs/toolsandbox/table-schemas.js";
import { sandboxRow } from "../../../engine/evaluation/measures/sandbox-rows.js";
import type { Constraint, TargetRow } from "../../../engine/scenario/model.js";
import type { Row } from "../../../engine/world/types.js";

/** Scored as the evaluation of a ToolSandbox scenario scores it: with the table's schema from the pack. */
const constraintSimilarity = (c: MeasuredConstraint, input: ConstraintInput) =>
  similarityWith(c, { ...input, schema: TOOLSANDBOX_SCHEMAS.get(c.table) });

function snapshot(table: string, target: TargetRow[], measures: Extract<Constraint, { kind: "snapshot" }>["measures"] = {}): Constraint {
  return { kind: "snapshot", table, target, measures, reference: null };
}

const setting: Row = {
  device_id: "d1",
  cellular: true,
  wifi: true,
  location_service: true,
  low_battery_mode: false,
  latitude: 37.334,
  longitude: -122.009,
};
const homer: Row = { person_id: "p1", name: "Homer S", phone_number: "+10000000000", relationship: "friend", is_self: false };
const marge: Row = { person_id: "p2", name: "Marge S", phone_number: "+10000000001", relationship: "wife", is_self: false };

test("a matching single row scores 1 and the explanation lists each column", () => {
  const { similarity, explanation } = constraintSimilarity(snapshot("SETTING", [{ cellular: true, wifi: true }]), {
    current: [setting],
    reference: null,
  });
  assert.equal(similarity, 1);
  assert.deepEqual(explanation, {
    kind: "snapshot",
    table: "SETTING",
    similarity: 1,
    rows: "current",
    reason: null,
    pairs: [
      {
        target: 0,
        row: 0,
        similarity: 1,
        columns: [
          { column: "cellular", measure: "exact", similarity: 1 },
          { column: "wifi", measure: "exact", similarity: 1 },
        ],
      },
    ],
    weakest: null,
  });
  assert.deepEqual(JSON.parse(JSON.stringify(explanation)), explanation);
});

test("row counts must match and target columns must exist", () => {
  const count = constraintSimilarity(snapshot("CONTACT", [{ name: "Homer S" }]), { current: [homer, marge], reference: null });
  assert.equal(count.similarity, 0);
  assert.equal(count.explanation.reason, "row count differs: expected 1 row, found 2");
  const column = constraintSimilarity(snapshot("SETTING", [{ nickname: "x" }]), { current: [setting], reference: null });
  assert.equal(column.similarity, 0);
  assert.equal(column.explanation.reason, "column 'nickname' does not exist in SETTING");
});

test("rows are paired optimally and the score is the geometric mean over rows of the geometric mean over columns", () => {
  // Target listed in the other order; only the crossed pairing avoids a 0 on name.
  const target = [
    { name: "Marge S", relationship: "my wife" },
    { name: "Homer S", relationship: "friend" },
  ];
  const { similarity, explanation } = constraintSimilarity(snapshot("CONTACT", target), { current: [homer, marge], reference: null });
  // "my wife" vs "wife": ROUGE-L F = 2/3; that row's geometric mean is sqrt(2/3), the other row's 1.
  assert.ok(Math.abs(similarity - (2 / 3) ** 0.25) < 1e-12, String(similarity));
  assert.deepEqual(
    explanation.pairs.map((p) => [p.target, p.row]),
    [
      [0, 1],
      [1, 0],
    ],
  );
  assert.ok(Math.abs(explanation.pairs[0]!.similarity - Math.sqrt(2 / 3)) < 1e-12);
  assert.equal(explanation.weakest?.column, "relationship");
  assert.equal(explanation.weakest?.target, 0);
  assert.equal(explanation.weakest?.row, 1);
  assert.ok(Math.abs(explanation.weakest!.similarity - 2 / 3) < 1e-12);
});

test("when every pairing includes a zero column the score is 0 and the zero column is named", () => {
  const target: TargetRow[] = [{ name: "Homer S" }, { name: "Homer S", phone_number: "+10000000000" }];
  const { similarity, explanation } = constraintSimilarity(snapshot("CONTACT", target), { current: [homer, marge], reference: null });
  assert.equal(similarity, 0);
  assert.equal(explanation.reason, "every pairing of the rows has a column scoring 0");
  assert.equal(explanation.pairs.length, 2);
  assert.equal(explanation.weakest?.similarity, 0);
  assert.equal(explanation.weakest?.column, "name");
});

const message: Row = {
  message_id: "m1",
  sender_person_id: null,
  sender_phone_number: "+10000000009",
  recipient_person_id: "p0",
  recipient_phone_number: "+10000000000",
  content: "Are you coming tonight",
  creation_timestamp: 1700000000,
};

test("a null cell under exact match is neutral: it is left out of the row's mean (upstream quirk)", () => {
  const target = [{ sender_person_id: "p9", content: "Are you coming tonight" }];
  const neutral = constraintSimilarity(snapshot("MESSAGING", target), { current: [message], reference: null });
  assert.equal(neutral.similarity, 1);
  assert.equal(neutral.explanation.pairs[0]?.columns[0]?.similarity, null);
  assert.equal(neutral.explanation.weakest, null);
  // The same expectation against a non-null, different id is a plain 0.
  const wrong = constraintSimilarity(snapshot("MESSAGING", target), { current: [{ ...message, sender_person_id: "p8" }], reference: null });
  assert.equal(wrong.similarity, 0);
});

test("a target row with only neutral columns against some row makes the whole score 0, as upstream's solver rejects it", () => {
  const target = [{ sender_person_id: "p9" }, { sender_person_id: "p7" }];
  const other = { ...message, message_id: "m2", sender_person_id: "p7" };
  const { similarity, explanation } = constraintSimilarity(snapshot("MESSAGING", target), { current: [message, other], reference: null });
  assert.equal(similarity, 0);
  assert.equal(explanation.reason, "target row 0 has only null cells to compare with row 0, so nothing can be scored");
});

test("close measures given by the constraint replace the exact defaults", () => {
  const target = [{ latitude: 37.3349, longitude: -122.0091 }];
  const exact = constraintSimilarity(snapshot("SETTING", target), { current: [setting], reference: null });
  assert.equal(exact.similarity, 0);
  const close = constraintSimilarity(
    snapshot("SETTING", target, { latitude: { kind: "close", atol: 0.001 }, longitude: { kind: "close", atol: 0.001 } }),
    {
      current: [setting],
      reference: null,
    },
  );
  assert.equal(close.similarity, 1);
});

test("a SANDBOX target is compared with the one message at the candidate index", () => {
  const row = sandboxRow({
    sandbox_message_index: 17,
    sender: "execution_environment",
    recipient: "agent",
    content: "[{'person_id': 'p1'}]",
    visible_to: ["execution_environment", "agent"],
    conversation_active: true,
    openai_tool_call_id: "call_abc",
    openai_function_name: "tool_7f3",
    tool_call_exception: null,
    tool_trace: [{ tool_name: "search_contacts", arguments: { name: "Homer S" }, result: [] }],
  });
  const target = (tool: string): TargetRow[] => [
    {
      sender: "execution_environment",
      recipient: "agent",
      openai_function_name: "search_contacts",
      tool_trace: [{ tool_name: tool, arguments: { name: "Homer S" } }],
    },
  ];
  // The scrambled agent-facing name is ignored by default ("any").
  assert.equal(constraintSimilarity(snapshot("SANDBOX", target("search_contacts")), { current: [row], reference: null }).similarity, 1);
  const missing = constraintSimilarity(snapshot("SANDBOX", target("add_contact")), { current: [row], reference: null });
  assert.equal(missing.similarity, 0);
  assert.deepEqual(missing.explanation.pairs[0]?.columns[3], {
    column: "tool_trace",
    measure: "tool_trace",
    similarity: 0,
    note: "no trace for tool 'add_contact'",
  });
  assert.equal(missing.explanation.weakest?.column, "tool_trace");
});
