// The built server (dist/server.js --stdio) as an editor sees it: initialize, then diagnostics
// for each version it is sent, and the reference solution's score added in the background.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { CodeActionKind, DiagnosticSeverity, TextDocumentSyncKind, type PublishDiagnosticsParams } from "vscode-languageserver/node";
import { requireServerBuild, LspClient, positionOf, SERVER, sampleWorkspace, uriOf } from "./client.js";

const CONTACT = readFileSync("sample-scenarios/modify_contact_with_message_recency_adapted.scenario.yaml", "utf8");
const CELLULAR = readFileSync("sample-scenarios/cellular_off_adapted.scenario.yaml", "utf8");
/** The reference switches cellular on instead of off: it never reaches `cellular_off`. */
const CELLULAR_WRONG_REFERENCE = CELLULAR.replace("arguments: { on: false }", "arguments: { on: true }");

let dir: string;
let client: LspClient;

before(async () => {
  requireServerBuild();
  dir = sampleWorkspace("toolsandbox-lsp-diagnostics-");
  client = LspClient.start([SERVER, "--stdio"]);
  await client.initialize(dir);
});

after(() => {
  client.kill();
  rmSync(dirname(dir), { recursive: true, force: true });
});

const publishedFor = (uri: string, version: number) => (p: PublishDiagnosticsParams) => p.uri === uri && p.version === version;
const codes = (p: PublishDiagnosticsParams): string[] => p.diagnostics.map((d) => String(d.code));

test("initialize announces incremental sync and every feature the service has", async () => {
  const probe = LspClient.start([SERVER, "--stdio"]);
  try {
    const { capabilities, serverInfo } = await probe.initialize(dir);
    assert.equal(serverInfo?.name, "toolsandbox-language-server");
    assert.deepEqual(capabilities.textDocumentSync, { openClose: true, change: TextDocumentSyncKind.Incremental });
    assert.ok(capabilities.completionProvider?.triggerCharacters?.includes(" "));
    assert.equal(capabilities.hoverProvider, true);
    assert.equal(capabilities.definitionProvider, true);
    assert.equal(capabilities.referencesProvider, true);
    assert.deepEqual(capabilities.renameProvider, { prepareProvider: true });
    assert.equal(capabilities.documentSymbolProvider, true);
    assert.equal(capabilities.foldingRangeProvider, true);
    assert.deepEqual(capabilities.codeActionProvider, { codeActionKinds: [CodeActionKind.QuickFix] });
    assert.deepEqual(capabilities.codeLensProvider, { resolveProvider: false });
    assert.equal(await probe.shutdown(), 0, "shutdown then exit ends the process with code 0");
  } finally {
    probe.kill();
  }
});

test("a typo appears on the exact id with its suggestion, and goes away when fixed", async () => {
  const uri = uriOf(join(dir, "contact.scenario.yaml"));
  await client.open(uri, CONTACT);
  const opened = await client.diagnostics(publishedFor(uri, 1), "diagnostics of version 1");
  assert.deepEqual(opened.diagnostics, [], "the sample has no problems");

  // Type one character away: "got_time" -> "got_tme" in `after: [got_time]`.
  const at = positionOf(CONTACT, "after: [got_time]", 0, "after: [got_t".length);
  await client.change(uri, 2, [{ range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: "" }]);
  const broken = await client.diagnostics(publishedFor(uri, 2), "diagnostics of version 2");
  assert.deepEqual(codes(broken), ["unknown-milestone"]);
  const [typo] = broken.diagnostics;
  const idStart = positionOf(CONTACT, "after: [got_time]", 0, "after: [".length);
  assert.deepEqual(typo?.range, { start: idStart, end: { line: idStart.line, character: idStart.character + "got_tme".length } });
  assert.equal(typo?.severity, DiagnosticSeverity.Error);
  assert.deepEqual(typo?.data, { suggestion: "got_time" });

  await client.change(uri, 3, [{ range: { start: at, end: at }, text: "i" }]);
  const fixed = await client.diagnostics(publishedFor(uri, 3), "diagnostics of version 3");
  assert.deepEqual(fixed.diagnostics, []);
});

