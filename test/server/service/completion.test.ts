import { test } from "node:test";
import assert from "node:assert/strict";
import type { CompletionItem, CompletionList } from "vscode-languageserver";
import { completion } from "../../../server/service/completion.js";
import { accept, withCursor } from "./cursor.js";

function complete(text: string): { list: CompletionList; doc: ReturnType<typeof withCursor>["doc"] } {
  const { doc, position } = withCursor(text);
  return { list: completion(doc, position), doc };
}

const labels = (list: CompletionList): string[] => list.items.map((i) => i.label);

function item(list: CompletionList, label: string): CompletionItem {
  const found = list.items.find((i) => i.label === label);
  assert.ok(found, `no item "${label}" among ${labels(list).join(", ")}`);
  return found;
}

/** Labels in the order the editor shows them (sortText, then label). */
function sorted(list: CompletionList): string[] {
  return [...list.items].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label)).map((i) => i.label);
}

function docText(i: CompletionItem): string {
  const d = i.documentation;
  return typeof d === "string" ? d : (d?.value ?? "");
}

const HEAD = `name: demo
user: { goal: g, opening: o }
`;

test("keys of a milestone being typed: the schema's keys, minus the ones written, replacing the typed word", () => {
  const text = `${HEAD}milestones:
  - id: sent
    kin$0
`;
  const { list, doc } = complete(text);
  assert.deepEqual(labels(list).sort(), ["after", "constraints", "description", "guardrails"]);
  assert.equal(item(list, "constraints").detail, "required");
  assert.match(accept(doc, item(list, "description")), /\n {4}description: \n/);
  // A list-valued key opens the list on the next line, indented under the key.
  assert.match(accept(doc, item(list, "constraints")), /\n {4}constraints:\n {6}- \n/);
});

test("root keys on an empty line exclude those already present", () => {
  const { list } = complete(`${HEAD}$0`);
  const names = labels(list);
  assert.ok(names.includes("milestones") && names.includes("reference") && names.includes("world"));
  assert.ok(!names.includes("name") && !names.includes("user"));
});

test("a key retyped before its colon is replaced by the name alone", () => {
  const text = `${HEAD}milestones:
  - id: sent
    constraints:
      - ki$0nd: snapshot
`;
  const { list, doc } = complete(text);
  assert.ok(labels(list).includes("kind"));
  assert.match(accept(doc, item(list, "kind")), /- kind: snapshot\n/);
});

test("tool names in tools.allow: every agent tool not yet listed, with its documentation", () => {
  const { list, doc } = complete(`${HEAD}tools:\n  allow: [search_contacts, sen$0]\n`);
  const names = labels(list);
  assert.ok(names.includes("send_message_with_phone_number"));
  assert.ok(!names.includes("search_contacts"), "already listed");
  assert.ok(!names.includes("end_conversation"), "a user tool is not offered to the agent");
  const send = item(list, "send_message_with_phone_number");
  assert.match(send.detail ?? "", /^send_message_with_phone_number\(phone_number: string, content: string\)/);
  assert.match(docText(send), /ConnectionError: Cellular service is not enabled/);
  assert.match(accept(doc, send), /allow: \[search_contacts, send_message_with_phone_number\]/);
});

test("tool names in a reference call: the tools the agent may call come first", () => {
  const text = `${HEAD}tools:
  allow: [search_contacts, add_contact]
reference:
  - calls:
      - tool: $0
`;
  const { list } = complete(text);
  const order = sorted(list);
  assert.deepEqual(order.slice(0, 2), ["add_contact", "search_contacts"]);
  assert.match(item(list, "remove_contact").detail ?? "", /not offered: tools.allow does not list "remove_contact"/);
});

test("argument names under a call's arguments: that tool's parameters with their types, required first", () => {
  const text = `${HEAD}reference:
  - calls:
      - tool: add_reminder
        arguments:
          content: Buy milk
          $0
`;
  const { list } = complete(text);
  assert.deepEqual(sorted(list), ["reminder_timestamp", "latitude", "longitude"]);
  assert.equal(item(list, "reminder_timestamp").detail, "number (required)");
  assert.equal(item(list, "latitude").detail, "number | null");
  assert.match(docText(item(list, "reminder_timestamp")), /time expressions/);
});

test("argument names inside a golden trace's flow mapping", () => {
  const text = `${HEAD}milestones:
  - id: found
    constraints:
      - kind: snapshot
        table: SANDBOX
        target:
          - tool_trace: { tool_name: search_contacts, arguments: { na$0 } }
`;
  const { list } = complete(text);
  assert.deepEqual(labels(list), ["person_id", "name", "phone_number", "relationship", "is_self"]);
});

