// The language service follows the document's `world.pack`: world sections, table names, columns,
// tools, arguments and suggested values come from that pack (ToolSandbox's when none is named).
import { test } from "node:test";
import assert from "node:assert/strict";
import type { CompletionItem, CompletionList } from "vscode-languageserver";
import { completion } from "../../../server/service/completion.js";
import { definition } from "../../../server/service/definition.js";
import { hover } from "../../../server/service/hover.js";
import { valueSlot } from "../../../server/service/slots.js";
import { withCursor } from "./cursor.js";

const labels = (list: CompletionList): string[] => list.items.map((i) => i.label);

/** Labels in the order the editor shows them (sortText, then label). */
const sorted = (list: CompletionList): string[] =>
  [...list.items].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label)).map((i) => i.label);

function complete(text: string): CompletionList {
  const { doc, position } = withCursor(text);
  return completion(doc, position);
}

function item(list: CompletionList, label: string): CompletionItem {
  const found = list.items.find((i) => i.label === label);
  assert.ok(found, `no item "${label}" among ${labels(list).join(", ")}`);
  return found;
}

function hoverText(text: string): string {
  const { doc, position } = withCursor(text);
  const result = hover(doc, position);
  assert.ok(result, "no hover");
  const contents = result.contents;
  return typeof contents === "object" && "value" in contents ? contents.value : String(contents);
}

const HEAD = "name: demo\nuser: { goal: g, opening: o }\n";
const TOOLTALK = `${HEAD}world:\n  pack: tooltalk\n`;

test("world section keys: the pack's tables after pack and base, ToolTalk's in a tooltalk document", () => {
  const tooltalk = sorted(complete(`${TOOLTALK}  $0\n`));
  assert.deepEqual(tooltalk, [
    "base",
    "ACCOUNT",
    "SESSION",
    "ALARM",
    "CALENDAR",
    "EMAIL",
    "MESSAGE",
    "REMINDER",
    "WEATHER",
    "HISTORIC_WEATHER",
  ]);
  const plain = sorted(complete(`${HEAD}world:\n  $0\n`));
  assert.deepEqual(plain, ["pack", "base", "SETTING", "CONTACT", "MESSAGING", "REMINDER"]);
});

test("under a world table: the four changes for a table with rows, the columns for a one-row table", () => {
  assert.deepEqual(labels(complete(`${TOOLTALK}  CALENDAR:\n    $0\n`)), ["replace", "remove", "update", "add"]);
  assert.deepEqual(labels(complete(`${TOOLTALK}  CALENDAR:\n    remove:\n      - $0\n`)), ["where"]);
  assert.deepEqual(labels(complete(`${TOOLTALK}  SESSION:\n    $0\n`)), ["username", "session_token"]);
});

test("the pack value completes with each pack's title", () => {
  const list = complete(`${HEAD}world:\n  pack: $0\n`);
  assert.deepEqual(labels(list), ["toolsandbox", "tooltalk"]);
  assert.match(item(list, "tooltalk").detail ?? "", /^ToolTalk:/);
});

test("a constraint's table: the pack's tables, plus SANDBOX only where a message may be compared", () => {
  const constraint = (kind: string): string =>
    `${TOOLTALK}milestones:\n  - id: m\n    constraints:\n      - kind: ${kind}\n        table: $0\n`;
  const snapshot = labels(complete(constraint("snapshot")));
  assert.ok(snapshot.includes("CALENDAR") && snapshot.includes("SANDBOX"), snapshot.join(", "));
  assert.ok(!snapshot.includes("CONTACT"));
  const addition = labels(complete(constraint("addition")));
  assert.ok(addition.includes("CALENDAR") && !addition.includes("SANDBOX"), addition.join(", "));
  const guardrails = labels(complete(`${TOOLTALK}milestones:\n  - id: m\n    guardrails: { exclude: [ALARM, $0] }\n`));
  assert.ok(guardrails.includes("EMAIL") && !guardrails.includes("ALARM") && !guardrails.includes("SANDBOX"), guardrails.join(", "));
});

test("columns of a ToolTalk table, in a new row and in a target", () => {
  const row = labels(complete(`${TOOLTALK}  CALENDAR:\n    add:\n      - { $0 }\n`));
  assert.deepEqual(row, ["username", "event_id", "name", "event_type", "start_time", "end_time", "location", "description", "attendees"]);
  const target = complete(
    `${TOOLTALK}milestones:\n  - id: m\n    constraints:\n      - kind: snapshot\n        table: EMAIL\n        target:\n          - { $0 }\n`,
  );
  assert.equal(item(target, "receivers").detail, "list of strings");
});

