import { test } from "node:test";
import assert from "node:assert/strict";
import type { CodeAction, Diagnostic } from "vscode-languageserver";
import { codeActions } from "../../../server/service/code-actions.js";
import { documentDiagnostics } from "../../../server/service/diagnostics.js";
import { applyEdits, scenarioDoc } from "./cursor.js";

/** The quick fixes for the diagnostics with this code, and the document each one produces. */
function fixes(text: string, code: string): Array<{ title: string; result: string; action: CodeAction }> {
  const doc = scenarioDoc(text);
  const diagnostics = documentDiagnostics(doc).filter((d) => d.code === code);
  assert.ok(
    diagnostics.length > 0,
    `no ${code} diagnostic; got ${documentDiagnostics(doc)
      .map((d) => d.code)
      .join(", ")}`,
  );
  return codeActions(doc, diagnostics[0]!.range, diagnostics).map((action) => ({
    title: action.title,
    result: applyEdits(text, action.edit?.changes?.[doc.uri] ?? []),
    action,
  }));
}

const HEAD = "name: demo\nuser: { goal: g, opening: o }\n";
const TAIL = "reference:\n  - agent: hi\n  - end_conversation: true\n";

/** Codes of the problems left after a fix. */
function codesAfter(text: string): string[] {
  return documentDiagnostics(scenarioDoc(text)).map((d) => String(d.code));
}

test("replace with the suggested key", () => {
  const [fix] = fixes(
    `${HEAD}${TAIL}milestones:\n  - id: a\n    constraints:\n      - { kind: snapshot, table: SETTING, tagret: [{ wifi: true }] }\n`,
    "schema-unknown-key",
  );
  assert.ok(fix);
  assert.equal(fix.title, 'Change to "target"');
  assert.equal(fix.action.isPreferred, true);
  assert.match(fix.result, /table: SETTING, target: \[/);
  assert.deepEqual(codesAfter(fix.result), []);
});

test("replace with the suggested value, tool and id, keeping the author's quotes", () => {
  const kind = fixes(
    `${HEAD}${TAIL}milestones:\n  - id: a\n    constraints:\n      - { kind: snapshto, table: SETTING, target: [{ wifi: true }] }\n`,
    "schema-enum",
  )[0];
  assert.match(kind?.result ?? "", /kind: snapshot,/);
  const tool = fixes(`${HEAD}tools:\n  allow: ["serch_contacts"]\n${TAIL}`, "unknown-tool")[0];
  assert.match(tool?.result ?? "", /allow: \["search_contacts"\]/);
  const id = fixes(
    `${HEAD}${TAIL}milestones:\n  - id: found\n    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]\n  - id: b\n    after: [fuond]\n    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]\n`,
    "unknown-milestone",
  )[0];
  assert.match(id?.result ?? "", /after: \[found\]/);
  assert.deepEqual(codesAfter(id?.result ?? ""), []);
});

test("add the missing after: of an unconnected milestone, or mark it as standing alone", () => {
  const text = `${HEAD}${TAIL}milestones:
  - id: a
    after: []
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]
  - id: b
    constraints: [{ kind: snapshot, table: SETTING, target: [{ cellular: true }] }]
`;
  const [connect, alone] = fixes(text, "milestone-unconnected");
  assert.equal(connect?.title, "Add `after: [a]`");
  assert.match(connect?.result ?? "", / {2}- id: b\n {4}after: \[a\]\n {4}constraints:/);
  assert.deepEqual(codesAfter(connect?.result ?? ""), []);
  assert.match(alone?.result ?? "", / {2}- id: b\n {4}after: \[\]\n/);
});

test("insert a missing required key, argument or column", () => {
  const required = fixes(`name: demo\nuser:\n  goal: g\n${TAIL}`, "schema-required")[0];
  assert.equal(required?.title, 'Add "opening"');
  assert.equal(required?.result, `name: demo\nuser:\n  goal: g\n  opening: ""\n${TAIL}`);
  const missingUser = fixes(`name: demo\n${TAIL}`, "schema-required")[0];
  assert.match(missingUser?.result ?? "", /\nuser:\n {2}goal: ""\n {2}opening: ""\n$/);
  const argument = fixes(
    `${HEAD}reference:\n  - calls:\n      - tool: add_contact\n        arguments: { name: Bob }\n  - agent: hi\n  - end_conversation: true\n`,
    "missing-argument",
  )[0];
  assert.match(argument?.result ?? "", /arguments: \{ name: Bob, phone_number: "" \}/);
  const column = fixes(`${HEAD}${TAIL}world:\n  CONTACT:\n    add:\n      - name: Lars\n`, "missing-column")[0];
  assert.match(column?.result ?? "", / {6}- name: Lars\n {8}phone_number: ""\n$/);
});

test("an empty file gets a skeleton that passes the checker; a modeline comment stays first", () => {
  const [skeleton] = fixes("", "empty-file");
  assert.equal(skeleton?.title, "Create a scenario skeleton");
  assert.deepEqual(codesAfter(skeleton?.result ?? ""), []);
  const modeline = "# yaml-language-server: $schema=../schemas/scenario.schema.json\n";
  const [withComment] = fixes(modeline, "empty-file");
  assert.ok(withComment?.result.startsWith(`${modeline}name: `));
  // The modeline is kept as written; from this document's folder it points nowhere, which is said.
  assert.deepEqual(codesAfter(withComment?.result ?? ""), ["schema-not-found"]);
});

test("diagnostics without fix data get no action, and junk data is ignored", () => {
  const doc = scenarioDoc(`${HEAD}${TAIL}`);
  const bogus: Diagnostic[] = [
    { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 4 } }, message: "x", code: "reference-order" },
    {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 4 } },
      message: "x",
      code: "schema-enum",
      data: { suggestion: 42 },
    },
    {
      range: { start: { line: 90, character: 0 }, end: { line: 99, character: 4 } },
      message: "x",
      code: "schema-required",
      data: { insert: "name" },
    },
  ];
  assert.deepEqual(codeActions(doc, bogus[0]!.range, bogus), []);
});
