import { test } from "node:test";
import assert from "node:assert/strict";
import { ResponseError, type WorkspaceEdit } from "vscode-languageserver";
import { prepareRename, rename } from "../../../server/service/rename.js";
import { applyEdits, withCursor } from "./cursor.js";
import { NAV, navAt } from "./navigation-fixture.js";

function renamed(text: string, newName: string): string | ResponseError<void> | null {
  const { doc, position } = withCursor(text);
  const result = rename(doc, position, newName);
  if (result === null || result instanceof ResponseError) return result;
  const edits = (result as WorkspaceEdit).changes?.[doc.uri] ?? [];
  return applyEdits(doc.text, edits);
}

test("renaming a milestone edits its id, the after: entry and the reference:, and only those", () => {
  const expected = NAV.replace("- id: found\n    description", "- id: located\n    description")
    .replace("after: [found]", "after: [located]")
    .replace("reference: found", "reference: located");
  assert.equal(renamed(navAt("after: [found]", 0, 10), "located"), expected);
  // Free text, the content value and the minefield with the same id are untouched.
  assert.match(expected, /goal: found the contact/);
  assert.match(expected, /minefields:\n {2}- id: found/);
});

test("renaming keeps quotes around a quoted id", () => {
  const text = 'milestones:\n  - id: "a$0"\n    constraints: []\n  - id: b\n    after: [a]\n    constraints: []\n';
  assert.equal(
    renamed(text, "start"),
    'milestones:\n  - id: "start"\n    constraints: []\n  - id: b\n    after: [start]\n    constraints: []\n',
  );
});

test("prepareRename gives the id's range and text; elsewhere it refuses", () => {
  const { doc, position } = withCursor(navAt("reference: found", 0, 14));
  const prepared = prepareRename(doc, position);
  assert.ok(prepared);
  assert.equal(prepared.placeholder, "found");
  assert.equal(doc.textDocument.getText(prepared.range), "found");
  const elsewhere = withCursor(navAt("agent: found", 0, 9));
  assert.equal(prepareRename(elsewhere.doc, elsewhere.position), null);
});

test("an unusable new name is refused with a message", () => {
  const message = (name: string): string => {
    const result = renamed(navAt("- id: found", 0, 7), name);
    assert.ok(result instanceof ResponseError, `"${name}" should be refused`);
    return result.message;
  };
  assert.match(message("2fast"), /not a valid id/);
  assert.match(message("has space"), /not a valid id/);
  assert.match(message("initial"), /reserved/);
  assert.match(message("sent"), /Another milestone already has the id "sent"/);
  assert.match(message("true"), /would be read as true or false/);
  // The minefield's "found" does not block renaming the milestone to a minefield-only name, and vice versa.
  assert.equal(typeof renamed(navAt("- id: found", 1, 7), "sent"), "string");
});
