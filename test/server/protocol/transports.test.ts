// One server, three ways in: dist/server.js over stdio (Neovim, Helix, Emacs), over Node IPC
// (how VS Code starts it), and `toolsandbox lsp --stdio` from the CLI bundle.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { requireServerBuild, CLI, LspClient, SERVER, sampleWorkspace, uriOf } from "./client.js";

const TEXT = readFileSync("sample-scenarios/cellular_off_adapted.scenario.yaml", "utf8");
/** A misspelt column in the milestone's target. */
const BROKEN = TEXT.replace("target: [{ cellular: false }]", "target: [{ celular: false }]");

let dir: string;
const clients: LspClient[] = [];

before(() => {
  requireServerBuild();
  dir = sampleWorkspace("toolsandbox-lsp-transports-");
});

after(() => {
  for (const c of clients) c.kill();
  rmSync(dirname(dir), { recursive: true, force: true });
});

/** initialize, open a broken file, read its diagnostics, shut down: what every editor does first. */
async function session(client: LspClient): Promise<void> {
  clients.push(client);
  const { serverInfo } = await client.initialize(dir);
  assert.equal(serverInfo?.name, "toolsandbox-language-server");
  const uri = uriOf(join(dir, "cellular.scenario.yaml"));
  await client.open(uri, BROKEN);
  const published = await client.diagnostics((p) => p.uri === uri && p.version === 1, "diagnostics after open");
  assert.deepEqual(
    published.diagnostics.map((d) => [d.code, d.message]),
    [["unknown-column", 'SETTING has no column "celular". Did you mean "cellular"?']],
  );
  assert.equal(await client.shutdown(), 0);
  assert.equal(client.stderr.join(""), "", "nothing on stderr");
}

test("dist/server.js --stdio", async () => {
  await session(LspClient.start([SERVER, "--stdio"]));
});

test("dist/server.js --node-ipc, as VS Code starts it", async () => {
  await session(LspClient.start([SERVER, "--node-ipc"], "ipc"));
});

test("toolsandbox lsp --stdio starts the same server", async () => {
  await session(LspClient.start([CLI, "lsp", "--stdio"]));
});

test("toolsandbox lsp with no transport option speaks stdio too", async () => {
  await session(LspClient.start([CLI, "lsp"]));
});
