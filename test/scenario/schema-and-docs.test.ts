import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { CATEGORIES } from "../../engine/scenario/model.js";
import { SCENARIO_SCHEMA } from "../../engine/scenario/schema-diagnostics.js";
import { EXTRACTOR_NAMES } from "../../engine/scenario/extractors.js";
import { ROLE_NAMES } from "../../engine/episode/types.js";
import { packTables } from "../../engine/packs/tables.js";
import { PACK_IDS } from "../../engine/packs/types.js";
import { check, describe, expectClean } from "./helpers.js";

// The schema and the documentation restate facts the code owns; these tests keep them in step.
const definitions = SCENARIO_SCHEMA.definitions as Record<string, Record<string, unknown>>;
const properties = SCENARIO_SCHEMA.properties as Record<string, Record<string, unknown>>;
const docs = readFileSync(join(__dirname, "..", "..", "docs", "scenario-format.md"), "utf8");

test("the schema's enums match the model, the packs and the roles", () => {
  assert.deepEqual((properties.categories!.items as { enum: string[] }).enum, [...CATEGORIES]);
  assert.deepEqual(definitions.role!.enum, [...ROLE_NAMES]);
  const world = definitions.world!;
  assert.deepEqual(Object.keys(world.properties as object), ["pack", "base"]);
  assert.deepEqual((world.properties as Record<string, { enum: string[] }>).pack!.enum, [...PACK_IDS]);
  // Table names are the pack's, checked by the scenario checker; the schema only asks for capitals.
  const pattern = new RegExp(Object.keys(world.patternProperties as object)[0]!);
  for (const id of PACK_IDS) for (const table of packTables(id).schemas.keys()) assert.match(table, pattern, `${id} ${table}`);
  assert.equal(definitions.table!.pattern, definitions.worldTable!.pattern);
});

test("the documentation lists exactly the extractors the checker knows", () => {
  const label = "`extractor` names:";
  const section = docs.slice(docs.indexOf(label) + label.length, docs.indexOf("`extract` rules:"));
  const documented = [...section.matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1]);
  assert.deepEqual(documented, [...EXTRACTOR_NAMES]);
});

test("the complete example in the documentation checks clean", () => {
  const first = /```yaml\n([\s\S]*?)```/.exec(docs)![1]!;
  const s = expectClean(check(first));
  assert.equal(s.name, "send_message_with_contact_content_cellular_off");
});

test("every top-level and constraint example in the documentation is valid in a scenario", () => {
  const base = parse(/```yaml\n([\s\S]*?)```/.exec(docs)![1]!) as Record<string, unknown>;
  delete base.milestones;
  delete base.tools;
  base.reference = [{ agent: "Done." }, { end_conversation: true }];
  const blocks = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).slice(1);
  let checked = 0;
  for (const block of blocks) {
    let fragment: string;
    if (/^[a-z_]+:/m.test(block.split("\n").find((l) => l.trim() !== "" && !l.trim().startsWith("#")) ?? "")) fragment = block;
    else if (block.startsWith("      - kind:")) {
      // A constraint list: run it in a milestone that comes after one called found_contact.
      fragment = `milestones:\n  - id: found_contact\n    constraints:\n      - { kind: snapshot, table: SETTING, target: [{ wifi: true }] }\n  - id: m\n    constraints:\n${block}`;
    } else continue;
    const merged = { ...base, ...(parse(fragment) as Record<string, unknown>) };
    const result = check(stringify(merged));
    assert.ok(result.scenario, `${block.slice(0, 80)}\n${describe(result)}`);
    checked++;
  }
  assert.ok(checked >= 16, `only ${checked} examples were checked`);
});
