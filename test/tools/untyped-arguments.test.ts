// search_contacts is the one search tool upstream leaves without type checks, so a model's odd
// argument types reach rapidfuzz and polars; and shift_timestamp's overflow follows Python's
// timedelta checks. Expected texts are what upstream's own tools printed in the conformance battery.
import assert from "node:assert/strict";
import { test } from "node:test";
import { CONTACT_TOOLS } from "../../engine/packs/toolsandbox/tools/contact.js";
import { UTILITY_TOOLS } from "../../engine/packs/toolsandbox/tools/utilities.js";
import { ToolError } from "../../engine/tools/types.js";
import { call, makeContext, NOW } from "./fixtures.js";

const search = (args: Record<string, unknown>) => call(CONTACT_TOOLS, "search_contacts", args as never, makeContext());
const names = (args: Record<string, unknown>): string[] => {
  const r = search(args);
  assert.ok(r.ok, r.text);
  return (r.result as { name: string }[]).map((c) => c.name);
};

test("a name or relationship that is not text raises rapidfuzz's TypeError", () => {
  for (const args of [{ name: 1 }, { name: true }, { relationship: [] }, { name: { a: 1 } }]) {
    assert.equal(search(args).text, "TypeError: sentence must be a String", JSON.stringify(args));
  }
  assert.deepEqual(names({ name: null }), []);
});

test("a number as person_id shows the last line of polars' comparison error", () => {
  assert.equal(search({ person_id: 7 }).text, '\t[(col("person_id")) == (dyn int: 7)]');
  assert.equal(search({ person_id: 2.5 }).text, '\t[(col("person_id")) == (dyn float: 2.5)]');
  assert.equal(
    search({ person_id: [] }).text,
    "polars.exceptions.InvalidOperationError: cannot cast List type (inner: 'Null', to: 'String')",
  );
  assert.equal(
    search({ person_id: [1, 2] }).text,
    "polars.exceptions.InvalidOperationError: cannot cast List type (inner: 'Int64', to: 'String')",
  );
  assert.deepEqual(names({ person_id: true }), []);
  assert.deepEqual(names({ person_id: {} }), []);
});

test("is_self compares numbers as 1/0 and text as true/false", () => {
  assert.deepEqual(names({ is_self: 1 }), ["Tomas Haake"]);
  assert.deepEqual(names({ is_self: "true" }), ["Tomas Haake"]);
  assert.equal(names({ is_self: 0 }).length, 3);
  assert.deepEqual(names({ is_self: "True" }), []);
  assert.deepEqual(names({ is_self: 2 }), []);
});

test("shift_timestamp: whole days beyond a C int overflow before the timedelta range check", () => {
  const shift = (args: Record<string, number>) => call(UTILITY_TOOLS, "shift_timestamp", { timestamp: NOW, ...args }, makeContext()).text;
  assert.equal(shift({ days: 1_000_000_000 }), "OverflowError: days=1000000000; must have magnitude <= 999999999");
  assert.equal(shift({ days: 2_147_483_647 }), "OverflowError: days=2147483647; must have magnitude <= 999999999");
  assert.equal(shift({ days: 2_147_483_648 }), "OverflowError: Python int too large to convert to C int");
  assert.equal(shift({ days: -2_147_483_653 }), "OverflowError: Python int too large to convert to C int");
  assert.equal(shift({ weeks: 142_857_143 }), "OverflowError: days=1000000001; must have magnitude <= 999999999");
});

test("the agent sees only the last line of a multi-line error, as upstream's console shows it", () => {
  assert.equal(new ToolError("polars.exceptions.ComputeError", "first\n\nsecond\n\tlast  \n").agentText, "\tlast");
  assert.equal(new ToolError("ValueError", "one line").agentText, "ValueError: one line");
});
