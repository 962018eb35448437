// One state per milestone and minefield, and the words every surface uses for it: a partial match
// never reads as a check mark, and what fails its test never reads as matched.
import { test } from "node:test";
import assert from "node:assert/strict";
import { nodeState, nodeStateWords } from "../../engine/evaluation/node-state.js";

test("a milestone is matched, partly matched with its similarity, or missed", () => {
  assert.deepEqual(nodeStateWords("milestone", { matched_at: 7, similarity: 1 }), {
    state: "matched",
    passes: true,
    phrase: "matched at message 7 (similarity 1.00)",
    line: "✓ matched at message 7 · similarity 1.00",
    badge: "✓ 1.00",
  });
  const partial = nodeStateWords("milestone", { matched_at: 7, similarity: 0.85 });
  assert.deepEqual(partial, {
    state: "partial",
    passes: false,
    phrase: "partly matched at message 7 (similarity 0.85)",
    line: "◐ partly matched at message 7 · similarity 0.85",
    badge: "◐ 0.85",
  });
  // Nothing that fails its test reads as a check mark.
  assert.doesNotMatch(`${partial.line} ${partial.badge}`, /✓/);
  assert.deepEqual(nodeStateWords("milestone", { matched_at: null, similarity: 0 }), {
    state: "missed",
    passes: false,
    phrase: "missed (best similarity 0.00)",
    line: "✗ missed · best similarity 0.00",
    badge: "✗ missed",
  });
});

test("a similarity a rounding error below 1 is a full match; 0.995 is partial and reads 0.99, not 1.00", () => {
  assert.equal(nodeState("milestone", { matched_at: 3, similarity: 0.9999999 }), "matched");
  assert.equal(nodeState("milestone", { matched_at: 3, similarity: 0.995 }), "partial");
  assert.equal(nodeStateWords("milestone", { matched_at: 3, similarity: 0.995 }).badge, "◐ 0.99");
});

test("a minefield is hit at its message or not hit; only not hit passes", () => {
  assert.deepEqual(nodeStateWords("minefield", { matched_at: 4, similarity: 1 }), {
    state: "hit",
    passes: false,
    phrase: "hit at message 4",
    line: "⚠ hit at message 4",
    badge: "⚠ hit",
  });
  assert.equal(nodeStateWords("minefield", { matched_at: null, similarity: 0 }).passes, true);
  assert.equal(nodeStateWords("minefield", { matched_at: null, similarity: 0 }).line, "✓ not hit");
});
