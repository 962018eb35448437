import { test } from "node:test";
import assert from "node:assert/strict";
import { TextDocument } from "vscode-languageserver-textdocument";
import { getScenarioDocument } from "../../../server/service/document.js";
import { scenarioDoc, withCursor } from "./cursor.js";

function at(text: string) {
  const { doc, offset } = withCursor(text);
  return doc.pathAt(offset);
}

test("a document is parsed once per version and parsed again when it changes", () => {
  const uri = "file:///cache/a.scenario.yaml";
  const v1 = TextDocument.create(uri, "toolsandbox-scenario", 1, "name: a\n");
  const first = getScenarioDocument(v1);
  assert.equal(getScenarioDocument(v1), first);
  assert.equal(first.check, first.check, "the check is computed once and kept");
  const v2 = TextDocument.update(v1, [{ text: "name: b\n" }], 2);
  const second = getScenarioDocument(v2);
  assert.notEqual(second, first);
  assert.equal(second.text, "name: b\n");
  // Same uri and version but other text (a client that reuses versions): not the stale parse.
  const other = getScenarioDocument(TextDocument.create(uri, "toolsandbox-scenario", 2, "name: c\n"));
  assert.equal(other.text, "name: c\n");
});

test("pathAt on a key being typed in a list item (the line is not valid YAML yet)", () => {
  const ctx = at("name: x\nmilestones:\n  - id: a\n    kin$0\n");
  assert.deepEqual(ctx.path, ["milestones", 0]);
  assert.equal(ctx.on, "key");
  assert.equal(ctx.prefix, "kin");
});

test("pathAt on a value being typed after `- key: `", () => {
  const ctx = at("reference:\n  - agent: hi\n  - calls:\n      - tool: sea$0\n");
  assert.deepEqual(ctx.path, ["reference", 1, "calls", 0, "tool"]);
  assert.equal(ctx.on, "value");
  assert.equal(ctx.prefix, "sea");
});

test("pathAt inside flow collections", () => {
  assert.deepEqual(at("tools:\n  allow: [search_contacts, sen$0]\n").path, ["tools", "allow", 1]);
  const cell = at("m:\n  target: [{ cellular: tr$0 }]\n");
  assert.deepEqual(cell.path, ["m", "target", 0, "cellular"]);
  assert.equal(cell.prefix, "tr");
  const key = at("args: { name: x, pho$0 }\n");
  assert.deepEqual([key.path, key.on, key.prefix], [["args"], "key", "pho"]);
  // A flow list continued on the next line.
  assert.deepEqual(at("tools:\n  allow: [search_contacts,\n    sen$0\n").path, ["tools", "allow", 1]);
});

test("pathAt on empty lines follows the indentation", () => {
  const text = "user:\n  goal: g\n  $0\nname: x\n";
  assert.deepEqual([at(text).path, at(text).on], [["user"], "key"]);
  assert.deepEqual(at("user:\n  goal: g\n$0\n").path, []);
  const item = at("milestones:\n- id: a\n- $0\n");
  assert.deepEqual([item.path, item.itemStart], [["milestones", 1], true]);
});

test("pathAt skips multi-line text: block scalars and comments are not structure", () => {
  assert.equal(at("description: >-\n  some: text\n  mo$0re\nname: x\n").inScalar, true);
  assert.equal(at("name: x # a com$0ment\n").inScalar, true);
  // A key-like line inside a block scalar does not open a mapping for the lines after it.
  assert.deepEqual(at("agent:\n  system_prompt: |\n    rules:\n      - be kind\n  $0\n").path, ["agent"]);
});

test("the id table lists definitions, after entries and references, each with the id's own range", () => {
  const doc = scenarioDoc(`milestones:
  - id: found
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]
  - id: "changed"
    after: [found]
    constraints:
      - { kind: update, table: CONTACT, reference: found, target: [{ name: x }] }
      - { kind: update, table: CONTACT, reference: initial, target: [{ name: x }] }
minefields:
  - id: found
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: false }] }]
`);
  const rows = doc.ids.occurrences.map((o) => [o.section, o.role, o.id, doc.text.slice(o.start, o.end)]);
  assert.deepEqual(rows, [
    ["milestones", "definition", "found", "found"],
    ["milestones", "definition", "changed", "changed"],
    ["milestones", "after", "found", "found"],
    ["milestones", "reference", "found", "found"],
    ["minefields", "definition", "found", "found"],
  ]);
});