test("table columns: new CONTACT rows, SANDBOX targets and where conditions", () => {
  const world = complete(`${HEAD}world:\n  CONTACT:\n    add:\n      - name: Lars\n        $0\n`).list;
  assert.deepEqual(labels(world), ["person_id", "phone_number", "relationship", "is_self"]);
  assert.match(item(world, "phone_number").detail ?? "", /string/);

  const sandbox = complete(`${HEAD}milestones:
  - id: told
    constraints:
      - kind: snapshot
        table: SANDBOX
        target:
          - sender: agent
            $0
`).list;
  assert.ok(labels(sandbox).includes("recipient") && labels(sandbox).includes("tool_trace"));
  assert.ok(!labels(sandbox).includes("sender"));

  const where = complete(`${HEAD}world:\n  REMINDER:\n    remove:\n      - where: { con$0 }\n`).list;
  assert.ok(labels(where).includes("content") && labels(where).includes("reminder_id"));
});

test("column measures: only the measures that fit the column, with what each does", () => {
  const text = `${HEAD}milestones:
  - id: located
    constraints:
      - kind: snapshot
        table: SETTING
        target: [{ latitude: 37.3 }]
        measures:
          latitude: { kind: $0 }
`;
  const { list } = complete(text);
  assert.deepEqual(labels(list), ["exact", "close", "any"]);
  assert.match(docText(item(list, "close")), /within `atol`/);
  const keys = complete(`${HEAD}milestones:
  - id: located
    constraints:
      - kind: snapshot
        table: CONTACT
        target: [{ name: x }]
        measures:
          $0
`);
  const name = item(keys.list, "name");
  assert.match(accept(keys.doc, name), /measures:\n {10}name: \{ kind: exact \}/);
});

test("world ids where a value expects them: person ids labelled with the contact's name, including added contacts", () => {
  const text = `${HEAD}world:
  CONTACT:
    add:
      - { name: Lars Ulrich, phone_number: "+15550100" }
reference:
  - calls:
      - tool: remove_contact
        arguments:
          person_id: $0
`;
  const { list } = complete(text);
  const byName = new Map(list.items.map((i) => [i.detail, i.label]));
  assert.equal(byName.get("Homer S"), "e3570ab6-0819-5032-be1e-2b366390c8ef");
  assert.ok(byName.has("Lars Ulrich"), "a contact the scenario adds is offered too");
  assert.equal(item(list, "e3570ab6-0819-5032-be1e-2b366390c8ef").labelDetails?.description, "Homer S");
});

test("reminder ids are labelled with the reminder's content; phone numbers are quoted", () => {
  const reminders = complete(`${HEAD}reference:\n  - calls:\n      - tool: remove_reminder\n        arguments: { reminder_id: $0 }\n`).list;
  assert.ok(reminders.items.some((i) => i.detail === "Buy tickets for Merrily next week"));
  const phones = complete(
    `${HEAD}reference:\n  - calls:\n      - tool: send_message_with_phone_number\n        arguments:\n          phone_number: $0\n`,
  );
  const homer = phones.list.items.find((i) => i.detail === "Homer S");
  assert.ok(homer);
  assert.match(accept(phones.doc, homer), /phone_number: "\+10000000000"/);
});

test("after: ids of the same section, not the node itself nor a node that already comes after it", () => {
  const text = `${HEAD}milestones:
  - id: a
    after: []
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]
  - id: b
    after: [$0]
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]
  - id: c
    after: [b]
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]
minefields:
  - id: m
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: false }] }]
`;
  assert.deepEqual(labels(complete(text).list), ["a"]);
});

test("reference: initial and the ancestors only; a later milestone (not an ancestor) is not offered", () => {
  const text = `${HEAD}milestones:
  - id: first
    description: The contact was found.
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]
  - id: second
    constraints:
      - kind: update
        table: CONTACT
        reference: $0
        target: [{ name: x }]
  - id: third
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]
`;
  const { list } = complete(text);
  assert.deepEqual(sorted(list), ["initial", "first"]);
  assert.equal(item(list, "first").detail, "The contact was found.");
});