test("a YAML syntax error is ranged to the end of its line, not the rest of the file", async () => {
  const uri = uriOf(join(dir, "syntax.scenario.yaml"));
  const text = CONTACT.replace("  goal: Change the phone number", '  goal: "Change the phone number');
  await client.open(uri, text);
  const published = await client.diagnostics(publishedFor(uri, 1), "diagnostics of a broken file");
  assert.ok(published.diagnostics.length > 0);
  for (const d of published.diagnostics) assert.equal(d.range.start.line, d.range.end.line, `${d.message} spans one line`);
});

test("a file past 512 KB is checked but its reference is not scored while editing (logged once)", async () => {
  // 600 KB of comments after a scenario whose reference misses a milestone: valid, and large.
  const padding = `# ${"padding ".repeat(7)}\n`.repeat(Math.ceil((600 * 1024) / 59));
  const text = CELLULAR_WRONG_REFERENCE + padding;
  // A server of its own: its log is what this test reads.
  const client = LspClient.start([SERVER, "--stdio"]);
  await client.initialize(dir);
  try {
    const uri = uriOf(join(dir, "large.scenario.yaml"));
    await client.open(uri, text);
    const checked = await client.diagnostics(publishedFor(uri, 1), "the checker's diagnostics");
    assert.deepEqual(checked.diagnostics, [], "the file itself is valid");
    const skipped = () => client.logs.filter((m) => m.startsWith(`${uri}: the reference is not scored`));
    // The same text under the cap gets its finding within a second or two (the test below); here, nothing comes.
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(skipped().length, 1, client.logs.join("\n"));
    assert.deepEqual(client.published.filter((p) => p.uri === uri).map(codes), [[]]);
    const edit = positionOf(text, "Switch my cellular off.");
    await client.change(uri, 2, [{ range: { start: edit, end: edit }, text: "Please. " }]);
    await client.diagnostics(publishedFor(uri, 2), "diagnostics of version 2");
    assert.equal(skipped().length, 1, "logged once per document");
  } finally {
    client.kill();
  }
});

test("the reference's own score arrives in the background, as a warning on the milestone it misses", async () => {
  const uri = uriOf(join(dir, "cellular.scenario.yaml"));
  await client.open(uri, CELLULAR_WRONG_REFERENCE);
  const checked = await client.diagnostics(publishedFor(uri, 1), "the checker's diagnostics");
  assert.deepEqual(checked.diagnostics, [], "the file itself is valid: the first publish is the checker's alone");

  const scored = await client.diagnostics((p) => publishedFor(uri, 1)(p) && p.diagnostics.length > 0, "the reference's findings");
  const miss = scored.diagnostics.find((d) => d.code === "reference-misses-milestone");
  assert.ok(miss, `got ${codes(scored).join(", ")}`);
  assert.equal(miss.severity, DiagnosticSeverity.Warning);
  assert.equal(miss.range.start.line, positionOf(CELLULAR, "  - id: cellular_off").line);

  // A newer version never shows the older version's findings: they point into the old text.
  const edit = positionOf(CELLULAR_WRONG_REFERENCE, "Switch my cellular off.");
  const insert = { range: { start: edit, end: edit }, text: "Please. " };
  await client.change(uri, 2, [insert]);
  const edited = await client.diagnostics(publishedFor(uri, 2), "diagnostics of version 2");
  assert.deepEqual(edited.diagnostics, []);

  // Undo: the text scored before comes back, and so do its findings, at once.
  await client.change(uri, 3, [
    { range: { start: edit, end: { line: edit.line, character: edit.character + insert.text.length } }, text: "" },
  ]);
  const undone = await client.diagnostics(publishedFor(uri, 3), "diagnostics of version 3");
  assert.deepEqual(codes(undone), codes(scored));

  // Edited again and left alone: the new version is scored in its turn.
  await client.change(uri, 4, [insert]);
  const rescored = await client.diagnostics((p) => publishedFor(uri, 4)(p) && p.diagnostics.length > 0, "findings for version 4");
  assert.ok(rescored.diagnostics.some((d) => d.code === "reference-misses-milestone"));
  // All of it in the worker thread: nothing logged about a worker that failed or fell back.
  assert.deepEqual(
    client.logs.filter((l) => l.includes("reference")),
    [],
  );
});

