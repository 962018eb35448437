import { test } from "node:test";
import assert from "node:assert/strict";
import { CONTACT_TOOLS } from "../../engine/packs/toolsandbox/tools/contact.js";
import type { JsonValue } from "../../engine/base/json.js";
import type { ToolContext } from "../../engine/tools/types.js";
import { defaultWorld } from "../../engine/packs/toolsandbox/default-world.js";
import { IDS, NOW, call, makeContext, uuidN, worldWithTable } from "./fixtures.js";

const run = (name: string, args: Readonly<Record<string, JsonValue>>, ctx: ToolContext) => call(CONTACT_TOOLS, name, args, ctx);
const defaultContacts = () => defaultWorld(NOW).CONTACT ?? [];

test("add_contact appends a contact with a fresh uuid4 and shows the id as a Python string", () => {
  const ctx = makeContext();
  const out = run("add_contact", { name: "Lars Ulrich", phone_number: "+15550100" }, ctx);
  assert.equal(out.ok, true);
  assert.equal(out.text, `'${uuidN(1)}'`);
  assert.ok(out.ok);
  assert.equal(out.result, uuidN(1));
  // Python defaults appear in the trace.
  assert.deepEqual(out.trace.arguments, { name: "Lars Ulrich", phone_number: "+15550100", relationship: null, is_self: false });
  assert.deepEqual(ctx.world.changes(), [
    {
      op: "insert",
      table: "CONTACT",
      position: 4,
      row: { person_id: uuidN(1), name: "Lars Ulrich", phone_number: "+15550100", relationship: null, is_self: false },
    },
  ]);
  assert.equal(ctx.world.rows("CONTACT").length, 5);
});

test("add_contact stores the relationship and accepts an explicit None for it", () => {
  const ctx = makeContext();
  assert.equal(run("add_contact", { name: "A", phone_number: "+15550100", relationship: "cousin" }, ctx).ok, true);
  assert.equal(run("add_contact", { name: "B", phone_number: "+15550101", relationship: null }, ctx).ok, true);
  assert.deepEqual(
    ctx.world
      .rows("CONTACT")
      .slice(4)
      .map((r) => r.relationship),
    ["cousin", null],
  );
});

test("add_contact refuses a second self entry but still uses up a uuid, like upstream", () => {
  const ctx = makeContext();
  const out = run("add_contact", { name: "Me Again", phone_number: "+15550100", is_self: true }, ctx);
  assert.equal(out.text, "polars.exceptions.DuplicateError: Self entry already exists. Cannot add another one.");
  assert.deepEqual(ctx.world.changes(), []);
  const next = run("add_contact", { name: "Someone", phone_number: "+15550100" }, ctx);
  assert.equal(next.ok && next.result, uuidN(2));
});

test("add_contact may add a self entry once the old one is gone", () => {
  const ctx = makeContext(
    worldWithTable(
      "CONTACT",
      defaultContacts().filter((r) => r.is_self !== true),
    ),
  );
  const out = run("add_contact", { name: "New Me", phone_number: "+15550100", is_self: true }, ctx);
  assert.equal(out.ok, true);
  assert.equal(ctx.world.rows("CONTACT").at(-1)?.is_self, true);
});

test("add_contact rejects a phone number without a country code", () => {
  const ctx = makeContext();
  const out = run("add_contact", { name: "Local", phone_number: "555-1234" }, ctx);
  assert.equal(out.text, "phonenumbers.phonenumberutil.NumberParseException: (0) Missing or invalid default region.");
  assert.deepEqual(ctx.world.changes(), []);
});

test("add_contact checks argument types against the annotations", () => {
  const ctx = makeContext();
  assert.equal(
    run("add_contact", { name: 5, phone_number: "+15550100" }, ctx).text,
    "TypeError: Parameter 'name' is of type '<class 'int'>', but expected '<class 'str'>'.",
  );
  assert.equal(
    run("add_contact", { name: "A", phone_number: "+15550100", relationship: 3.5 }, ctx).text,
    "TypeError: Parameter 'relationship' is of type '<class 'float'>', but expected 'typing.Optional[str]'.",
  );
  assert.equal(
    run("add_contact", { name: "A", phone_number: "+15550100", is_self: "yes" }, ctx).text,
    "TypeError: Parameter 'is_self' is of type '<class 'str'>', but expected '<class 'bool'>'.",
  );
  assert.equal(run("add_contact", { phone_number: "+15550100" }, ctx).text, "TypeError: missing a required argument: 'name'");
  assert.deepEqual(ctx.world.changes(), []);
});

