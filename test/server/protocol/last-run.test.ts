// Hover on a milestone shows its result in the last run: the server watches the workspace's
// trajectory files and picks the newest run of the scenario open in the editor, wherever the
// extension wrote it (.toolsandbox/runs, or the folder the toolsandbox.runsFolder setting names).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  HoverRequest,
  type MarkupContent,
} from "vscode-languageserver/node";
import { missedRun, setTime } from "../saved-runs.js";
import { requireServerBuild, LspClient, positionOf, SERVER, uriOf } from "./client.js";

const TEXT = readFileSync("sample-scenarios/cellular_off_adapted.scenario.yaml", "utf8");

let dir: string;
let client: LspClient;
const dirs: string[] = [];
const clients: LspClient[] = [];

before(async () => {
  requireServerBuild();
  dir = mkdtempSync(join(tmpdir(), "toolsandbox-lsp-last-run-"));
  client = LspClient.start([SERVER, "--stdio"]);
  await client.initialize(dir);
});

after(() => {
  client.kill();
  for (const c of clients) c.kill();
  rmSync(dir, { recursive: true, force: true });
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function hoverOn(uri: string, needle: string, by: LspClient = client): Promise<string> {
  const position = positionOf(TEXT, needle, 0, needle.length - 2);
  const hover = await by.request(by.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position }), "hover");
  return (hover?.contents as MarkupContent | undefined)?.value ?? "";
}

const MATCHED = /\*\*Last run:\*\* matched at message 18/;
const MISSED = /\*\*Last run:\*\* missed/;

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
  const saved = join(dir, "runs", "cellular_off_adapted.trajectory.jsonl");
  copyFileSync("sample-scenarios/trajectories/cellular_off_adapted.trajectory.jsonl", saved);
  await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: uriOf(saved), type: FileChangeType.Created }],
  });

  assert.match(await hoverOn(uri, "- id: cellular_off"), /\*\*Last run:\*\* matched at message 18/);
  assert.match(await hoverOn(uri, "- id: confirmed"), /\*\*Last run:\*\* matched at message \d+/);
});

test("a run the extension wrote to <workspace>/.toolsandbox/runs is the last run once it is the newest", async () => {
  const uri = uriOf(join(dir, "cellular.scenario.yaml"));
  await client.open(uri, TEXT, 1);
  const runs = join(dir, ".toolsandbox", "runs");
  mkdirSync(runs, { recursive: true });
  const run = join(runs, "cellular_off_adapted.run-1.trajectory.jsonl");
  writeFileSync(run, missedRun());
  setTime(join(dir, "runs", "cellular_off_adapted.trajectory.jsonl"), 60);
  await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: uriOf(run), type: FileChangeType.Created }],
  });
  assert.match(await hoverOn(uri, "- id: cellular_off"), MISSED);
});

test("the server asks the client for toolsandbox.runsFolder, follows its changes, and looks there", async () => {
  const root = mkdtempSync(join(tmpdir(), "toolsandbox-lsp-runs-folder-"));
  const outside = mkdtempSync(join(tmpdir(), "toolsandbox-lsp-runs-elsewhere-"));
  dirs.push(root, outside);
  mkdirSync(join(root, "out", ".runs"), { recursive: true });
  copyFileSync(
    "sample-scenarios/trajectories/cellular_off_adapted.trajectory.jsonl",
    join(root, "out", ".runs", "cellular_off_adapted.run-1.trajectory.jsonl"),
  );
  writeFileSync(join(outside, "cellular_off_adapted.run-1.trajectory.jsonl"), missedRun());
  setTime(join(outside, "cellular_off_adapted.run-1.trajectory.jsonl"), 60);

  const configured = LspClient.start([SERVER, "--stdio"]);
  clients.push(configured);
  configured.settings = { "toolsandbox.runsFolder": "out/.runs" };
  await configured.initialize(root);
  await configured.configurationRequests(1);
  assert.deepEqual(await configured.registrationOf("workspace/didChangeConfiguration"), {
    method: "workspace/didChangeConfiguration",
    registerOptions: { section: "toolsandbox" },
  });
  const uri = uriOf(join(root, "cellular.scenario.yaml"));
  await configured.open(uri, TEXT);
  assert.match(await hoverOn(uri, "- id: cellular_off", configured), MATCHED, "the run in out/.runs (a hidden folder the walk skips)");

  // The setting now names a folder outside the workspace; the client says the settings changed.
  configured.settings = { "toolsandbox.runsFolder": outside };
  await configured.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
  await configured.configurationRequests(2);
  assert.deepEqual(configured.configurationAsked, ["toolsandbox.runsFolder", "toolsandbox.runsFolder"]);
  assert.match(await hoverOn(uri, "- id: cellular_off", configured), MISSED, "the run in the absolute folder, the only one there");
});
