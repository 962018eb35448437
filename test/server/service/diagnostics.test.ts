import { test } from "node:test";
import assert from "node:assert/strict";
import { DiagnosticSeverity } from "vscode-languageserver";
import { documentDiagnostics } from "../../../server/service/diagnostics.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { TextDocument } from "vscode-languageserver-textdocument";
import { loadScenarioFile } from "../../../engine/scenario/load.js";
import { getScenarioDocument } from "../../../server/service/document.js";
import { scenarioDoc } from "./cursor.js";

test("engine diagnostics arrive as LSP diagnostics with code, severity, exact range and fix data", () => {
  const text =
    "name: demo\nuser: { goal: g, opening: o }\ntools:\n  allow: [serch_contacts]\nreference:\n  - agent: hi\n  - end_conversation: true\n";
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
  const warning = documentDiagnostics(
    scenarioDoc("name: demo\nuser: { goal: g, opening: o }\nreference:\n  - calls: [{ tool: search_contacts }]\n"),
  );
  assert.ok(warning.some((d) => d.code === "reference-incomplete" && d.severity === DiagnosticSeverity.Warning));
});

test("a scenario's prompt set is read from beside it, as `validate` reads it: a missing one is the same error at `prompts`", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-prompts-"));
  try {
    const text =
      "prompts: nowhere.json\nname: demo\nuser: { goal: g, opening: o }\nreference:\n  - agent: hi\n  - end_conversation: true\n";
    const file = join(dir, "demo.scenario.yaml");
    writeFileSync(file, text);
    const inEditor = documentDiagnostics(
      getScenarioDocument(TextDocument.create(pathToFileURL(file).href, "toolsandbox-scenario", 1, text)),
    );
    const fromCli = loadScenarioFile(file).diagnostics;
    const missing = inEditor.filter((d) => d.code === "prompt-set");
    assert.equal(missing.length, 1);
    assert.equal(missing[0]?.range.start.line, 0);
    assert.deepEqual(
      inEditor.map((d) => [d.code, d.message]),
      fromCli.map((d) => [d.code, d.message]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