test("modify_contact replaces the given fields and moves the contact to the end", () => {
  const ctx = makeContext();
  const out = run("modify_contact", { person_id: IDS.fredrik, relationship: "enemy" }, ctx);
  assert.equal(out.text, "None");
  assert.ok(out.ok);
  // NOT_GIVEN arguments stay out of the trace.
  assert.deepEqual(out.trace.arguments, { person_id: IDS.fredrik, relationship: "enemy" });
  const old = defaultContacts()[1];
  assert.deepEqual(ctx.world.changes(), [
    { op: "update", table: "CONTACT", position: 1, new_position: 3, old, new: { ...old, relationship: "enemy" } },
  ]);
  assert.deepEqual(
    ctx.world.rows("CONTACT").map((r) => r.name),
    ["Tomas Haake", "John Petrucci", "Homer S", "Fredrik Thordendal"],
  );
});

test("modify_contact may set several fields, including is_self on the self entry itself", () => {
  const ctx = makeContext();
  const out = run("modify_contact", { person_id: IDS.tomas, name: "Tomas H", phone_number: "+15550199", is_self: true }, ctx);
  assert.equal(out.ok, true);
  assert.deepEqual(ctx.world.rows("CONTACT").at(-1), {
    person_id: IDS.tomas,
    name: "Tomas H",
    phone_number: "+15550199",
    relationship: "self",
    is_self: true,
  });
});

test("modify_contact needs at least one field to change", () => {
  const out = run("modify_contact", { person_id: IDS.homer }, makeContext());
  assert.equal(
    out.text,
    "ValueError: No update information given. At least one new field should be provided among [name, phone_number, relationship, is_self] in order to modify contact",
  );
});

test("modify_contact validates a new phone number", () => {
  const out = run("modify_contact", { person_id: IDS.homer, phone_number: "+1" }, makeContext());
  assert.equal(out.text, "phonenumbers.phonenumberutil.NumberParseException: (1) The string supplied did not seem to be a phone number.");
});

test("modify_contact refuses to make a second self entry", () => {
  const ctx = makeContext();
  const out = run("modify_contact", { person_id: IDS.homer, is_self: true }, ctx);
  assert.equal(out.text, "polars.exceptions.DuplicateError: Self entry already exists. Cannot add another one.");
  assert.deepEqual(ctx.world.changes(), []);
});

test("modify_contact reports an unknown id with the id as Python prints it", () => {
  const out = run("modify_contact", { person_id: "no-such-id", name: "X" }, makeContext());
  assert.equal(out.text, "polars.exceptions.NoDataError: No db entry matching person_id='no-such-id' found");
});

test("modify_contact refuses an id that appears twice", () => {
  const homer = defaultContacts()[3];
  assert.ok(homer);
  const ctx = makeContext(worldWithTable("CONTACT", [...defaultContacts(), { ...homer, name: "Homer Clone" }]));
  const out = run("modify_contact", { person_id: IDS.homer, name: "X" }, ctx);
  assert.equal(out.text, `polars.exceptions.DuplicateError: More than 1 entry with person_id='${IDS.homer}' found`);
  assert.deepEqual(ctx.world.changes(), []);
});

test("modify_contact does not accept None for a field (its annotations are not Optional)", () => {
  const out = run("modify_contact", { person_id: IDS.homer, relationship: null }, makeContext());
  assert.equal(
    out.text,
    "TypeError: Parameter 'relationship' is of type '<class 'NoneType'>', but expected 'typing.Union[str, tool_sandbox.common.utils.NotGiven]'.",
  );
});

test("remove_contact deletes the contact", () => {
  const ctx = makeContext();
  const out = run("remove_contact", { person_id: IDS.john }, ctx);
  assert.equal(out.text, "None");
  assert.deepEqual(ctx.world.changes(), [{ op: "delete", table: "CONTACT", position: 2, row: defaultContacts()[2] }]);
  assert.equal(ctx.world.rows("CONTACT").length, 3);
});

