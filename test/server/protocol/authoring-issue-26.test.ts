// Issue 26, item 7, over the built server as an editor sees it: a YAML syntax error in one section
// no longer hides the findings of the sections that still parse; completion in a milestone marks
// the tools the scenario does not allow and puts them after the others; and a `$schema` modeline
// that points nowhere (a sample copied into a workspace) is a warning saying so, with a quick fix.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CodeActionRequest,
  CompletionRequest,
  type CodeAction,
  type CompletionItem,
  type PublishDiagnosticsParams,
} from "vscode-languageserver/node";
import { requireServerBuild, LspClient, positionOf, SERVER, uriOf } from "./client.js";

const CELLULAR = readFileSync("sample-scenarios/cellular_off_adapted.scenario.yaml", "utf8");
/** The sample without its modeline, so only what a test plants is reported. */
const PLAIN = CELLULAR.split("\n").slice(1).join("\n");
/** A third milestone expecting a call to a tool no pack has. */
const TYPO_MILESTONE = `  - id: called
    constraints:
      - kind: snapshot
        table: SANDBOX
        target:
          - tool_trace: { tool_name: set_celular_service_status, arguments: {} }
`;
const WITH_TYPO = PLAIN.replace("reference:\n", `${TYPO_MILESTONE}reference:\n`);

let dir: string;
let client: LspClient;
let opened = 0;

before(async () => {
  requireServerBuild();
  dir = mkdtempSync(join(tmpdir(), "toolsandbox-lsp-issue-26-"));
  client = LspClient.start([SERVER, "--stdio"]);
  await client.initialize(dir);
});

after(() => {
  client.kill();
  rmSync(dir, { recursive: true, force: true });
});

const publishedFor = (uri: string, version: number) => (p: PublishDiagnosticsParams) => p.uri === uri && p.version === version;
const found = (p: PublishDiagnosticsParams): [number, string][] => p.diagnostics.map((d) => [d.range.start.line, String(d.code)]);

async function openDoc(
  text: string,
  path = join(dir, `doc${++opened}.scenario.yaml`),
): Promise<{ uri: string; published: PublishDiagnosticsParams }> {
  const uri = uriOf(path);
  await client.open(uri, text);
  return { uri, published: await client.diagnostics(publishedFor(uri, 1), `diagnostics of ${path}`) };
}

test("a syntax error in the user section leaves the milestones' unknown tool reported, where it is", async () => {
  const { uri, published } = await openDoc(WITH_TYPO);
  const typoLine = positionOf(WITH_TYPO, "set_celular_service_status").line;
  assert.deepEqual(found(published), [[typoLine, "unknown-tool"]]);

  // Break the goal line: `goal: Turn off: cellular` is a mapping where a value was.
  const goal = positionOf(WITH_TYPO, "  goal: Turn off cellular service.", 0, "  goal: Turn off".length);
  await client.change(uri, 2, [{ range: { start: goal, end: goal }, text: ":" }]);
  const broken = await client.diagnostics(publishedFor(uri, 2), "diagnostics with a syntax error");
  assert.deepEqual(found(broken), [
    [goal.line, "yaml-syntax"],
    [typoLine, "unknown-tool"],
  ]);
  const typo = broken.diagnostics[1]!;
  const at = positionOf(WITH_TYPO, "set_celular_service_status");
  assert.deepEqual(typo.range.start, at, "the finding points at the tool name in the current text");
  assert.match(String(typo.message), /set_cellular_service_status/, "with its suggestion, as before the error");

  // Lines added above the milestones while the error stands: the finding moves with its section.
  await client.change(uri, 3, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: "# a\n# b\n" }]);
  const moved = await client.diagnostics(publishedFor(uri, 3), "diagnostics after lines added above");
  assert.deepEqual(found(moved), [
    [goal.line + 2, "yaml-syntax"],
    [typoLine + 2, "unknown-tool"],
  ]);
});

test("a file opened with a syntax error still reports the other sections' findings", async () => {
  const text = WITH_TYPO.replace("  goal: Turn off cellular service.", "  goal: Turn off: cellular service.");
  const { published } = await openDoc(text);
  assert.deepEqual(found(published), [
    [positionOf(text, "goal:").line, "yaml-syntax"],
    [positionOf(text, "set_celular_service_status").line, "unknown-tool"],
  ]);
});

test("completion of a milestone's tool_name: the allowed tools first, the others after, marked", async () => {
  const text = WITH_TYPO.replace("tool_name: set_celular_service_status", "tool_name: ");
  const { uri } = await openDoc(text);
  const position = positionOf(text, "tool_name: ", 0, "tool_name: ".length);
  const answer = await client.request(
    client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position }),
    "completion",
  );
  const items: CompletionItem[] = Array.isArray(answer) ? answer : (answer?.items ?? []);
  const order = [...items].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label));
  assert.equal(order[0]?.label, "set_cellular_service_status", "the one tool tools.allow lists comes first");
  assert.equal(order[0]?.labelDetails, undefined);
  const other = items.find((i) => i.label === "send_message_with_phone_number");
  assert.equal(other?.detail, 'not allowed in this scenario: tools.allow does not list "send_message_with_phone_number"');
  assert.equal(other?.labelDetails?.description, "not allowed in this scenario");
  // A user's own tool in a trace is not the agent's to be allowed: not marked.
  const end = items.find((i) => i.label === "end_conversation");
  assert.ok(end && !String(end.detail).startsWith("not allowed"), JSON.stringify(end));
});

test("a $schema modeline pointing nowhere is a warning that says so, and the quick fix removes the line", async () => {
  const { uri, published } = await openDoc(CELLULAR);
  assert.deepEqual(found(published), [[0, "schema-not-found"]]);
  const [warning] = published.diagnostics;
  assert.deepEqual(warning?.range, {
    start: { line: 0, character: CELLULAR.indexOf("../") },
    end: { line: 0, character: CELLULAR.indexOf("\n") },
  });
  assert.match(
    String(warning?.message ?? ""),
    /^\$schema points to "\.\.\/schemas\/scenario\.schema\.json", but there is no file at .*schemas\/scenario\.schema\.json/,
  );
  assert.match(String(warning?.message ?? ""), /bundled schema: remove this line, or point it at a copy of scenario\.schema\.json\.$/);
  const actions = (await client.request(
    client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: warning!.range,
      context: { diagnostics: [warning!] },
    }),
    "code actions",
  )) as CodeAction[];
  assert.deepEqual(
    actions.map((a) => [a.title, a.edit?.changes?.[uri]]),
    [
      [
        "Remove the $schema line (the extension supplies the schema)",
        [{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, newText: "" }],
      ],
    ],
  );

  // Where the schema is found (as in the samples folder), there is nothing to say.
  const nested = join(dir, "scenarios");
  mkdirSync(join(dir, "schemas"), { recursive: true });
  mkdirSync(nested, { recursive: true });
  writeFileSync(join(dir, "schemas", "scenario.schema.json"), "{}");
  const { published: fine } = await openDoc(CELLULAR, join(nested, "cellular.scenario.yaml"));
  assert.deepEqual(fine.diagnostics, []);
});
