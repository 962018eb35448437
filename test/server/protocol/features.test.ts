// The language features over JSON-RPC, against the built server: completion, hover,
// definition, references, rename (with prepare), outline, folding and quick fixes.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CodeActionRequest,
  CompletionRequest,
  DefinitionRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  ResponseError,
  type CodeAction,
  type CompletionItem,
  type DocumentSymbol,
  type Location,
  type MarkupContent,
} from "vscode-languageserver/node";
import { requireServerBuild, LspClient, positionOf, SERVER, uriOf } from "./client.js";

const TEXT = readFileSync("sample-scenarios/modify_contact_with_message_recency_adapted.scenario.yaml", "utf8");

let dir: string;
let client: LspClient;
let uri: string;

before(async () => {
  requireServerBuild();
  dir = mkdtempSync(join(tmpdir(), "toolsandbox-lsp-features-"));
  client = LspClient.start([SERVER, "--stdio"]);
  await client.initialize(dir);
  uri = uriOf(join(dir, "contact.scenario.yaml"));
  await client.open(uri, TEXT);
  await client.diagnostics((p) => p.uri === uri && p.version === 1, "diagnostics after open");
});

after(() => {
  client.kill();
  rmSync(dir, { recursive: true, force: true });
});

const textDocument = () => ({ uri });
/** The range of the `nth` occurrence of `word` (which must stand alone in `context`). */
function rangeOf(context: string, word: string, nth = 0) {
  const start = positionOf(TEXT, context, nth, context.indexOf(word));
  return { start, end: { line: start.line, character: start.character + word.length } };
}

test("completion after `tool:` lists the catalog's tools, replacing the word typed", async () => {
  const position = positionOf(TEXT, "      - tool: search_contacts", 0, "      - tool: ".length);
  const answer = await client.request(
    client.connection.sendRequest(CompletionRequest.type, { textDocument: textDocument(), position }),
    "completion",
  );
  const items: CompletionItem[] = Array.isArray(answer) ? answer : (answer?.items ?? []);
  const labels = items.map((i) => i.label);
  for (const tool of ["search_contacts", "modify_contact", "search_messages", "add_reminder"])
    assert.ok(labels.includes(tool), `${tool} offered`);
  const item = items.find((i) => i.label === "modify_contact");
  assert.ok(item?.textEdit && "range" in item.textEdit, "the item replaces a range");
  assert.deepEqual(item.textEdit.range, rangeOf("      - tool: search_contacts", "search_contacts"));
});

test("hover on a tool name shows its signature", async () => {
  const position = positionOf(TEXT, "tool: search_contacts", 0, "tool: search".length);
  const hover = await client.request(client.connection.sendRequest(HoverRequest.type, { textDocument: textDocument(), position }), "hover");
  const contents = hover?.contents as MarkupContent | undefined;
  assert.equal(contents?.kind, "markdown");
  assert.match(contents.value, /search_contacts\(/);
  assert.deepEqual(hover?.range, rangeOf("tool: search_contacts", "search_contacts"));
});

test("hover on a milestone id shows its place in the DAG", async () => {
  const position = positionOf(TEXT, "- id: got_time", 0, "- id: got".length);
  const hover = await client.request(client.connection.sendRequest(HoverRequest.type, { textDocument: textDocument(), position }), "hover");
  const value = (hover?.contents as MarkupContent | undefined)?.value ?? "";
  assert.match(value, /got_time/);
  assert.match(value, /before `searched_messages`/);
});

test("go to definition from an `after:` entry lands on the milestone's id", async () => {
  const position = positionOf(TEXT, "after: [got_time]", 0, "after: [got".length);
  const location = (await client.request(
    client.connection.sendRequest(DefinitionRequest.type, { textDocument: textDocument(), position }),
    "definition",
  )) as Location | null;
  assert.deepEqual(location, { uri, range: rangeOf("- id: got_time", "got_time") });
});

test("find references lists the definition and every use", async () => {
  const position = positionOf(TEXT, "- id: got_time", 0, "- id: g".length);
  const locations = await client.request(
    client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: textDocument(),
      position,
      context: { includeDeclaration: true },
    }),
    "references",
  );
  assert.deepEqual(
    locations?.map((l) => l.range),
    [rangeOf("- id: got_time", "got_time"), rangeOf("after: [got_time]", "got_time")],
  );
});

