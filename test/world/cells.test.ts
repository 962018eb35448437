// World cells that are lists compare by their items, in diffs and in the trajectory's consistency checks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sameCell, sameRow } from "../../engine/world/cells.js";
import { changedColumns } from "../../engine/world/changes.js";

test("list cells are equal when their items are, whatever the array object", () => {
  assert.ok(sameCell(["ann", "bob"], ["ann", "bob"]));
  assert.ok(!sameCell(["ann", "bob"], ["bob", "ann"]));
  assert.ok(!sameCell(["ann"], "ann"));
  assert.ok(!sameCell([], null));
  assert.ok(sameRow({ id: "e1", attendees: ["ann"] }, { id: "e1", attendees: ["ann"] }));
  assert.ok(!sameRow({ id: "e1", attendees: ["ann"] }, { id: "e1", attendees: ["ann", "bob"] }));
});

test("a diff lists a list column only when its items changed", () => {
  const before = { id: "e1", attendees: ["ann"], name: "Lunch" };
  assert.deepEqual(changedColumns(before, { ...before, attendees: ["ann"] }), []);
  assert.deepEqual(changedColumns(before, { ...before, attendees: ["ann", "bob"] }), ["attendees"]);
});
