// Hover on a milestone shows its result in the last run: the server watches the workspace's
// trajectory files and picks the newest run of the scenario open in the editor.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DidChangeWatchedFilesNotification, FileChangeType, HoverRequest, type MarkupContent } from "vscode-languageserver/node";
import { buildServer, LspClient, positionOf, SERVER, uriOf } from "./client.js";

const TEXT = readFileSync("sample-scenarios/cellular_off.scenario.yaml", "utf8");

let dir: string;
let client: LspClient;

before(async () => {
  buildServer();
  dir = mkdtempSync(join(tmpdir(), "toolsandbox-lsp-last-run-"));
  client = LspClient.start([SERVER, "--stdio"]);
  await client.initialize(dir);
});

after(() => {
  client.kill();
  rmSync(dir, { recursive: true, force: true });
});

async function hoverOn(uri: string, needle: string): Promise<string> {
  const position = positionOf(TEXT, needle, 0, needle.length - 2);
  const hover = await client.request(client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position }), "hover");
  return (hover?.contents as MarkupContent | undefined)?.value ?? "";
}

test("the server asks the client to watch trajectory files", async () => {
  await client.registration();
  assert.deepEqual(client.registered, [
    { method: "workspace/didChangeWatchedFiles", registerOptions: { watchers: [{ globPattern: "**/*.trajectory.jsonl" }] } },
  ]);
});

test("a milestone's hover gains its last-run result once a run of the scenario is saved", async () => {
  const uri = uriOf(join(dir, "cellular.scenario.yaml"));
  await client.open(uri, TEXT);
  await client.diagnostics((p) => p.uri === uri && p.version === 1, "diagnostics after open");
  const before = await hoverOn(uri, "- id: cellular_off");
  assert.match(before, /cellular_off/);
  assert.doesNotMatch(before, /Last run/);

  mkdirSync(join(dir, "runs"));
  const saved = join(dir, "runs", "cellular_off.trajectory.jsonl");
  copyFileSync("sample-scenarios/trajectories/cellular_off.trajectory.jsonl", saved);
  await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf(saved), type: FileChangeType.Created }] });

  assert.match(await hoverOn(uri, "- id: cellular_off"), /\*\*Last run:\*\* matched at message 17/);
  assert.match(await hoverOn(uri, "- id: confirmed"), /\*\*Last run:\*\* matched at message \d+/);
});
