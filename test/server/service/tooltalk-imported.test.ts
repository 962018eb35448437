// The language service on scenarios imported from ToolTalk-format conversations (our own fixture's:
// test/fixtures/tooltalk/, and the garden conversation of the importer's tests, both over the
// fixture's databases): completion and hover offer ToolTalk's tools, tables, columns and the values
// of the scenario's own world, list items included (no ToolTalk data ships with the language server).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CompletionItem, CompletionList } from "vscode-languageserver";
import { completion } from "../../../server/service/completion.js";
import { hover } from "../../../server/service/hover.js";
import { TOOLTALK_PACK } from "../../../engine/packs/tooltalk/index.js";
import { checkScenarioText } from "../../../engine/scenario/resolve.js";
import { importedToolTalkFolder } from "../../fixtures/tooltalk-data.js";
import { gardenScenario } from "../../benchmarks/tooltalk/importer/fixtures.js";
import { withCursor } from "./cursor.js";

// SearchMessages, CreateEvent (a meeting with Tomas), SearchInbox, ModifyEvent, DeleteReminder, DeleteAlarm.
const GARDEN = gardenScenario().name;
const SEND_EMAIL = "tooltalk_account_tools_email_calendar_send_email_0";
// Keeps every one of mira_okafor's reminders, so a minefield names each in a tool trace.
const ADD_ALARM = "tooltalk_add_alarm_easy";

function scenarioText(scenario: string): string {
  if (scenario === GARDEN) return gardenScenario().text;
  return readFileSync(join(importedToolTalkFolder(), `${scenario}.scenario.yaml`), "utf8");
}

/** An imported scenario's text with `find` (which must occur once) replaced by `marked` (holding the `$0` cursor). */
function importedWithCursor(scenario: string, find: string, marked: string): string {
  const text = scenarioText(scenario);
  const at = text.indexOf(find);
  assert.ok(at >= 0 && text.indexOf(find, at + 1) < 0, `"${find}" must occur once in ${scenario}`);
  return text.slice(0, at) + marked + text.slice(at + find.length);
}

function complete(scenario: string, find: string, marked: string): CompletionList {
  const { doc, position } = withCursor(importedWithCursor(scenario, find, marked));
  return completion(doc, position);
}

function hoverText(scenario: string, find: string, marked: string): string {
  const { doc, position } = withCursor(importedWithCursor(scenario, find, marked));
  const result = hover(doc, position);
  assert.ok(result, "no hover");
  const contents = result.contents;
  return typeof contents === "object" && "value" in contents ? contents.value : String(contents);
}

const labels = (list: CompletionList): string[] => list.items.map((i) => i.label);

function item(list: CompletionList, label: string): CompletionItem {
  const found = list.items.find((i) => i.label === label);
  assert.ok(found, `no item "${label}" among ${labels(list).join(", ")}`);
  return found;
}

/** A column of the imported scenario's own starting world, every distinct value. */
function worldColumn(scenario: string, table: string, column: string): string[] {
  const { scenario: loaded, diagnostics } = checkScenarioText(scenarioText(scenario), `${scenario}.scenario.yaml`);
  assert.deepEqual(diagnostics, [], scenario);
  assert.ok(loaded, scenario);
  const rows = loaded.world.tables[table] ?? [];
  assert.ok(rows.length > 0, `${scenario} has ${table} rows`);
  return [...new Set(rows.flatMap((row) => (typeof row[column] === "string" ? [row[column]] : [])))];
}

const sortedSet = (values: Iterable<string>): string[] => [...new Set(values)].sort();

