import { test } from "node:test";
import assert from "node:assert/strict";
import { DiagnosticSeverity } from "vscode-languageserver";
import { documentDiagnostics } from "../../../server/service/diagnostics.js";
import { scenarioDoc } from "./cursor.js";

test("engine diagnostics arrive as LSP diagnostics with code, severity, exact range and fix data", () => {
  const text = "name: demo\nuser: { goal: g, opening: o }\ntools:\n  allow: [serch_contacts]\nreference:\n  - agent: hi\n  - end_conversation: true\n";
  const doc = scenarioDoc(text);
  const [unknown] = documentDiagnostics(doc);
  assert.ok(unknown);
  assert.equal(unknown.code, "unknown-tool");
  assert.equal(unknown.severity, DiagnosticSeverity.Error);
  assert.equal(unknown.source, "toolsandbox");
  assert.equal(doc.textDocument.getText(unknown.range), "serch_contacts");
  assert.deepEqual(unknown.data, { suggestion: "search_contacts" });
});

test("a syntax error is ranged to the rest of its line and warnings keep their severity", () => {
  const broken = documentDiagnostics(scenarioDoc("name: demo\nuser:\n\tgoal: g\nreference: []\n"));
  assert.ok(broken.length > 0);
  for (const d of broken) assert.equal(d.range.start.line, d.range.end.line, "never past the end of the line");
  const warning = documentDiagnostics(scenarioDoc("name: demo\nuser: { goal: g, opening: o }\nreference:\n  - calls: [{ tool: search_contacts }]\n"));
  assert.ok(warning.some((d) => d.code === "reference-incomplete" && d.severity === DiagnosticSeverity.Warning));
});
