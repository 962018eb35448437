import { test } from "node:test";
import assert from "node:assert/strict";
import { defaultWorld, uuid5 } from "../../engine/packs/toolsandbox/default-world.js";
import { check, describe, expectClean, expectOne, underlined } from "./helpers.js";

const NOW = Date.UTC(2026, 0, 15, 17, 0, 0) / 1000; // the default clock

test("base: empty keeps only the settings row", () => {
  const s = expectClean(check({ world: "world: { base: empty }" }));
  assert.deepEqual(s.world.tables, { SETTING: defaultWorld(NOW).SETTING, CONTACT: [], MESSAGING: [], REMINDER: [] });
});

test("unknown columns are reported at the key in SETTING, rows, where and set", () => {
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    ["world:\n  SETTING: { wiifi: false }", "wiifi", "wifi"],
    ["world:\n  CONTACT:\n    add:\n      - { name: A, phone: '+1' }", "phone", "phone_number"],
    ["world:\n  CONTACT:\n    remove:\n      - where: { nmae: Homer S }", "nmae", "name"],
    ["world:\n  CONTACT:\n    update:\n      - where: { name: Homer S }\n        set: { relation: boss }", "relation", "relationship"],
  ];
  for (const [world, key, suggestion] of cases) {
    const result = check({ world });
    const d = result.diagnostics.find((x) => x.code === "unknown-column");
    assert.ok(d, describe(result));
    assert.equal(underlined(result, d), key);
    assert.equal(d.data?.suggestion, suggestion);
  }
});

test("values are checked against the column type, nullable columns take null", () => {
  const d = expectOne(check({ world: "world:\n  SETTING: { cellular: 'off' }" }), "column-type", "'off'");
  assert.equal(d.message, '"cellular" takes true or false, found the text "off".');
  const notNull = expectOne(
    check({ world: "world:\n  CONTACT:\n    add:\n      - { name: A, phone_number: null }" }),
    "column-type",
    "null",
  );
  assert.match(notNull.message, /cannot be empty/);
  expectClean(check({ world: "world:\n  CONTACT:\n    add:\n      - { name: A, phone_number: '+1', relationship: null }" }));
  // YAML reads an unquoted +15550100 as a number: the message says how to keep it text.
  const phone = expectOne(
    check({ world: "world:\n  CONTACT:\n    add:\n      - { name: A, phone_number: +15550100 }" }),
    "column-type",
    "+15550100",
  );
  assert.equal(phone.message, '"phone_number" takes a string, found the number 15550100. Put it in quotes to keep it as text.');
});

test("a new row without a required column says which", () => {
  const result = check({ world: "world:\n  MESSAGING:\n    add:\n      - { content: Hi, sender_phone_number: '+1' }" });
  const d = expectOne(result, "missing-column", "{ content: Hi, sender_phone_number: '+1' }");
  assert.equal(d.message, 'A new MESSAGING row needs "recipient_phone_number".');
});

test("timestamp columns take time expressions; a bad one is reported at the value", () => {
  const s = expectClean(
    check({
      world: "world:\n  REMINDER:\n    replace:\n      - { content: A, reminder_timestamp: now + 1h, creation_timestamp: 1700000000 }",
    }),
  );
  assert.equal(s.world.tables.REMINDER![0]!.reminder_timestamp, NOW + 3600);
  assert.equal(s.world.tables.REMINDER![0]!.creation_timestamp, 1700000000);
  assert.equal(s.world.tables.REMINDER![0]!.reminder_id, uuid5("test_scenario:REMINDER:1"));
  const d = expectOne(
    check({ world: "world:\n  REMINDER:\n    add:\n      - { content: A, reminder_timestamp: in an hour }" }),
    "bad-time-expression",
    "in an hour",
  );
  assert.match(d.message, /not a time expression/);
});

test("a where that selects nothing is a warning with the closest existing value", () => {
  const result = check({ world: "world:\n  CONTACT:\n    remove:\n      - where: { name: Fredrik Thordendahl }" });
  const d = expectOne(result, "where-no-match", "Fredrik Thordendahl");
  assert.equal(d.severity, "warning");
  assert.deepEqual(d.data, { suggestion: "Fredrik Thordendal" });
  assert.ok(result.scenario, "a warning does not block the scenario");
  assert.equal(result.scenario.world.tables.CONTACT!.length, 4);
});

test("where matches on all given columns, including resolved timestamps", () => {
  const s = expectClean(check({ world: "world:\n  REMINDER:\n    remove:\n      - where: { creation_timestamp: now - 3d }" }));
  assert.deepEqual(
    s.world.tables.REMINDER!.map((r) => r.content),
    ["Buy tickets for Merrily next week", "Buy a nice rich navy bathing dress"],
  );
});

test("added contacts get person_id = uuid5(name) and is_self false; explicit ids are kept", () => {
  const s = expectClean(
    check({
      world:
        "world:\n  CONTACT:\n    add:\n      - { name: Kirk Hammett, phone_number: '+15550123' }\n      - { person_id: p1, name: X, phone_number: '+1', is_self: false }",
    }),
  );
  assert.deepEqual(s.world.tables.CONTACT!.slice(-2), [
    { person_id: uuid5("Kirk Hammett"), name: "Kirk Hammett", phone_number: "+15550123", relationship: null, is_self: false },
    { person_id: "p1", name: "X", phone_number: "+1", relationship: null, is_self: false },
  ]);
});