test("measures offered for a list column leave out rouge_l", () => {
  const list = complete(
    `${TOOLTALK}milestones:\n  - id: m\n    constraints:\n      - kind: snapshot\n        table: EMAIL\n        target: [{ receivers: [a] }]\n        measures: { receivers: { kind: $0 } }\n`,
  );
  assert.deepEqual(labels(list), ["exact", "contains", "any"]);
});

test("tool names and their arguments are ToolTalk's in a tooltalk document", () => {
  const tools = labels(complete(`${TOOLTALK}reference:\n  - calls:\n      - tool: $0\n`));
  assert.ok(tools.includes("SendEmail") && tools.includes("UserLogin"), tools.join(", "));
  assert.ok(!tools.includes("search_contacts"));
  const args = complete(`${TOOLTALK}reference:\n  - calls:\n      - tool: SendEmail\n        arguments: { $0 }\n`);
  assert.deepEqual(labels(args), ["to", "subject", "body"]);
  assert.equal(item(args, "to").detail, "string[] (required)");
});

test("values come from the scenario's world: usernames labelled with the person's name", () => {
  const list = complete(
    `${TOOLTALK}  ACCOUNT:\n    add:\n      - { username: ravi_sandoval, email: ravi.sandoval@postbox.test, phone: 555-613-2090, name: Ravi Sandoval, password: copper-kettle-42 }\nreference:\n  - calls:\n      - tool: UserLogin\n        arguments: { username: $0 }\n`,
  );
  assert.equal(item(list, "ravi_sandoval").detail, "Ravi Sandoval");
});

test("an item of a list column or an array argument takes the values of the column or argument", () => {
  const slotAt = (text: string) => {
    const { doc, offset } = withCursor(text);
    return valueSlot(doc, doc.pathAt(offset).path);
  };
  const argument = slotAt(`${TOOLTALK}reference:\n  - calls:\n      - tool: CreateEvent\n        arguments: { attendees: [$0] }\n`);
  assert.equal(argument?.kind === "argument-value" ? argument.parameter.name : null, "attendees");
  const column = slotAt(`${TOOLTALK}  CALENDAR:\n    add:\n      - { attendees: [ravi_sandoval, $0] }\n`);
  assert.deepEqual(column, { kind: "column-value", table: "CALENDAR", column: "attendees", purpose: "row" });
  // A scalar column's value is not a list: an index under it means nothing.
  assert.equal(slotAt(`${TOOLTALK}  CALENDAR:\n    add:\n      - { name: [$0] }\n`), null);
});

test("hover shows a ToolTalk tool, a ToolTalk table and a column of it", () => {
  assert.match(
    hoverText(`${TOOLTALK}reference:\n  - calls:\n      - tool: SendE$0mail\n`),
    /SendEmail\(to: string\[\], subject: string, body: string\)/,
  );
  const table = hoverText(`${TOOLTALK}  CALEN$0DAR:\n    add: []\n`);
  assert.match(table, /\*\*CALENDAR\*\* \(tooltalk table · key `event_id`\)/);
  assert.match(table, /- `attendees`: list of strings \| null/);
  const column = hoverText(
    `${TOOLTALK}milestones:\n  - id: m\n    constraints:\n      - { kind: snapshot, table: CALENDAR, target: [{ na$0me: Picnic }] }\n`,
  );
  assert.match(column, /CALENDAR\.name: string/);
  assert.match(column, /compared with `rouge_l` unless `measures` says otherwise/);
});

test("go to definition of a milestone id works the same in a tooltalk document", () => {
  const text = `${TOOLTALK}milestones:\n  - id: logged_in\n    constraints: [{ kind: snapshot, table: SESSION, target: [{ username: ravi_sandoval }] }]\n  - id: done\n    after: [logged$0_in]\n    constraints: [{ kind: snapshot, table: SESSION, target: [{ username: null }] }]\n`;
  const { doc, position } = withCursor(text);
  const location = definition(doc, position);
  assert.ok(location);
  assert.equal(doc.textDocument.getText(location.range), "logged_in");
});
