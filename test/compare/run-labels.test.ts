// The compare view's cards name two runs of one scenario apart: same file name, other folders.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compareTitle, distinctRunLabels } from "../../engine/compare/run-labels.js";

test("two runs with the same file name are labelled with the folders that tell them apart", () => {
  assert.deepEqual(distinctRunLabels("/runs/gpt-4o/find_temperature.trajectory.jsonl", "/runs/mock/find_temperature.trajectory.jsonl"), [
    "gpt-4o/find_temperature.trajectory.jsonl",
    "mock/find_temperature.trajectory.jsonl",
  ]);
  // Folders that differ higher up: kept from where they differ.
  assert.deepEqual(distinctRunLabels("/a/2026/x/r.trajectory.jsonl", "/b/2026/x/r.trajectory.jsonl"), [
    "a/2026/x/r.trajectory.jsonl",
    "b/2026/x/r.trajectory.jsonl",
  ]);
});

test("different file names stay plain file names", () => {
  assert.deepEqual(distinctRunLabels("/runs/a.trajectory.jsonl", "/runs/b.trajectory.jsonl"), ["a.trajectory.jsonl", "b.trajectory.jsonl"]);
});

test("the compare tab's title tells two runs with one file name apart too", () => {
  assert.equal(
    compareTitle("/runs/gpt-4o/find_temperature.trajectory.jsonl", "/runs/mock/find_temperature.trajectory.jsonl"),
    "Compare gpt-4o/find_temperature ↔ mock/find_temperature",
  );
  assert.equal(compareTitle("/runs/gpt-4o/find_temperature.trajectory.jsonl", null), "Compare find_temperature ↔ reference");
});
