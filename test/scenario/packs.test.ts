// A scenario chooses its world pack (`world.pack`): table names, columns, list values and tool
// names are checked against that pack, with the same precise locations and suggestions as
// ToolSandbox's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { check, describe, expectClean, expectOne, underlined } from "./helpers.js";

const TOOLTALK = "world:\n  pack: tooltalk\n";

const meeting = (attendees: string): string =>
  "  CALENDAR:\n    add:\n      - { username: ravi_sandoval, event_id: e-1, name: Picnic, event_type: meeting, " +
  `start_time: "2024-05-08 12:00:00", end_time: "2024-05-08 13:00:00", attendees: ${attendees} }\n`;

test("without world.pack a scenario is ToolSandbox's; with tooltalk it has ToolTalk's tables, empty (no ToolTalk data ships)", () => {
  const plain = expectClean(check({}));
  assert.equal(plain.world.pack, "toolsandbox");
  assert.deepEqual(Object.keys(plain.world.tables), ["SETTING", "CONTACT", "MESSAGING", "REMINDER"]);
  const tooltalk = expectClean(check({ world: TOOLTALK }));
  assert.equal(tooltalk.world.pack, "tooltalk");
  assert.deepEqual(Object.keys(tooltalk.world.tables), [
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
  assert.deepEqual(tooltalk.world.tables.ACCOUNT, []);
  assert.equal(tooltalk.world.tables.CONTACT, undefined);
});

test("world.base: empty calls the pack's empty world: ToolTalk keeps only its session row", () => {
  const s = expectClean(check({ world: `${TOOLTALK}  base: empty\n` }));
  const counts = Object.fromEntries(Object.entries(s.world.tables).map(([name, rows]) => [name, rows.length]));
  assert.equal(counts.SESSION, 1);
  assert.equal(counts.ACCOUNT, 0);
  assert.equal(counts.CALENDAR, 0);
});

test("an unknown world table in a tooltalk scenario is reported at its key with the closest ToolTalk table", () => {
  const d = expectOne(check({ world: `${TOOLTALK}  CALENDER:\n    add: []\n` }), "unknown-table", "CALENDER");
  assert.equal(d.message, 'The tooltalk world has no table "CALENDER". Did you mean "CALENDAR"?');
  assert.deepEqual(d.data, { suggestion: "CALENDAR" });
});

test("a ToolSandbox table in a tooltalk scenario says which pack has it", () => {
  const d = expectOne(check({ world: `${TOOLTALK}  SETTING:\n    wifi: false\n` }), "unknown-table", "SETTING");
  assert.match(d.message, /SETTING is a table of the toolsandbox pack; set `world.pack: toolsandbox` to use it\./);
});

test("constraint tables and guardrail lists name the pack's tables; SANDBOX only where a message is compared", () => {
  const result = check({
    world: TOOLTALK,
    milestones:
      "milestones:\n  - id: m\n    guardrails: { exclude: [ALARMS] }\n    constraints:\n" +
      "      - { kind: snapshot, table: REMINDERS, target: [{ task: x }] }\n" +
      "      - { kind: addition, table: SANDBOX, target: [{ content: x }] }\n" +
      "      - { kind: snapshot, table: SANDBOX, target: [{ sender: agent }] }\n",
  });
  assert.deepEqual(
    result.diagnostics.map((d) => [d.code, underlined(result, d)]),
    [
      ["unknown-table", "ALARMS"],
      ["unknown-table", "REMINDERS"],
      ["sandbox-not-world", "SANDBOX"],
    ],
    describe(result),
  );
  assert.match(result.diagnostics[1]!.message, /Did you mean "REMINDER"\?/);
});

test("columns are the pack's: ToolTalk's REMINDER has task, not content", () => {
  const result = check({
    world: TOOLTALK,
    milestones: "milestones:\n  - id: m\n    constraints:\n      - { kind: snapshot, table: REMINDER, target: [{ content: x }] }\n",
  });
  const d = expectOne(result, "unknown-column", "content");
  assert.equal(d.message, 'REMINDER has no column "content".');
});

test("a list column takes a list of strings in rows and targets, and reports the item that is not one", () => {
  const ok = expectClean(check({ world: `${TOOLTALK}${meeting("[ravi_sandoval, ines_moreau]")}` }));
  const added = ok.world.tables.CALENDAR?.find((row) => row.event_id === "e-1");
  assert.deepEqual(added?.attendees, ["ravi_sandoval", "ines_moreau"]);

  const item = expectOne(check({ world: `${TOOLTALK}${meeting("[ravi_sandoval, 42]")}` }), "column-type", "42");
  assert.equal(item.message, 'Each item of "attendees" is a string, found the number 42. Put it in quotes to keep it as text.');
  const scalar = expectOne(check({ world: `${TOOLTALK}${meeting("ravi_sandoval")}` }), "column-type", "ravi_sandoval");
  assert.equal(scalar.message, '"attendees" takes a list of strings or null, found the text "ravi_sandoval".');

  const target = expectClean(
    check({
      world: TOOLTALK,
      milestones:
        "milestones:\n  - id: m\n    constraints:\n      - { kind: snapshot, table: CALENDAR, target: [{ attendees: [a, b] }] }\n",
    }),
  );
  const constraint = target.milestones[0]!.constraints[0]!;
  assert.deepEqual(constraint.target, [{ attendees: ["a", "b"] }]);
});

test("rouge_l on a list column is a scenario error; exact and contains fit it", () => {
  const measures = (kind: string): string =>
    `milestones:\n  - id: m\n    constraints:\n      - kind: snapshot\n        table: EMAIL\n        target: [{ receivers: [a] }]\n        measures: { receivers: { kind: ${kind} } }\n`;
  const d = expectOne(check({ world: TOOLTALK, milestones: measures("rouge_l") }), "measure-mismatch", "rouge_l");
  assert.equal(d.message, 'A rouge_l measure does not fit "receivers", which holds lists of strings. Use "exact", "contains" or "any".');
  expectClean(check({ world: TOOLTALK, milestones: measures("contains") }));
  expectClean(check({ world: TOOLTALK, milestones: measures("exact") }));
});

test("an array parameter takes a list of strings in reference calls and golden traces", () => {
  const call = (to: string): Record<string, string> => ({
    world: TOOLTALK,
    reference: `reference:\n  - calls:\n      - tool: SendEmail\n        arguments: { to: ${to}, subject: Hi, body: Hello }\n  - agent: Sent.\n  - end_conversation: true`,
  });
  const s = expectClean(check(call("[a@b.com, c@d.com]")));
  const step = s.reference[0];
  assert.equal(step?.kind, "agent_calls");
  assert.deepEqual(step?.kind === "agent_calls" ? step.calls[0]?.arguments.to : null, ["a@b.com", "c@d.com"]);
  const item = expectOne(check(call("[a@b.com, 7]")), "argument-type", "7");
  assert.equal(item.message, 'Each item of "to" is a string, found the number 7. Put it in quotes to keep it as text.');
  const scalar = expectOne(check(call("a@b.com")), "argument-type", "a@b.com");
  assert.equal(scalar.message, '"to" takes a list of strings, found the text "a@b.com".');
});

test("tool names are the pack's: a ToolSandbox tool in a tooltalk scenario says where it lives", () => {
  const result = check({ world: TOOLTALK, tools: "tools:\n  allow: [SendEmial, search_contacts]" });
  assert.deepEqual(
    result.diagnostics.map((d) => [d.code, underlined(result, d), d.message]),
    [
      ["unknown-tool", "SendEmial", 'Unknown tool "SendEmial". Did you mean "SendEmail"?'],
      [
        "unknown-tool",
        "search_contacts",
        'Unknown tool "search_contacts". It is a tool of the toolsandbox pack; this scenario\'s world.pack is tooltalk.',
      ],
    ],
  );
});

test("a table that has rows is changed with replace/remove/update/add; a one-row table takes its columns", () => {
  const misspelt = expectOne(check({ world: "world:\n  CONTACT:\n    ad: []\n" }), "table-change-key", "ad");
  assert.equal(
    misspelt.message,
    'CONTACT is changed row by row with "replace", "remove", "update" or "add", not "ad". Did you mean "add"?',
  );
  const singleton = expectOne(check({ world: `${TOOLTALK}  SESSION:\n    add: []\n` }), "singleton-table-change", "add");
  assert.match(singleton.message, /^SESSION always has exactly one row/);
  const session = expectClean(check({ world: `${TOOLTALK}  SESSION: { username: ravi_sandoval, session_token: tok }\n` }));
  assert.deepEqual(session.world.tables.SESSION, [{ username: "ravi_sandoval", session_token: "tok" }]);
});

test("an unknown pack is a schema error with a suggestion, and the file is still checked as ToolSandbox's", () => {
  const d = expectOne(check({ world: "world:\n  pack: tooltlak\n  SETTING: { wifi: false }\n" }), "schema-enum", "tooltlak");
  assert.equal(d.message, 'Unknown value "tooltlak". Did you mean "tooltalk"?');
});

test("a lower-case world key is a misspelt table when it looks like one, else an unknown key", () => {
  const result = check({ world: "world:\n  bse: empty\n  contact: { add: [] }\n  calendar: { add: [] }\n" });
  assert.deepEqual(
    result.diagnostics.map((d) => [d.code, underlined(result, d), d.message]),
    [
      ["schema-unknown-key", "bse", 'Unknown key "bse". Did you mean "base"?'],
      ["unknown-table", "contact", 'The toolsandbox world has no table "contact". Did you mean "CONTACT"?'],
      [
        "unknown-table",
        "calendar",
        'The toolsandbox world has no table "calendar". CALENDAR is a table of the tooltalk pack; set `world.pack: tooltalk` to use it.',
      ],
    ],
  );
});
