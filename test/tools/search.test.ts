import { test } from "node:test";
import assert from "node:assert/strict";
import { AT_LEAST, AT_MOST, EXACT, filterRows, fuzzyAtLeast, fuzzyScore } from "../../engine/packs/toolsandbox/tools/search.js";
import { ToolError } from "../../engine/tools/types.js";
import type { Row } from "../../engine/world/types.js";

const rows: Row[] = [
  { id: "a", name: "Anna Smith", age: 30, vip: true },
  { id: "b", name: "Ann Smith", age: 40, vip: false },
  { id: "c", name: null, age: null, vip: null },
  { id: "d", name: "Anna Smyth", age: 50, vip: false },
];
const ids = (rs: readonly Row[]) => rs.map((r) => r.id);

function errorText(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof ToolError) return e.agentText;
    throw e;
  }
  throw new Error("expected a ToolError");
}

test("with no criterion given the error lists the criteria as a Python tuple", () => {
  assert.equal(
    errorText(() =>
      filterRows(rows, [
        { column: "id", value: undefined, filter: EXACT },
        { column: "age", value: undefined, filter: AT_LEAST },
      ]),
    ),
    "ValueError: No search criteria are given. At least one search criteria should be provided among ('id', 'age')",
  );
  assert.equal(
    errorText(() => filterRows(rows, [{ column: "id", value: undefined, filter: EXACT }])),
    "ValueError: No search criteria are given. At least one search criteria should be provided among ('id',)",
  );
});

test("exact filters compare values and never match a null cell", () => {
  assert.deepEqual(ids(filterRows(rows, [{ column: "vip", value: false, filter: EXACT }])), ["b", "d"]);
  assert.deepEqual(ids(filterRows(rows, [{ column: "age", value: 40, filter: EXACT }])), ["b"]);
  assert.deepEqual(ids(filterRows(rows, [{ column: "name", value: null, filter: EXACT }])), []);
});

test("exact filters compare mixed kinds as polars does (measured with polars 1.x)", () => {
  assert.deepEqual(ids(filterRows(rows, [{ column: "vip", value: "true", filter: EXACT }])), ["a"]);
  assert.deepEqual(ids(filterRows(rows, [{ column: "vip", value: 1, filter: EXACT }])), ["a"]);
  assert.deepEqual(ids(filterRows(rows, [{ column: "id", value: true, filter: EXACT }])), []);
  assert.equal(
    errorText(() => filterRows(rows, [{ column: "id", value: 3, filter: EXACT }])),
    '\t[(col("id")) == (dyn int: 3)]',
  );
  assert.equal(
    errorText(() => filterRows(rows, [{ column: "id", value: ["a"], filter: EXACT }])),
    "polars.exceptions.InvalidOperationError: cannot cast List type (inner: 'String', to: 'String')",
  );
});

test("range filters are inclusive and drop null cells", () => {
  assert.deepEqual(ids(filterRows(rows, [{ column: "age", value: 40, filter: AT_LEAST }])), ["b", "d"]);
  assert.deepEqual(ids(filterRows(rows, [{ column: "age", value: 40, filter: AT_MOST }])), ["a", "b"]);
  assert.deepEqual(
    ids(
      filterRows(rows, [
        { column: "age", value: 30, filter: AT_LEAST },
        { column: "age", value: 30, filter: AT_MOST },
      ]),
    ),
    ["a"],
  );
});

test("criteria apply in turn and omitted ones are skipped", () => {
  const out = filterRows(rows, [
    { column: "id", value: undefined, filter: EXACT },
    { column: "vip", value: false, filter: EXACT },
    { column: "age", value: 45, filter: AT_LEAST },
  ]);
  assert.deepEqual(ids(out), ["d"]);
});

test("the fuzzy filter keeps rows at or above the threshold, best score first, ties in row order", () => {
  const scores = ["Anna Smith", "Ann Smith", "Anna Smyth"].map((n) => fuzzyScore("anna smith", n));
  assert.equal(scores[0], 100);
  assert.ok(scores[1]! < 100 && scores[2]! < 100);
  const out = filterRows(rows, [{ column: "name", value: "anna smith", filter: fuzzyAtLeast(0) }]);
  const expected = ["a", "b", "d"].map((id, i) => ({ id, score: scores[i]! })).sort((x, y) => y.score - x.score);
  assert.deepEqual(
    ids(out),
    expected.map((e) => e.id),
    "null names are skipped and the rest sorted by score",
  );
  const cutoff = scores[1]!;
  assert.deepEqual(
    ids(filterRows(rows, [{ column: "name", value: "anna smith", filter: fuzzyAtLeast(cutoff) }])),
    expected.filter((e) => e.score >= cutoff).map((e) => e.id),
    "the threshold is inclusive",
  );
});

test("the fuzzy filter returns at most five rows, equal scores staying in row order", () => {
  const many: Row[] = Array.from({ length: 8 }, (_, i) => ({ id: `r${i}`, text: i === 6 ? "meeting tomorrow" : "meeting today" }));
  const out = filterRows(many, [{ column: "text", value: "meeting tomorrow", filter: fuzzyAtLeast(50) }]);
  assert.deepEqual(ids(out), ["r6", "r0", "r1", "r2", "r3"]);
});

test("fuzzy scoring ignores case and punctuation like rapidfuzz's default_process", () => {
  assert.equal(fuzzyScore("HOMER S!", "Homer S"), 100);
  // "homer  s": the comma became a second space, which default_process keeps (token scores: 95).
  assert.equal(fuzzyScore("HOMER, s.", "Homer S"), 95);
  assert.equal(fuzzyScore("", "Homer S"), 0);
  assert.equal(
    errorText(() => filterRows(rows, [{ column: "name", value: 42, filter: fuzzyAtLeast(0) }])),
    "TypeError: sentence must be a String",
  );
  assert.deepEqual(ids(filterRows(rows, [{ column: "name", value: null, filter: fuzzyAtLeast(0) }])), []);
});
