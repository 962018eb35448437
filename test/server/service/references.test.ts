import { test } from "node:test";
import assert from "node:assert/strict";
import { references } from "../../../server/service/references.js";
import { withCursor } from "./cursor.js";
import { lineOf, navAt } from "./navigation-fixture.js";

function referenceLines(text: string, includeDeclaration = true): number[] {
  const { doc, position } = withCursor(text);
  return references(doc, position, includeDeclaration).map((l) => l.range.start.line);
}

test("a milestone id: its definition, the after: entry and the reference: value, and nothing else", () => {
  const expected = [lineOf("- id: found"), lineOf("after: [found]"), lineOf("reference: found")];
  assert.deepEqual(referenceLines(navAt("- id: found", 0, 7)), expected);
  assert.deepEqual(referenceLines(navAt("reference: found", 0, 12)), expected, "the same from any occurrence");
  assert.deepEqual(referenceLines(navAt("- id: found", 0, 7), false), expected.slice(1), "without the declaration");
});

test("a minefield id only finds itself", () => {
  assert.deepEqual(referenceLines(navAt("- id: found", 1, 7)), [lineOf("minefields:") + 1]);
});

test("outside an id there are no references", () => {
  assert.deepEqual(referenceLines(navAt("description: found it", 0, 15)), []);
});
