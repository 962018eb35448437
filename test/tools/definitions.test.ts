// Checks on the tool definitions themselves: the catalog derives the model-facing schema from the
// docstring, so the docstring and the parameter list must agree.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CONTACT_TOOLS } from "../../engine/packs/toolsandbox/tools/contact.js";
import { MESSAGING_TOOLS } from "../../engine/packs/toolsandbox/tools/messaging.js";
import { REMINDER_TOOLS } from "../../engine/packs/toolsandbox/tools/reminder.js";
import { SETTING_TOOLS } from "../../engine/packs/toolsandbox/tools/setting.js";
import type { ToolDefinition } from "../../engine/tools/types.js";

const GROUPS = [
  { tools: CONTACT_TOOLS, module: "contact", domain: "Contact" },
  { tools: MESSAGING_TOOLS, module: "messaging", domain: "Messaging" },
  { tools: REMINDER_TOOLS, module: "reminder", domain: "Reminder" },
  { tools: SETTING_TOOLS, module: "setting", domain: "Setting" },
] as const;
const ALL: readonly ToolDefinition[] = GROUPS.flatMap((g) => g.tools);

/** Reads a Google-style docstring the way upstream's schema conversion does (reference 3.7). */
function parseDocstring(doc: string) {
  const blocks = doc.split(/\n\s*\n/);
  const isSection = (b: string) => /^(Args|Returns|Example):/.test(b.trim());
  const first = blocks.findIndex(isSection);
  const summary = blocks.slice(0, first === -1 ? blocks.length : first).join(" ");
  const args: [string, string][] = [];
  const argsBlock = blocks.find((b) => b.trim().startsWith("Args:"));
  for (const line of argsBlock?.trim().split("\n").slice(1) ?? []) {
    const entry = /^\s*(\w+): (.*)$/.exec(line);
    if (entry) args.push([entry[1]!, entry[2]!]);
    else args[args.length - 1]![1] += ` ${line.trim()}`;
  }
  return { summary, args, hasArgs: argsBlock !== undefined, hasReturns: blocks.some((b) => b.trim().startsWith("Returns:")) };
}

test("the tool arrays hold the 19 local tools, each sorted by name", () => {
  for (const { tools } of GROUPS) {
    const names = tools.map((t) => t.name);
    assert.deepEqual(names, [...names].sort());
  }
  assert.equal(new Set(ALL.map((t) => t.name)).size, 19);
});

test("every docstring lists exactly the parameters, in order, with their descriptions", () => {
  for (const def of ALL) {
    const doc = parseDocstring(def.docstring);
    assert.ok(doc.summary.length > 0, def.name);
    assert.deepEqual(
      doc.args,
      def.parameters.map((p) => [p.name, p.description]),
      def.name,
    );
    // Upstream's quirks: no Args section without arguments; modify_reminder has no Returns section.
    assert.equal(doc.hasArgs, def.parameters.length > 0, def.name);
    assert.equal(doc.hasReturns, def.name !== "modify_reminder", def.name);
  }
});

test("module, domain, visibility and backing are filled in", () => {
  for (const { tools, module, domain } of GROUPS) {
    for (const def of tools) {
      assert.equal(def.module, module, def.name);
      assert.equal(def.domain, domain, def.name);
      assert.deepEqual(def.visibleTo, ["agent"], def.name);
      assert.equal(def.webBacked, false, def.name);
      assert.ok(
        def.errors.every((e) => /^[\w.]+: /.test(e)),
        def.name,
      );
    }
  }
});

test("exactly the tools that change the world are actions", () => {
  const actions = ALL.filter((t) => t.action)
    .map((t) => t.name)
    .sort();
  assert.deepEqual(actions, [
    "add_contact",
    "add_reminder",
    "modify_contact",
    "modify_reminder",
    "remove_contact",
    "remove_reminder",
    "send_message_with_phone_number",
    "set_cellular_service_status",
    "set_location_service_status",
    "set_low_battery_mode_status",
    "set_wifi_status",
  ]);
});

test("only search_contacts and the setting tools skip the automatic type check", () => {
  const unchecked = ALL.filter((t) => !t.typechecked).map((t) => t.name);
  assert.deepEqual(unchecked, ["search_contacts", ...SETTING_TOOLS.map((t) => t.name)]);
});

test("parameters are consistent: required ones have no default, nullable ones say Optional", () => {
  for (const def of ALL) {
    for (const p of def.parameters) {
      const where = `${def.name}.${p.name}`;
      if (p.required) assert.equal(p.default, undefined, where);
      if (p.nullable) assert.match(p.annotation, /Optional|NoneType/, where);
      if (p.default === null) assert.equal(p.nullable, true, where);
      if (!p.required && p.default === undefined) assert.match(p.annotation, /NotGiven/, where);
    }
  }
});

test("timestamps are numbers in the return schemas and flagged as timestamps in the parameters", () => {
  for (const def of ALL) {
    for (const p of def.parameters) {
      if (p.name.includes("timestamp")) assert.equal(p.timestamp, true, `${def.name}.${p.name}`);
      else assert.equal(p.timestamp, undefined, `${def.name}.${p.name}`);
    }
  }
  const items = (name: string) => {
    const schema = ALL.find((t) => t.name === name)?.returns.schema;
    return JSON.stringify(schema);
  };
  assert.match(items("search_messages"), /"creation_timestamp":\{"type":"number"\}/);
  assert.match(items("search_reminder"), /"reminder_timestamp":\{"type":"number"\}/);
  assert.match(items("get_current_location"), /"latitude":\{"type":"number"\}/);
});
