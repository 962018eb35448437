// The language service on scenarios imported from ToolTalk (the user's copy of its data): completion
// and hover offer ToolTalk's tools, tables, columns and the values of the scenario's own world, list
// items included (no ToolTalk data ships with the language server).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CompletionItem, CompletionList } from "vscode-languageserver";
import { completion } from "../../../../../server/service/completion.js";
import { hover } from "../../../../../server/service/hover.js";
import { TOOLTALK_PACK } from "../../../../../engine/packs/tooltalk/index.js";
import { loadScenarioFile } from "../../../../../engine/scenario/load.js";
import { importedToolTalkFolder } from "../../published-data.js";
import { withCursor } from "../../../../server/service/cursor.js";

const FOLDER = importedToolTalkFolder();
const CREATE_EVENT = "tooltalk_calendar_messages_reminder_create_event_1";
const SEND_EMAIL = "tooltalk_send_email_easy";
const SEARCH_INBOX = "tooltalk_email_reminder_weather_delete_reminder_0";
const SEARCH_MESSAGES = "tooltalk_email_messages_reminder_search_message_1";
const DELETE_ALARM = "tooltalk_delete_alarm_easy";

/** An imported scenario's text with `find` (which must occur once) replaced by `marked` (holding the `$0` cursor). */
function importedWithCursor(scenario: string, find: string, marked: string): string {
  const text = readFileSync(join(FOLDER, `${scenario}.scenario.yaml`), "utf8");
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
  const { scenario: loaded } = loadScenarioFile(join(FOLDER, `${scenario}.scenario.yaml`));
  assert.ok(loaded, scenario);
  const rows = loaded.world.tables[table] ?? [];
  assert.ok(rows.length > 0, `${scenario} has ${table} rows`);
  return [...new Set(rows.flatMap((row) => (typeof row[column] === "string" ? [row[column]] : [])))];
}

const sortedSet = (values: Iterable<string>): string[] => [...new Set(values)].sort();

