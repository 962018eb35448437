// The hover on a milestone speaks of the run the editor shows, when the client says which
// (`toolsandbox/shownResults`): a re-score of the unsaved text, a run still going, an errored run.
// Without it, or once the client shows nothing, the newest saved run. What a client sends is
// checked at the wire: a malformed notification changes nothing.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DidChangeWatchedFilesNotification, FileChangeType, HoverRequest, type MarkupContent } from "vscode-languageserver/node";
import { missedRun, SAVED_RUN } from "../saved-runs.js";
import { requireServerBuild, LspClient, positionOf, SERVER, uriOf } from "./client.js";

const TEXT = readFileSync("sample-scenarios/cellular_off_adapted.scenario.yaml", "utf8");
const METHOD = "toolsandbox/shownResults";

let dir: string;
let client: LspClient;
let uri: string;

before(async () => {
  requireServerBuild();
  dir = mkdtempSync(join(tmpdir(), "toolsandbox-lsp-shown-"));
  mkdirSync(join(dir, "runs"));
  const saved = join(dir, "runs", "cellular_off_adapted.trajectory.jsonl");
  copyFileSync(SAVED_RUN, saved);
  client = LspClient.start([SERVER, "--stdio"]);
  await client.initialize(dir);
  await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: uriOf(saved), type: FileChangeType.Created }],
  });
  uri = uriOf(join(dir, "cellular.scenario.yaml"));
  await client.open(uri, TEXT);
  await client.diagnostics((p) => p.uri === uri && p.version === 1, "diagnostics after open");
});

after(() => {
  client.kill();
  rmSync(dir, { recursive: true, force: true });
});

async function hoverOnCellularOff(): Promise<string> {
  const needle = "- id: cellular_off";
  const position = positionOf(TEXT, needle, 0, needle.length - 2);
  const hover = await client.request(client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position }), "hover");
  return (hover?.contents as MarkupContent | undefined)?.value ?? "";
}

/** The evaluation of the saved run with `cellular_off` missed, as the editor would hold a re-score. */
function missedEvaluation(): unknown {
  const last = missedRun().trimEnd().split("\n").pop() ?? "";
  return (JSON.parse(last) as { result: unknown }).result;
}

test("without a word from the client, the hover gives the newest saved run", async () => {
  assert.match(await hoverOnCellularOff(), /\*\*Last run:\*\* matched at message 18/);
});

test("a re-score the editor shows is what the hover says, named as a re-score", async () => {
  await client.connection.sendNotification(METHOD, { uri, shown: { state: "scored", result: missedEvaluation(), rescored: true } });
  const text = await hoverOnCellularOff();
  assert.match(text, /\*\*Shown run \(re-scored against the text as it is now\):\*\* missed \(best similarity 0\.50/);
  assert.doesNotMatch(text, /Last run|matched at message 18/);
});

test("a run still going, and an errored run, say so and give no result", async () => {
  await client.connection.sendNotification(METHOD, { uri, shown: { state: "running" } });
  assert.match(await hoverOnCellularOff(), /\*\*Shown run:\*\* still going; no results yet\./);
  await client.connection.sendNotification(METHOD, { uri, shown: { state: "errored", reason: "errored (role_error): exited *badly*" } });
  const errored = await hoverOnCellularOff();
  assert.match(
    errored,
    /\*\*Shown run:\*\* errored \\\(role\\_error\\\): exited \\\*badly\\\*; no score\./,
    "the reason is text, not Markdown",
  );
  assert.doesNotMatch(errored, /matched/);
});

test("a malformed notification changes nothing; null hands the hover back to the saved run", async () => {
  await client.connection.sendNotification(METHOD, { uri, shown: { state: "scored", result: { score: 2 }, rescored: false } });
  await client.connection.sendNotification(METHOD, { uri: 7, shown: null });
  await client.connection.sendNotification(METHOD, { uri, shown: { state: "later" } });
  assert.match(await hoverOnCellularOff(), /\*\*Shown run:\*\* errored/, "the last good notification stands");
  await client.connection.sendNotification(METHOD, { uri, shown: null });
  assert.match(await hoverOnCellularOff(), /\*\*Last run:\*\* matched at message 18/);
});
