import { test } from "node:test";
import assert from "node:assert/strict";
import { definition } from "../../../server/service/definition.js";
import { withCursor } from "./cursor.js";
import { lineOf, navAt } from "./navigation-fixture.js";

function definitionLine(text: string): number | null {
  const { doc, position } = withCursor(text);
  return definition(doc, position)?.range.start.line ?? null;
}

test("from an after: entry to the milestone's id", () => {
  assert.equal(definitionLine(navAt("[found]", 0, 3)), lineOf("- id: found"));
});

test("from a constraint reference to the milestone's id, with the exact range of the id", () => {
  const { doc, position } = withCursor(navAt("reference: found", 0, 13));
  const location = definition(doc, position);
  assert.ok(location);
  assert.equal(doc.textDocument.getText(location.range), "found");
  assert.equal(location.range.start.line, lineOf("- id: found"));
  assert.equal(location.uri, doc.uri);
});

test("a minefield id resolves in its own section, not to the milestone of the same name", () => {
  const minefieldLine = lineOf("minefields:") + 1;
  assert.equal(definitionLine(navAt("- id: found", 1, 8)), minefieldLine);
});

test("words that are not ids (free text, content) have no definition", () => {
  assert.equal(definitionLine(navAt("agent: found", 0, 9)), null);
  assert.equal(definitionLine(navAt("content: found", 0, 11)), null);
  assert.equal(definitionLine("milestones:\n  - id: a\n    after: [miss$0ing]\n"), null);
});