test("a reference call's tool completes with ToolTalk's 28 tools and nothing of ToolSandbox's", () => {
  const list = complete(CREATE_EVENT, "tool: SearchMessages", "tool: $0");
  const expected = TOOLTALK_PACK.tools.filter((t) => t.visibleTo.includes("agent")).map((t) => t.name);
  assert.equal(expected.length, 28);
  assert.deepEqual(sortedSet(labels(list)), sortedSet(expected));
  assert.match(item(list, "ModifyEvent").detail ?? "", /^ModifyEvent\(event_id: string/);
});

test("a constraint's table completes with ToolTalk's tables and SANDBOX", () => {
  const list = complete(CREATE_EVENT, "        table: REMINDER", "        table: $0");
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
  const list = complete(CREATE_EVENT, "            description: Celebrate friend's birthday\n", "            $0\n");
  assert.deepEqual(sortedSet(labels(list)), ["attendees", "description", "event_id"]);
  assert.equal(item(list, "attendees").detail, "list of strings | null");
});

test("attendees of ModifyEvent and CreateEvent complete with every username, labelled with the person's name", () => {
  const usernames = sortedSet(worldColumn(CREATE_EVENT, "ACCOUNT", "username"));
  const modify = complete(CREATE_EVENT, "new_attendees: [lifeng, olivedo", "new_attendees: [lifeng, $0olivedo");
  assert.deepEqual(sortedSet(labels(modify)), usernames);
  assert.equal(item(modify, "lifeng").detail, "Li Feng");
  const create = complete(
    CREATE_EVENT,
    "          location: 551 Washington Street\n  - agent",
    "          location: 551 Washington Street\n          attendees: [$0]\n  - agent",
  );
  assert.deepEqual(sortedSet(labels(create)), usernames);
});

test("the attendees column of a CALENDAR target completes with usernames, and hover names the person", () => {
  const list = complete(CREATE_EVENT, "attendees: [lifeng, olivedo, salcano, ahhchiu, mstein, justinkool]", "attendees: [lifeng, $0]");
  assert.equal(item(list, "salcano").detail, "Hugo Saldana Cano");
  const text = hoverText(
    CREATE_EVENT,
    "attendees: [lifeng, olivedo, salcano, ahhchiu, mstein, justinkool]",
    "attendees: [lifeng, olivedo, sal$0cano, ahhchiu, mstein, justinkool]",
  );
  assert.equal(text, "`salcano` — Hugo Saldana Cano (ACCOUNT row)");
});

test("SendEmail's recipients complete with the accounts' e-mail addresses, in the call and in its trace", () => {
  const call = complete(SEND_EMAIL, "arguments: {to: [olivieisme@somail.com], subject", "arguments: {to: [$0], subject");
  assert.deepEqual(sortedSet(labels(call)), sortedSet(worldColumn(SEND_EMAIL, "ACCOUNT", "email")));
  assert.equal(item(call, "olivieisme@somail.com").detail, "Olivie Doiron");
  const trace = complete(SEND_EMAIL, "arguments: {to: [olivieisme@somail.com]}}", "arguments: {to: [$0]}}");
  assert.ok(labels(trace).includes("olivieisme@somail.com"), labels(trace).join(", "));
});

test("an EMAIL row's receivers complete with e-mail addresses", () => {
  const list = complete(SEND_EMAIL, "  base: empty\n", "  base: empty\n  EMAIL:\n    add:\n      - { receivers: [$0] }\n");
  assert.deepEqual(sortedSet(labels(list)), sortedSet(worldColumn(SEND_EMAIL, "ACCOUNT", "email")));
});

test("a sender is an address in SearchInbox and a username in SearchMessages, from what was received", () => {
  const inbox = complete(SEARCH_INBOX, "arguments: {query: meeting 3}", "arguments: {query: meeting 3, sender: $0}");
  assert.deepEqual(sortedSet(labels(inbox)), sortedSet(worldColumn(SEARCH_INBOX, "EMAIL", "sender")));
  assert.ok(
    labels(inbox).every((l) => l.includes("@")),
    labels(inbox).join(", "),
  );
  const messages = complete(SEARCH_MESSAGES, "arguments: {query: video, sender: nickie}", "arguments: {query: video, sender: $0}");
  assert.deepEqual(sortedSet(labels(messages)), sortedSet(worldColumn(SEARCH_MESSAGES, "MESSAGE", "sender")));
  assert.ok(labels(messages).includes("nickie"));
});

test("ids complete from their tables, labelled: alarm times, event names, reminder tasks", () => {
  const alarms = complete(DELETE_ALARM, "arguments: {alarm_id: 593d-49e9}", "arguments: {alarm_id: $0}");
  assert.deepEqual(sortedSet(labels(alarms)), sortedSet(worldColumn(DELETE_ALARM, "ALARM", "alarm_id")));
  assert.match(item(alarms, "593d-49e9").detail ?? "", /^\d\d:\d\d:\d\d$/);
  const events = complete(CREATE_EVENT, "event_id: e149636f-d9ca\n          new_attendees", "event_id: $0\n          new_attendees");
  assert.deepEqual(sortedSet(labels(events)), sortedSet(worldColumn(CREATE_EVENT, "CALENDAR", "event_id")));
  assert.equal(item(events, "bb4588f1-c21c").detail, "Lunch with Li Feng");
  const reminders = complete(
    CREATE_EVENT,
    "{tool_name: DeleteReminder, arguments: {reminder_id: 59-80bc}}",
    "{tool_name: DeleteReminder, arguments: {reminder_id: $0}}",
  );
  assert.equal(item(reminders, "59-80bc").detail, "Take out the trash");
});

test("a world update's username completes with the scenario's accounts", () => {
  const list = complete(DELETE_ALARM, "  ACCOUNT:\n    add:\n", "  ACCOUNT:\n    update:\n      - {where: {username: $0}}\n    add:\n");
  assert.deepEqual(sortedSet(labels(list)), sortedSet(worldColumn(DELETE_ALARM, "ACCOUNT", "username")));
});

test("hover on a ToolTalk tool and a ToolTalk table of an imported scenario", () => {
  const tool = hoverText(CREATE_EVENT, "tool: ModifyEvent", "tool: Modify$0Event");
  assert.match(tool, /ModifyEvent\(event_id: string/);
  assert.match(tool, /new_attendees/);
  const table = hoverText(
    CREATE_EVENT,
    "        table: CALENDAR\n        reference: initial",
    "        table: CALEN$0DAR\n        reference: initial",
  );
  assert.match(table, /\*\*CALENDAR\*\* \(tooltalk table · key `event_id`\)/);
  assert.match(table, /- `attendees`: list of strings \| null/);
});