test("fixing the reference clears its findings once the new version is scored", async () => {
  const uri = uriOf(join(dir, "fixing.scenario.yaml"));
  await client.open(uri, CELLULAR_WRONG_REFERENCE);
  await client.diagnostics((p) => publishedFor(uri, 1)(p) && p.diagnostics.length > 0, "the reference's findings");

  const at = positionOf(CELLULAR_WRONG_REFERENCE, "arguments: { on: true }", 0, "arguments: { on: ".length);
  await client.change(uri, 2, [{ range: { start: at, end: { line: at.line, character: at.character + "true".length } }, text: "false" }]);
  const clean = await client.diagnostics(publishedFor(uri, 2), "diagnostics of the fixed reference");
  assert.deepEqual(clean.diagnostics, []);
  // The scoring of version 2 is published too (second publish for the version): the reference has
  // no finding left, and the strength of the scenario is measured now that the reference passes
  // (this sample refuses one right agent: a reworded reply under rouge_l).
  const published = () => client.published.filter(publishedFor(uri, 2));
  await client.diagnostics((p) => publishedFor(uri, 2)(p) && published().length >= 2, "the scoring of version 2");
  assert.deepEqual(published().map(codes), [[], ["strength-refused-variant"]]);
});

test("a scenario whose reference passes gets its strength: a warning per wrong agent that passes, and the verdict as a CodeLens on milestones:", async () => {
  const uri = uriOf(join(dir, "strength.scenario.yaml"));
  const refreshes = client.lensRefreshes;
  assert.deepEqual(await client.request(client.connection.sendRequest("textDocument/codeLens", { textDocument: { uri } }), "codeLens"), []);
  await client.open(uri, CONTACT);
  const scored = await client.diagnostics(
    (p) => publishedFor(uri, 1)(p) && p.diagnostics.some((d) => d.code === "strength-survivor"),
    "the strength findings",
  );
  const survivors = scored.diagnostics.filter((d) => d.code === "strength-survivor");
  assert.equal(survivors.length, 3);
  assert.ok(survivors.every((d) => d.severity === DiagnosticSeverity.Warning));
  const lines = CONTACT.split("\n");
  assert.ok(
    survivors.some(
      (d) => lines[d.range.start.line]?.trim() === "- id: searched_contacts" && String(d.message).includes("add argument is_self"),
    ),
    "the survivor sits on the milestone that should catch it, with its fix",
  );
  assert.ok(client.lensRefreshes > refreshes, "the server asks the client to fetch the lenses again");
  const lenses = (await client.request(client.connection.sendRequest("textDocument/codeLens", { textDocument: { uri } }), "codeLens")) as {
    range: { start: { line: number } };
    command?: { title: string };
  }[];
  assert.equal(lenses.length, 1);
  assert.equal(lines[lenses[0]!.range.start.line], "milestones:");
  assert.match(lenses[0]!.command?.title ?? "", /^strength 11\/14 \(79%\) · 3 wrong agents pass · 1 right agent refused/);

  // A syntax error takes the verdict away (there is no scenario to measure) until the text is valid again.
  await client.change(uri, 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: "[" }]);
  await client.diagnostics(publishedFor(uri, 2), "diagnostics of the broken version");
  const broken = await client.request(client.connection.sendRequest("textDocument/codeLens", { textDocument: { uri } }), "codeLens");
  assert.deepEqual(broken, []);
});

test("closing a document clears its diagnostics", async () => {
  const uri = uriOf(join(dir, "closing.scenario.yaml"));
  await client.open(uri, "name: [unclosed\n");
  const broken = await client.diagnostics(publishedFor(uri, 1), "diagnostics of a broken file");
  assert.ok(broken.diagnostics.length > 0);
  await client.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
  await client.diagnostics((p) => p.uri === uri && p.version === undefined && p.diagnostics.length === 0, "the clearing publish");
});
