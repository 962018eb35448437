// Authoring details over the built server: YAML merge keys said unsupported in one diagnostic
// (and no quick fix), a file with CR-only line breaks checked like any other, the "Add opening"
// quick fix as a snippet with a placeholder, `reference:` completion offering only ancestors,
// and an unclosed `[` reported on its own line.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CodeActionRequest, CompletionRequest, type CodeAction, type CompletionItem, type Diagnostic } from "vscode-languageserver/node";
import { requireServerBuild, LspClient, positionOf, SERVER, uriOf } from "./client.js";

let dir: string;
let client: LspClient;
let opened = 0;

before(async () => {
  requireServerBuild();
  dir = mkdtempSync(join(tmpdir(), "toolsandbox-lsp-authoring-"));
  client = LspClient.start([SERVER, "--stdio"]);
  await client.initialize(dir, { documentChanges: true, snippetEditSupport: true });
});

after(() => {
  client.kill();
  rmSync(dir, { recursive: true, force: true });
});

async function diagnosticsOf(text: string): Promise<{ uri: string; diagnostics: Diagnostic[] }> {
  const uri = uriOf(join(dir, `doc${++opened}.scenario.yaml`));
  await client.open(uri, text);
  const published = await client.diagnostics((p) => p.uri === uri && p.version === 1, `diagnostics of ${uri}`);
  return { uri, diagnostics: published.diagnostics };
}

const TAIL = "reference:\n  - agent: Done.\n  - end_conversation: true\n";

test("a merge key gets one diagnostic saying merge keys are unsupported, and no quick fix", async () => {
  const text = `name: demo\nbase: &b { goal: g }\nuser:\n  <<: *b\n  opening: o\n${TAIL}`;
  const { uri, diagnostics } = await diagnosticsOf(text);
  assert.deepEqual(
    diagnostics.map((d) => [d.range.start.line, d.code, d.message]),
    [[3, "yaml-merge-key", "YAML merge keys (`<<`) are not supported in scenarios: write the keys out here."]],
  );
  const actions = (await client.request(
    client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: diagnostics[0]!.range,
      context: { diagnostics },
    }),
    "code actions",
  )) as CodeAction[];
  assert.deepEqual(actions, []);
});

test("a file with CR-only line breaks is checked line by line, not reported empty", async () => {
  const { diagnostics } = await diagnosticsOf(`name: demo\ruser: { goal: g }\r${TAIL.replace(/\n/g, "\r")}`);
  assert.ok(!diagnostics.some((d) => d.code === "empty-file"), JSON.stringify(diagnostics));
  const missing = diagnostics.find((d) => d.code === "schema-required");
  assert.equal(missing?.range.start.line, 1, JSON.stringify(diagnostics));
  assert.match(String(missing?.message ?? ""), /opening/);
});

test('"Add opening" inserts a snippet with a placeholder, not an empty text', async () => {
  const { uri, diagnostics } = await diagnosticsOf(`name: demo\nuser:\n  goal: g\n${TAIL}`);
  const required = diagnostics.filter((d) => d.code === "schema-required");
  const actions = (await client.request(
    client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: required[0]!.range,
      context: { diagnostics: required },
    }),
    "code actions",
  )) as CodeAction[];
  const add = actions.find((a) => a.title === 'Add "opening"');
  const change = add?.edit?.documentChanges?.[0];
  assert.ok(change && "edits" in change, JSON.stringify(add));
  const edit = change.edits[0] as unknown as { snippet?: { kind: string; value: string } };
  assert.deepEqual(edit.snippet, { kind: "snippet", value: '\n  opening: "${1:opening}"' });
});

test("`reference:` completion offers initial and the ancestors only", async () => {
  const text = `name: demo\nuser: { goal: g, opening: o }\n${TAIL}milestones:\n  - id: first\n    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]\n  - id: second\n    constraints:\n      - kind: update\n        table: CONTACT\n        reference: \n        target: [{ name: x }]\n  - id: third\n    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]\n`;
  const { uri } = await diagnosticsOf(text);
  const position = positionOf(text, "        reference: ", 0, "        reference: ".length);
  const answer = await client.request(
    client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position }),
    "completion",
  );
  const items: CompletionItem[] = Array.isArray(answer) ? answer : (answer?.items ?? []);
  assert.deepEqual(items.map((i) => i.label).sort(), ["first", "initial"]);
});

test("an unclosed `[` is reported on the line that opens it", async () => {
  const text = `name: demo\nuser: { goal: g, opening: o }\nmilestones:\n  - id: a\n    after: [b, c\n    constraints:\n      - { kind: snapshot, table: SETTING, target: [{ wifi: true }] }\n${TAIL}`;
  const { diagnostics } = await diagnosticsOf(text);
  assert.equal(diagnostics[0]?.range.start.line, 4, JSON.stringify(diagnostics));
  assert.equal(diagnostics[0]?.range.start.character, "    after: ".length);
});
