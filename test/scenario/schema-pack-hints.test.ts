// The schema's per-pack names: generated from the packs (scripts/schema-pack-hints.ts), offered by
// plain YAML tooling, and never an error of their own (the checker owns those).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CompletionRequest, type CompletionItem } from "vscode-languageserver/node";
import { packById } from "../../engine/packs/registry.js";
import { SCHEMA_PATH, schemaWithHints } from "../../scripts/schema-pack-hints.js";
import { LspClient, uriOf } from "../server/protocol/client.js";
import { check, describe } from "./helpers.js";

test("the schema's per-pack names are the packs' (else: node --import tsx scripts/schema-pack-hints.ts)", () => {
  const text = readFileSync(SCHEMA_PATH, "utf8");
  assert.ok(schemaWithHints(text) === text, "schemas/scenario.schema.json differs from the packs' tables and tools");
});

test("the hints add no schema error: an unknown table, tool and column are the checker's errors only", () => {
  const result = check(
    [
      "name: hints",
      "world:",
      "  SETTING: { cellular: false, no_such_column: 1 }",
      "tools:",
      "  allow: [no_such_tool]",
      "user:",
      "  goal: g",
      "  opening: o",
      "milestones:",
      "  - id: m",
      "    constraints:",
      "      - { kind: snapshot, table: NO_SUCH_TABLE, target: [{ x: 1 }] }",
      "reference:",
      "  - agent: Done.",
      "",
    ].join("\n"),
  );
  const codes = result.diagnostics.map((d) => d.code);
  assert.ok(!codes.some((c) => c.startsWith("schema")), describe(result));
  assert.ok(result.diagnostics.length >= 3, describe(result));
});

// ---------------------------------------------------------------------------------------------
// yaml-language-server, given the schema by a modeline, offers the names of the pack written.

const YAML_LS = require.resolve("yaml-language-server/bin/yaml-language-server");
let dir: string;
let yamlLs: LspClient;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "toolsandbox-schema-hints-"));
  yamlLs = LspClient.start([YAML_LS, "--stdio"]);
  await yamlLs.initialize(dir);
});

after(() => {
  yamlLs.kill();
  rmSync(dir, { recursive: true, force: true });
});

let opened = 0;
/** The labels yaml-language-server offers at `$0` in `text` (modeline added). */
async function labelsAt(text: string): Promise<string[]> {
  const full = `# yaml-language-server: $schema=${pathToFileURL(SCHEMA_PATH).href}\n${text}`;
  const offset = full.indexOf("$0");
  const source = full.replace("$0", "");
  const before = source.slice(0, offset);
  const position = { line: before.split("\n").length - 1, character: offset - (before.lastIndexOf("\n") + 1) };
  const uri = uriOf(join(dir, `doc${++opened}.scenario.yaml`));
  await yamlLs.open(uri, source);
  const answer = await yamlLs.request(
    yamlLs.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position }),
    "completion",
  );
  const items: CompletionItem[] = Array.isArray(answer) ? answer : (answer?.items ?? []);
  return items.map((i) => i.label);
}

const toolsandbox = packById("toolsandbox");
const tooltalk = packById("tooltalk");
const agentTools = (pack: typeof toolsandbox): string[] => pack.tools.filter((t) => t.visibleTo.includes("agent")).map((t) => t.name);

function milestoneWith(world: string, constraint: string): string {
  return `name: x\n${world}user: { goal: g, opening: o }\nmilestones:\n  - id: m\n    constraints:\n${constraint}\nreference:\n  - agent: Done.\n`;
}

for (const [pack, world] of [
  [toolsandbox, ""],
  [tooltalk, "world:\n  pack: tooltalk\n"],
] as const) {
  test(`yaml-language-server offers ${pack.id}'s table names after \`table:\`, and only them`, async () => {
    const labels = await labelsAt(milestoneWith(world, "      - kind: snapshot\n        table: $0\n        target: [{ a: 1 }]"));
    const tables = [...pack.schemas.keys()];
    for (const t of [...tables, "SANDBOX"]) assert.ok(labels.includes(t), `${t} in ${labels.join(", ")}`);
    const other = pack.id === "toolsandbox" ? tooltalk : toolsandbox;
    for (const t of other.schemas.keys()) if (!tables.includes(t)) assert.ok(!labels.includes(t), `${t} (another pack's) offered`);
  });

  test(`yaml-language-server offers ${pack.id}'s tool names in \`tools.allow\` and a reference call`, async () => {
    const allow = await labelsAt(
      `name: x\n${world}tools:\n  allow:\n    - $0\nuser: { goal: g, opening: o }\nreference:\n  - agent: Done.\n`,
    );
    const call = await labelsAt(`name: x\n${world}user: { goal: g, opening: o }\nreference:\n  - calls:\n      - tool: $0\n`);
    for (const tool of agentTools(pack)) {
      assert.ok(allow.includes(tool), `${tool} in tools.allow: ${allow.join(", ")}`);
      assert.ok(call.includes(tool), `${tool} in a call: ${call.join(", ")}`);
    }
  });

  test(`yaml-language-server offers ${pack.id}'s world tables and their columns`, async () => {
    const tables = [...pack.schemas.values()];
    const keys = await labelsAt(
      `name: x\nworld:\n${world ? "  pack: tooltalk\n" : ""}  $0\nuser: { goal: g, opening: o }\nreference:\n  - agent: Done.\n`,
    );
    for (const t of tables) assert.ok(keys.includes(t.name), `${t.name} in ${keys.join(", ")}`);
    const table = tables.find((t) => !t.singleton)!;
    const columns = await labelsAt(
      `name: x\nworld:\n${world ? "  pack: tooltalk\n" : ""}  ${table.name}:\n    add:\n      - $0\nuser: { goal: g, opening: o }\nreference:\n  - agent: Done.\n`,
    );
    for (const c of table.columns) assert.ok(columns.includes(c.name), `${table.name}.${c.name} in ${columns.join(", ")}`);
    const target = await labelsAt(
      milestoneWith(world, `      - kind: snapshot\n        table: ${table.name}\n        target:\n          - $0`),
    );
    for (const c of table.columns) assert.ok(target.includes(c.name), `${table.name}.${c.name} in a target row: ${target.join(", ")}`);
  });
}