test("rename: prepare finds the id, rename edits every occurrence, a bad name is an error", async () => {
  const position = positionOf(TEXT, "after: [got_time]", 0, "after: [got".length);
  const prepared = await client.request(
    client.connection.sendRequest(PrepareRenameRequest.type, { textDocument: textDocument(), position }),
    "prepareRename",
  );
  assert.deepEqual(prepared, { range: rangeOf("after: [got_time]", "got_time"), placeholder: "got_time" });

  const notAnId = positionOf(TEXT, "name: modify_contact", 0, 1);
  const refused = await client.request(
    client.connection.sendRequest(PrepareRenameRequest.type, { textDocument: textDocument(), position: notAnId }),
    "prepareRename",
  );
  assert.equal(refused, null);

  const edit = await client.request(
    client.connection.sendRequest(RenameRequest.type, { textDocument: textDocument(), position, newName: "fetched_time" }),
    "rename",
  );
  assert.deepEqual(edit?.changes?.[uri], [
    { range: rangeOf("- id: got_time", "got_time"), newText: "fetched_time" },
    { range: rangeOf("after: [got_time]", "got_time"), newText: "fetched_time" },
  ]);

  await assert.rejects(
    client.request(
      client.connection.sendRequest(RenameRequest.type, { textDocument: textDocument(), position, newName: "not an id!" }),
      "rename",
    ),
    (e: unknown) => e instanceof ResponseError,
  );
});

test("the outline has the milestones under their section, and the file folds", async () => {
  const symbols = (await client.request(
    client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: textDocument() }),
    "documentSymbol",
  )) as DocumentSymbol[] | null;
  const milestones = symbols?.find((s) => s.name === "milestones");
  assert.deepEqual(
    milestones?.children?.map((c) => c.name),
    ["got_time", "searched_contacts", "searched_messages", "number_updated", "confirmed"],
  );
  const folds = await client.request(
    client.connection.sendRequest(FoldingRangeRequest.type, { textDocument: textDocument() }),
    "foldingRange",
  );
  const milestonesLine = positionOf(TEXT, "milestones:").line;
  assert.ok(
    folds?.some((f) => f.startLine === milestonesLine),
    "the milestones section folds",
  );
});

test("a quick fix replaces a misspelt id with the suggestion", async () => {
  const at = positionOf(TEXT, "after: [got_time]", 0, "after: [got_t".length);
  await client.change(uri, 2, [{ range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: "" }]);
  const published = await client.diagnostics((p) => p.uri === uri && p.version === 2, "diagnostics of the typo");
  const typo = published.diagnostics.find((d) => d.code === "unknown-milestone");
  assert.ok(typo);
  const actions = (await client.request(
    client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: textDocument(),
      range: typo.range,
      context: { diagnostics: [typo] },
    }),
    "codeAction",
  )) as CodeAction[] | null;
  const fix = actions?.find((a) => a.isPreferred);
  assert.equal(fix?.kind, "quickfix");
  assert.deepEqual(fix?.edit?.changes?.[uri], [{ range: typo.range, newText: "got_time" }]);
});

test("a request for a document never opened gets an empty answer, not an error", async () => {
  const other = { uri: uriOf(join(dir, "never-opened.scenario.yaml")) };
  const position = { line: 0, character: 0 };
  assert.equal(await client.request(client.connection.sendRequest(HoverRequest.type, { textDocument: other, position }), "hover"), null);
  assert.equal(
    await client.request(client.connection.sendRequest(CompletionRequest.type, { textDocument: other, position }), "completion"),
    null,
  );
  assert.deepEqual(
    await client.request(client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: other }), "documentSymbol"),
    [],
  );
});
