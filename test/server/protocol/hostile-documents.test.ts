// Hostile documents sent to the built server over the real protocol (issue 18, item 3): an alias
// bomb, nesting 800 levels deep, 50,000 lines, a 20 MB line, more milestones than the limit. Each
// gets its diagnostics (past a limit of docs/limits.md exactly one, naming the limit); requests
// on it answer; another file keeps being served after each; and the server's peak memory stays
// under 500 MB. How long each blocks the server is a figure of `npm run bench:hostile`, not a
// timed assertion here.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  CompletionRequest,
  DocumentSymbolRequest,
  HoverRequest,
  type CompletionItem,
  type PublishDiagnosticsParams,
} from "vscode-languageserver/node";
import {
  aliasBomb,
  BASE_SCENARIO,
  deepBlockNesting,
  deepFlowNesting,
  longLine,
  manyLines,
  manyMilestones,
} from "../../fixtures/hostile-documents.js";
import { requireServerBuild, LspClient, positionOf, SERVER, sampleWorkspace, uriOf } from "./client.js";

/** Issue 18's bound on the server's memory with every hostile document open at once. */
const PEAK_MEMORY_MB = 500;

const HOSTILE: readonly { readonly name: string; readonly text: () => string; readonly codes: readonly string[] }[] = [
  { name: "alias-bomb", text: aliasBomb, codes: ["yaml-syntax"] },
  { name: "flow-800", text: () => deepFlowNesting(800), codes: ["limit-nesting-depth"] },
  { name: "block-800", text: () => deepBlockNesting(800), codes: ["limit-nesting-depth"] },
  { name: "lines-50000", text: () => manyLines(50_000), codes: [] },
  { name: "line-20mb", text: () => longLine(20_000_000), codes: ["limit-file-size"] },
  { name: "milestones-10000", text: () => manyMilestones(10_000), codes: ["too-many-milestones"] },
];

let dir = "";
let client: LspClient;

before(async () => {
  requireServerBuild();
  dir = sampleWorkspace("toolsandbox-lsp-hostile-");
  client = LspClient.start([SERVER, "--stdio"]);
  await client.initialize(dir);
});

after(() => {
  client.kill();
  rmSync(dirname(dir), { recursive: true, force: true });
});

const publishedFor = (uri: string, version: number) => (p: PublishDiagnosticsParams) => p.uri === uri && p.version === version;

/** The ordinary file edited between hostile ones: each edit must still get its diagnostics. */
let otherVersion = 0;

async function otherFileStillServed(): Promise<void> {
  const OTHER = uriOf(join(dir, "other.scenario.yaml"));
  otherVersion++;
  // Odd versions carry a typo in a tool name, even ones are the sample itself.
  const text =
    otherVersion % 2 === 1 ? BASE_SCENARIO.replace("tool: set_cellular_service_status", "tool: set_cellular_service_statu") : BASE_SCENARIO;
  if (otherVersion === 1) await client.open(OTHER, text);
  else await client.change(OTHER, otherVersion, [{ text }]);
  const published = await client.diagnostics(publishedFor(OTHER, otherVersion), `diagnostics of the other file, version ${otherVersion}`);
  assert.equal(
    published.diagnostics.some((d) => d.code === "unknown-tool"),
    otherVersion % 2 === 1,
  );
  const position = positionOf(text, "tool: set_cellular", 0, "tool: ".length);
  const completion = await client.request(
    client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: OTHER }, position }),
    "completion in the other file",
  );
  const items: CompletionItem[] = Array.isArray(completion) ? completion : (completion?.items ?? []);
  assert.ok(items.some((i) => i.label === "set_cellular_service_status"));
}

for (const hostile of HOSTILE) {
  test(`${hostile.name}: its diagnostics (${hostile.codes.length === 0 ? "none" : hostile.codes.join(", ")}), requests on it answer, another file is still served`, async () => {
    const uri = uriOf(join(dir, `${hostile.name}.scenario.yaml`));
    const text = hostile.text();
    await client.open(uri, text);
    const published = await client.diagnostics(publishedFor(uri, 1), `diagnostics of ${hostile.name}`);
    assert.deepEqual(
      published.diagnostics.map((d) => String(d.code)),
      hostile.codes,
      published.diagnostics.map((d) => String(d.message)).join("\n"),
    );
    for (const d of published.diagnostics) assert.doesNotMatch(String(d.message), /call stack|\n/);
    const position = positionOf(text, "tool: set_cellular", 0, "tool: ".length);
    await client.request(
      client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position }),
      `completion in ${hostile.name}`,
    );
    await client.request(client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position }), `hover in ${hostile.name}`);
    await client.request(
      client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } }),
      `symbols of ${hostile.name}`,
    );
    await otherFileStillServed();
  });
}

test(`the server's peak memory with all of them open stays under ${PEAK_MEMORY_MB} MB`, (t) => {
  const pid = client.pid;
  assert.ok(pid !== undefined, "the server process has an id");
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const peakKb = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1]);
  assert.ok(Number.isFinite(peakKb), "VmHWM is in /proc/<pid>/status");
  t.diagnostic(`peak resident memory ${Math.round(peakKb / 1024)} MB`);
  assert.ok(peakKb / 1024 < PEAK_MEMORY_MB, `peak resident memory ${Math.round(peakKb / 1024)} MB`);
});