test("a reference call's tool completes with ToolTalk's 28 tools and nothing of ToolSandbox's", () => {
  const list = complete(GARDEN, "tool: SearchMessages", "tool: $0");
  const expected = TOOLTALK_PACK.tools.filter((t) => t.visibleTo.includes("agent")).map((t) => t.name);
  assert.equal(expected.length, 28);
  assert.deepEqual(sortedSet(labels(list)), sortedSet(expected));
  assert.match(item(list, "ModifyEvent").detail ?? "", /^ModifyEvent\(event_id: string/);
});

test("a constraint's table completes with ToolTalk's tables and SANDBOX", () => {
  const list = complete(GARDEN, "        table: REMINDER", "        table: $0");
  assert.deepEqual(labels(list), [
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
  assert.equal(item(list, "CALENDAR").detail, "tooltalk table");
});

test("an addition target completes with the CALENDAR columns it does not give yet", () => {
  const list = complete(
    GARDEN,
    "            description: Bring the tomato seeds\n            attendees: [tomas_lind, mira_okafor]\n",
    "            $0\n",
  );
  assert.deepEqual(sortedSet(labels(list)), ["attendees", "description", "event_id"]);
  assert.equal(item(list, "attendees").detail, "list of strings | null");
});

test("attendees of ModifyEvent and CreateEvent complete with every username, labelled with the person's name", () => {
  const usernames = sortedSet(worldColumn(GARDEN, "ACCOUNT", "username"));
  assert.deepEqual(usernames, ["mira_okafor", "tomas_lind"]);
  const modify = complete(GARDEN, "new_attendees: [mira_okafor, tomas_lind", "new_attendees: [mira_okafor, $0tomas_lind");
  assert.deepEqual(sortedSet(labels(modify)), usernames);
  assert.equal(item(modify, "tomas_lind").detail, "Tomas Lind");
  const create = complete(GARDEN, "attendees: [tomas_lind]\n", "attendees: [$0]\n");
  assert.deepEqual(sortedSet(labels(create)), usernames);
});

test("the attendees column of a CALENDAR target completes with usernames, and hover names the person", () => {
  const list = complete(GARDEN, "attendees: [tomas_lind, mira_okafor]", "attendees: [tomas_lind, $0]");
  assert.equal(item(list, "mira_okafor").detail, "Mira Okafor");
  const text = hoverText(GARDEN, "attendees: [tomas_lind, mira_okafor]", "attendees: [tom$0as_lind, mira_okafor]");
  assert.equal(text, "`tomas_lind` — Tomas Lind (ACCOUNT row)");
});

test("SendEmail's recipients complete with the accounts' e-mail addresses, in the call and in its trace", () => {
  const call = complete(SEND_EMAIL, "arguments: {to: [tlind@gahoo.com], subject", "arguments: {to: [$0], subject");
  assert.deepEqual(sortedSet(labels(call)), sortedSet(worldColumn(SEND_EMAIL, "ACCOUNT", "email")));
  assert.equal(item(call, "tlind@gahoo.com").detail, "Tomas Lind");
  const trace = complete(SEND_EMAIL, "arguments: {to: [tlind@gahoo.com]}}", "arguments: {to: [$0]}}");
  assert.ok(labels(trace).includes("tlind@gahoo.com"), labels(trace).join(", "));
});

test("an EMAIL row's receivers complete with e-mail addresses", () => {
  const list = complete(SEND_EMAIL, "  EMAIL:\n    add:\n", "  EMAIL:\n    add:\n      - { receivers: [$0] }\n");
  assert.deepEqual(sortedSet(labels(list)), sortedSet(worldColumn(SEND_EMAIL, "ACCOUNT", "email")));
});

test("a sender is an address in SearchInbox and a username in SearchMessages, from what was received", () => {
  const inbox = complete(GARDEN, "arguments: {query: plot}", "arguments: {query: plot, sender: $0}");
  assert.deepEqual(sortedSet(labels(inbox)), sortedSet(worldColumn(GARDEN, "EMAIL", "sender")));
  assert.ok(
    labels(inbox).every((l) => l.includes("@")),
    labels(inbox).join(", "),
  );
  const messages = complete(GARDEN, "arguments: {query: seeds, sender: tomas_lind}", "arguments: {query: seeds, sender: $0}");
  assert.deepEqual(sortedSet(labels(messages)), sortedSet(worldColumn(GARDEN, "MESSAGE", "sender")));
  assert.ok(labels(messages).includes("tomas_lind"));
});

test("ids complete from their tables, labelled: alarm times, event names, reminder tasks", () => {
  const alarms = complete(GARDEN, "arguments: {alarm_id: 0c1d-2e3f}", "arguments: {alarm_id: $0}");
  assert.deepEqual(sortedSet(labels(alarms)), sortedSet(worldColumn(GARDEN, "ALARM", "alarm_id")));
  assert.match(item(alarms, "0c1d-2e3f").detail ?? "", /^\d\d:\d\d:\d\d$/);
  const events = complete(GARDEN, "arguments: {event_id: 3f0a9c21-77b4, new_attendees", "arguments: {event_id: $0, new_attendees");
  assert.deepEqual(sortedSet(labels(events)), sortedSet(worldColumn(GARDEN, "CALENDAR", "event_id")));
  assert.equal(item(events, "3f0a9c21-77b4").detail, "Pottery class");
  // In a minefield's tool trace as well as in a call.
  const reminders = complete(
    ADD_ALARM,
    "{tool_name: DeleteReminder, arguments: {reminder_id: 5e-6f70}}",
    "{tool_name: DeleteReminder, arguments: {reminder_id: $0}}",
  );
  assert.equal(item(reminders, "5e-6f70").detail, "Renew library card");
});

test("a world update's username completes with the scenario's accounts", () => {
  const list = complete(GARDEN, "  ACCOUNT:\n    add:\n", "  ACCOUNT:\n    update:\n      - {where: {username: $0}}\n    add:\n");
  assert.deepEqual(sortedSet(labels(list)), sortedSet(worldColumn(GARDEN, "ACCOUNT", "username")));
});

test("hover on a ToolTalk tool and a ToolTalk table of an imported scenario", () => {
  const tool = hoverText(GARDEN, "tool: ModifyEvent", "tool: Modify$0Event");
  assert.match(tool, /ModifyEvent\(event_id: string/);
  assert.match(tool, /new_attendees/);
  const table = hoverText(
    GARDEN,
    "        table: CALENDAR\n        reference: initial",
    "        table: CALEN$0DAR\n        reference: initial",
  );
  assert.match(table, /\*\*CALENDAR\*\* \(tooltalk table · key `event_id`\)/);
  assert.match(table, /- `attendees`: list of strings \| null/);
});
