// The JSON syntax scanner (engine/base/json-syntax.ts) that places a parse error for the one-line
// "file:line:col: invalid JSON" messages: the offset of the first error, or null for valid JSON.
import { test } from "node:test";
import assert from "node:assert/strict";
import { jsonSyntaxErrorOffset } from "../../engine/base/json-syntax.js";

test("the syntax scanner places the first error, and finds none in valid JSON", () => {
  const cases: [string, number | null][] = [
    ['{"a": }', 6],
    ['{"a": 1,}', 8],
    ["[1, 2", 5],
    ['{"a": tru}', 6],
    ['{"a": "x\ny"}', 8],
    ["[01]", 2],
    ['{"a": [1, {"b": null}], "c": -1.5e3, "d": "\\u00e9"}', null],
    ["{} x", 3],
  ];
  for (const [text, offset] of cases) assert.equal(jsonSyntaxErrorOffset(text), offset, text);
});