test("enum values: constraint kinds with their meaning, categories not yet listed, tables", () => {
  const kinds = complete(`${HEAD}milestones:\n  - id: a\n    constraints:\n      - kind: $0\n`).list;
  assert.deepEqual(labels(kinds), ["snapshot", "addition", "removal", "update", "tool_trace_extract"]);
  assert.match(docText(item(kinds, "addition")), /added/);
  const categories = complete(`${HEAD}categories: [STATE_DEPENDENCY, SING$0]\n`).list;
  assert.ok(labels(categories).includes("SINGLE_TOOL_CALL"));
  assert.ok(!labels(categories).includes("STATE_DEPENDENCY"));
  const tables = complete(`${HEAD}milestones:\n  - id: a\n    constraints:\n      - kind: addition\n        table: $0\n`).list;
  assert.deepEqual(labels(tables), ["SETTING", "CONTACT", "MESSAGING", "REMINDER"], "a change constraint takes world tables only");
});

test("roles and booleans for SANDBOX and flag columns", () => {
  const roles = complete(
    `${HEAD}milestones:\n  - id: a\n    constraints:\n      - kind: snapshot\n        table: SANDBOX\n        target:\n          - sender: $0\n`,
  ).list;
  assert.deepEqual(labels(roles), ["system", "user", "agent", "execution_environment"]);
  const flags = complete(`${HEAD}world:\n  SETTING: { cellular: $0 }\n`).list;
  assert.deepEqual(labels(flags), ["true", "false"]);
});

test("snippets: a milestone entry, attached with after: when the list uses explicit edges", () => {
  const text = `${HEAD}milestones:
  - id: a
    after: []
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]
  - $0
`;
  const { list, doc } = complete(text);
  const snippet = item(list, "milestone");
  const result = accept(doc, snippet);
  assert.match(
    result,
    /\n {2}- id: milestone_id\n {4}after: \[a\]\n {4}constraints:\n {6}- kind: snapshot\n {8}table: SETTING\n {8}target:\n {10}- \n/,
  );
});

test("snippets: a minefield entry on an empty line under minefields", () => {
  const { list, doc } = complete(`${HEAD}minefields:\n  $0\n`);
  assert.match(accept(doc, item(list, "- minefield")), /minefields:\n {2}- id: minefield_id\n {4}constraints:\n {6}- kind: snapshot\n/);
});

test("snippets: reference steps on an empty line of the reference list", () => {
  const text = `${HEAD}reference:
  - agent: Hello.
  $0
`;
  const { list, doc } = complete(text);
  assert.ok(["- calls step", "- agent step", "- user step", "- end_conversation step"].every((l) => labels(list).includes(l)));
  assert.match(accept(doc, item(list, "- calls step")), /\n {2}- calls:\n {6}- tool: \n {8}arguments: \{ {2}\}\n/);
  assert.match(accept(doc, item(list, "- end_conversation step")), /\n {2}- end_conversation: true\n/);
});

test("an empty file is offered a scenario skeleton", () => {
  const { list } = complete("$0");
  assert.equal(sorted(list)[0], "scenario skeleton");
});

test("a new file is offered the skeleton while its first word is typed, after a modeline too", () => {
  const { doc, list } = complete("# yaml-language-server: $schema=../schemas/scenario.schema.json\nscen$0");
  assert.equal(sorted(list)[0], "scenario skeleton");
  assert.match(accept(doc, item(list, "scenario skeleton")), /^# yaml-language-server: .*\nname: my_scenario\ndescription: /);
});

test("a file with content is not offered the skeleton", () => {
  const { list } = complete("name: demo\nscen$0");
  assert.ok(!labels(list).includes("scenario skeleton"));
});

test("completion still works below a line that breaks the YAML", () => {
  const text = `name: demo
user:
  goal: "unterminated
  opening: o
tools:
  deny: [$0]
`;
  const { list } = complete(text);
  assert.ok(labels(list).includes("search_contacts"));
});

test("nothing is offered inside a comment or a block of free text", () => {
  assert.deepEqual(labels(complete(`${HEAD}# tools: sea$0\n`).list), []);
  assert.deepEqual(labels(complete(`description: |\n  some text\n  mo$0re\nname: x\n`).list), []);
});

test("the user section offers `preamble` with its schema description, and time values offer a weekday form", () => {
  const keys = complete(`name: demo\nuser:\n  goal: g\n  opening: o\n  $0\n`).list;
  assert.match(docText(item(keys, "preamble")), /instruction the user simulator is given before the goal/);
  const times = complete(`${HEAD}world:\n  REMINDER:\n    add:\n      - { content: c, reminder_timestamp: $0 }\n`).list;
  assert.ok(labels(times).includes("next friday 17:00"), labels(times).join(", "));
});