test("remove_contact deletes every row with the id", () => {
  const homer = defaultContacts()[3];
  assert.ok(homer);
  const ctx = makeContext(worldWithTable("CONTACT", [homer, ...defaultContacts()]));
  assert.equal(run("remove_contact", { person_id: IDS.homer }, ctx).ok, true);
  assert.deepEqual(
    ctx.world.rows("CONTACT").map((r) => r.name),
    ["Tomas Haake", "Fredrik Thordendal", "John Petrucci"],
  );
});

test("remove_contact reports an unknown id with a deterministic predicate text", () => {
  const ctx = makeContext();
  const out = run("remove_contact", { person_id: "nope" }, ctx);
  assert.equal(out.text, 'polars.exceptions.NoDataError: No db entry matching predicate=[(col("person_id")) == (String(nope))] found');
  assert.equal(
    run("remove_contact", { person_id: 7 }, ctx).text,
    "TypeError: Parameter 'person_id' is of type '<class 'int'>', but expected '<class 'str'>'.",
  );
  assert.deepEqual(ctx.world.changes(), []);
});

test("search_contacts matches a name approximately and prints rows as Python dicts", () => {
  const out = run("search_contacts", { name: "Homer" }, makeContext());
  assert.equal(
    out.text,
    `[{'person_id': '${IDS.homer}', 'name': 'Homer S', 'phone_number': '+10000000000', 'relationship': 'boss', 'is_self': False}]`,
  );
});

test("search_contacts combines criteria and matches relationship approximately", () => {
  const ctx = makeContext();
  const friends = run("search_contacts", { relationship: "Friends" }, ctx);
  assert.ok(friends.ok);
  assert.deepEqual(
    (friends.result as { name: string }[]).map((r) => r.name),
    ["Fredrik Thordendal", "John Petrucci"],
  );
  const john = run("search_contacts", { relationship: "friend", name: "John" }, ctx);
  assert.ok(john.ok);
  assert.deepEqual(
    (john.result as { person_id: string }[]).map((r) => r.person_id),
    [IDS.john],
  );
  assert.deepEqual(ctx.world.changes(), []);
});

test("search_contacts matches person_id, phone_number and is_self exactly", () => {
  const ctx = makeContext();
  const byId = run("search_contacts", { person_id: IDS.fredrik }, ctx);
  assert.ok(byId.ok);
  assert.equal((byId.result as unknown[]).length, 1);
  const byPhone = run("search_contacts", { phone_number: "+10000000000" }, ctx);
  assert.ok(byPhone.ok);
  assert.deepEqual(
    (byPhone.result as { name: string }[]).map((r) => r.name),
    ["Homer S"],
  );
  const self = run("search_contacts", { is_self: true }, ctx);
  assert.ok(self.ok);
  assert.deepEqual(
    (self.result as { name: string }[]).map((r) => r.name),
    ["Tomas Haake"],
  );
  assert.equal(run("search_contacts", { phone_number: "+19999999999" }, ctx).text, "[]");
});

test("search_contacts needs a criterion", () => {
  assert.equal(
    run("search_contacts", {}, makeContext()).text,
    "ValueError: No search criteria are given. At least one search criteria should be provided among ('person_id', 'name', 'phone_number', 'relationship', 'is_self')",
  );
});

test("search_contacts validates the phone number, even None", () => {
  const ctx = makeContext();
  assert.equal(
    run("search_contacts", { phone_number: "0000000000" }, ctx).text,
    "phonenumbers.phonenumberutil.NumberParseException: (0) Missing or invalid default region.",
  );
  assert.equal(
    run("search_contacts", { phone_number: null }, ctx).text,
    "phonenumbers.phonenumberutil.NumberParseException: (1) The phone number supplied was None.",
  );
});

test("search_contacts is not typechecked: odd values reach rapidfuzz and polars as upstream's do", () => {
  const ctx = makeContext();
  assert.equal(run("search_contacts", { name: 5 }, ctx).text, "TypeError: sentence must be a String");
  assert.equal(run("search_contacts", { person_id: null }, ctx).text, "[]");
  const self = run("search_contacts", { is_self: "true" }, ctx);
  assert.ok(self.ok);
  assert.deepEqual(
    (self.result as { name: string }[]).map((r) => r.name),
    ["Tomas Haake"],
  );
});
