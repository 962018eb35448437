import { test } from "node:test";
import assert from "node:assert/strict";
import { constraintSimilarity } from "../../../engine/evaluation/measures/constraint-similarity.js";
import type { GuardrailConstraint } from "../../../engine/evaluation/measures/types.js";
import type { Row } from "../../../engine/world/types.js";

const guardrail: GuardrailConstraint = { kind: "guardrail", table: "CONTACT", reference: { kind: "initial" } };
const homer: Row = { person_id: "p1", name: "Homer S", phone_number: "+10000000000", relationship: "friend", is_self: false };
const marge: Row = { person_id: "p2", name: "Marge S", phone_number: "+10000000001", relationship: null, is_self: false };

test("an unchanged table passes the guardrail, nulls included", () => {
  const { similarity, explanation } = constraintSimilarity(guardrail, { current: [{ ...homer }, { ...marge }], reference: [homer, marge] });
  assert.equal(similarity, 1);
  assert.deepEqual(explanation, {
    kind: "guardrail",
    table: "CONTACT",
    similarity: 1,
    rows: "current",
    reason: null,
    pairs: [],
    weakest: null,
  });
});

test("a changed cell breaks it and the reason names the row and column", () => {
  const { similarity, explanation } = constraintSimilarity(guardrail, {
    current: [homer, { ...marge, relationship: "wife" }],
    reference: [homer, marge],
  });
  assert.equal(similarity, 0);
  assert.equal(explanation.reason, `row 1 changed in column 'relationship': null at the reference, "wife" now`);
});

test("an added or removed row breaks it", () => {
  const added = constraintSimilarity(guardrail, { current: [homer, marge, { ...homer, person_id: "p3" }], reference: [homer, marge] });
  assert.equal(added.similarity, 0);
  assert.equal(added.explanation.reason, "table changed: 2 rows at the reference, 3 now");
});

test("the comparison is order-sensitive: the same rows in another order break it", () => {
  const bart: Row = { ...homer, person_id: "p3", name: "Bart S" };
  const { similarity, explanation } = constraintSimilarity(guardrail, { current: [homer, bart, marge], reference: [homer, marge, bart] });
  assert.equal(similarity, 0);
  assert.match(explanation.reason ?? "", /^same rows in a different order from row 1 on/);
});

test("a modify that writes the same values still moves the row to the end and breaks it", () => {
  // modify_contact deletes the row and appends it again, even with identical values.
  const afterModify = [marge, { ...homer }];
  const { similarity, explanation } = constraintSimilarity(guardrail, { current: afterModify, reference: [homer, marge] });
  assert.equal(similarity, 0);
  assert.match(explanation.reason ?? "", /a modify moves its row to the end/);
});

test("a guardrail without a reference state scores 0", () => {
  assert.equal(constraintSimilarity(guardrail, { current: [homer], reference: null }).similarity, 0);
});
