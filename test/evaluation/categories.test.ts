import { test } from "node:test";
import assert from "node:assert/strict";
import { aggregateByCategory, countedCategories } from "../../engine/evaluation/categories.js";

test("each scenario counts in every one of its tags and in ALL_CATEGORIES; scenario categories come before augmentations", () => {
  const rows = aggregateByCategory([
    { categories: ["STATE_DEPENDENCY", "SINGLE_USER_TURN", "NO_DISTRACTION_TOOLS"], score: 1, turn_count: 6 },
    { categories: ["SINGLE_USER_TURN", "TEN_DISTRACTION_TOOLS"], score: 0.5, turn_count: 10 },
    { categories: [], score: 0, turn_count: 2 },
  ]);
  assert.deepEqual(
    rows.map((r) => [r.category, r.group, r.scenarios, r.score, r.turn_count]),
    [
      ["SINGLE_USER_TURN", "scenario", 2, 0.75, 8],
      ["STATE_DEPENDENCY", "scenario", 1, 1, 6],
      ["NO_DISTRACTION_TOOLS", "augmentation", 1, 1, 6],
      ["TEN_DISTRACTION_TOOLS", "augmentation", 1, 0.5, 10],
      ["ALL_CATEGORIES", "all", 3, 0.5, 6],
    ],
  );
});

test("a scrambled variant is not counted under THREE_DISTRACTION_TOOLS (upstream avoids counting it twice)", () => {
  assert.deepEqual(countedCategories(["SINGLE_TOOL_CALL", "THREE_DISTRACTION_TOOLS", "TOOL_NAME_SCRAMBLED"]), [
    "SINGLE_TOOL_CALL",
    "TOOL_NAME_SCRAMBLED",
  ]);
  assert.deepEqual(countedCategories(["THREE_DISTRACTION_TOOLS"]), ["THREE_DISTRACTION_TOOLS"]);
  const rows = aggregateByCategory([
    { categories: ["THREE_DISTRACTION_TOOLS"], score: 1, turn_count: 4 },
    { categories: ["THREE_DISTRACTION_TOOLS", "ARG_TYPE_SCRAMBLED"], score: 0, turn_count: 8 },
  ]);
  assert.deepEqual(
    rows.map((r) => [r.category, r.scenarios, r.score]),
    [
      ["THREE_DISTRACTION_TOOLS", 1, 1],
      ["ARG_TYPE_SCRAMBLED", 1, 0],
      ["ALL_CATEGORIES", 2, 0.5],
    ],
  );
});

test("no scenarios, no rows", () => {
  assert.deepEqual(aggregateByCategory([]), []);
});
