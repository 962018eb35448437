// The per-pack names in schemas/scenario.schema.json, generated from the packs: table names, their
// columns and tool names, for plain YAML tooling (yaml-language-server through the `yamlValidation`
// entry or the modeline) to offer. They sit in the schema's top-level `allOf` as one `if`/`then`/
// `else` on `world.pack` (ToolSandbox when none is written).
//
// The hints only annotate: names are `examples` and columns are `properties` with a description,
// never an enum or a type. So the schema accepts exactly what it accepted before, and the
// scenario checker stays the one owner of "no such table / tool / column" (with did-you-mean);
// the two never disagree.
//
//   node --import tsx scripts/schema-pack-hints.ts          rewrite the schema's allOf
//   (test/scenario/schema-pack-hints.test.ts fails when the schema and the packs differ)
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PACKS } from "../engine/packs/registry.js";
import { DEFAULT_PACK_ID, type WorldPack } from "../engine/packs/types.js";
import type { TableSchema } from "../engine/world/types.js";

type Json = Record<string, unknown>;

export const SCHEMA_PATH = join(__dirname, "..", "schemas", "scenario.schema.json");

/** The message bus, a table every pack's constraints may name. */
const SANDBOX = "SANDBOX";

/** The schema's top-level `allOf`: one `if`/`then`/`else` per pack beyond the default. */
export function packHintsAllOf(): Json[] {
  const byId = new Map(PACKS.map((p) => [p.id, p]));
  const fallback = byId.get(DEFAULT_PACK_ID);
  if (!fallback) throw new Error(`no pack ${DEFAULT_PACK_ID}`);
  // Nested else-branches: pack A ? hints(A) : pack B ? hints(B) : hints(default).
  let chain: Json = packHints(fallback);
  for (const pack of [...PACKS].reverse()) {
    if (pack.id === DEFAULT_PACK_ID) continue;
    chain = {
      if: { required: ["world"], properties: { world: { required: ["pack"], properties: { pack: { const: pack.id } } } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword; this object is schema data, never awaited
      then: packHints(pack),
      else: chain,
    };
  }
  return [chain];
}

function packHints(pack: WorldPack): Json {
  const tools = pack.tools.filter((t) => t.visibleTo.includes("agent")).map((t) => t.name);
  const tables = [...pack.schemas.values()];
  const toolName = { examples: tools };
  const milestone = { properties: { constraints: { items: constraintHints(tables) } } };
  return {
    properties: {
      world: { properties: Object.fromEntries(tables.map((t) => [t.name, worldTableHints(t)])) },
      tools: { properties: { allow: { items: toolName }, deny: { items: toolName } } },
      milestones: { items: milestone },
      minefields: { items: milestone },
      reference: { items: { properties: { calls: { items: { properties: { tool: toolName } } } } } },
    },
  };
}

/** A row of the table: its columns as properties, with their descriptions. */
function rowHints(table: TableSchema): Json {
  return { properties: Object.fromEntries(table.columns.map((c) => [c.name, { description: c.description }])) };
}

function worldTableHints(table: TableSchema): Json {
  const row = rowHints(table);
  if (table.singleton) return { description: table.description, ...row };
  return {
    description: table.description,
    properties: {
      replace: { items: row },
      add: { items: row },
      update: { items: { properties: { where: row, set: row } } },
      remove: { items: { properties: { where: row } } },
    },
  };
}

/** `table:` offers the pack's tables; `target:` rows offer the columns of the table written. */
function constraintHints(tables: readonly TableSchema[]): Json {
  return {
    properties: { table: { examples: [...tables.map((t) => t.name), SANDBOX] } },
    allOf: tables.map((t) => ({
      if: { required: ["table"], properties: { table: { const: t.name } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword; this object is schema data, never awaited
      then: { properties: { target: { items: rowHints(t) } } },
    })),
  };
}

/**
 * The schema text with its `allOf` replaced by the generated one, placed just before `definitions`.
 * Only that block is rewritten: the hand-written rest keeps its formatting.
 */
export function schemaWithHints(text: string): string {
  const marker = '\n  "definitions": {';
  const at = text.indexOf(marker);
  if (at < 0) throw new Error("schemas/scenario.schema.json: no top-level definitions");
  const start = text.indexOf('\n  "allOf": [');
  const head = start >= 0 && start < at ? text.slice(0, start) : text.slice(0, at);
  const block = JSON.stringify(packHintsAllOf(), null, 2).replace(/\n/g, "\n  ");
  const out = `${head.replace(/,?$/, ",")}\n  "allOf": ${block},${text.slice(at)}`;
  JSON.parse(out);
  return out;
}

if (require.main === module) {
  const before = readFileSync(SCHEMA_PATH, "utf8");
  const after = schemaWithHints(before);
  writeFileSync(SCHEMA_PATH, after);
  console.log(before === after ? "schemas/scenario.schema.json: unchanged" : "schemas/scenario.schema.json: per-pack names rewritten");
}
