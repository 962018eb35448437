// Issue 39, item 9, over JSON-RPC against the built server: with `timezone:` indented under
// `now:` (a YAML syntax error, reported as one), completion there still lists the time zones.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompletionRequest, type CompletionItem } from "vscode-languageserver/node";
import { LspClient, requireServerBuild, SERVER, uriOf } from "./client.js";

const TEXT = `name: broken_indent
user: { goal: Ask the time., opening: What time is it? }
clock:
  now: 2026-05-20T08:30:00
    timezone: Eu
`;

let dir: string;
let client: LspClient;
let uri: string;

before(async () => {
  requireServerBuild();
  dir = mkdtempSync(join(tmpdir(), "toolsandbox-lsp-indent-"));
  client = LspClient.start([SERVER, "--stdio"]);
  await client.initialize(dir);
  uri = uriOf(join(dir, "broken.scenario.yaml"));
  await client.open(uri, TEXT);
});

after(() => {
  client.kill();
  rmSync(dir, { recursive: true, force: true });
});

test("a syntax error is reported on the misindented line, and completion there offers the time zones", async () => {
  const published = await client.diagnostics((p) => p.uri === uri && p.version === 1, "diagnostics after open");
  assert.ok(
    published.diagnostics.some((d) => d.severity === 1 && d.range.start.line === 3),
    `a syntax error at the \`now:\` line: ${published.diagnostics.map((d) => `${d.range.start.line}: ${d.message}`).join(" | ")}`,
  );
  const position = { line: 4, character: "    timezone: Eu".length };
  const answer = await client.request(
    client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position }),
    "completion",
  );
  const items: CompletionItem[] = Array.isArray(answer) ? answer : (answer?.items ?? []);
  const berlin = items.find((i) => i.label === "Europe/Berlin");
  assert.ok(
    berlin,
    `time zones offered: ${items
      .slice(0, 6)
      .map((i) => i.label)
      .join(", ")}`,
  );
  assert.ok(berlin.textEdit && "range" in berlin.textEdit);
  assert.deepEqual(
    berlin.textEdit.range,
    { start: { line: 4, character: 14 }, end: { line: 4, character: 16 } },
    "it replaces the `Eu` typed",
  );
});
