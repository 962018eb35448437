import { test } from "node:test";
import assert from "node:assert/strict";
import type { JsonValue } from "../../engine/base/json.js";
import { MESSAGING_TOOLS } from "../../engine/packs/toolsandbox/tools/messaging.js";
import type { ToolContext } from "../../engine/tools/types.js";
import { defaultWorld, uuid5 } from "../../engine/packs/toolsandbox/default-world.js";
import { IDS, NOW, call, makeContext, uuidN, worldWithSettings, worldWithTable } from "./fixtures.js";

const run = (name: string, args: Readonly<Record<string, JsonValue>>, ctx: ToolContext) => call(MESSAGING_TOOLS, name, args, ctx);
const defaultContacts = () => defaultWorld(NOW).CONTACT ?? [];

test("send_message_with_phone_number records a message from the self contact to a known contact", () => {
  const ctx = makeContext();
  const out = run("send_message_with_phone_number", { phone_number: "+10000000000", content: "On my way" }, ctx);
  assert.equal(out.text, `'${uuidN(1)}'`);
  assert.ok(out.ok);
  assert.deepEqual(out.trace, {
    tool_name: "send_message_with_phone_number",
    arguments: { phone_number: "+10000000000", content: "On my way" },
    result: uuidN(1),
  });
  assert.deepEqual(ctx.world.changes(), [
    {
      op: "insert",
      table: "MESSAGING",
      position: 5,
      row: {
        message_id: uuidN(1),
        sender_person_id: IDS.tomas,
        sender_phone_number: "+11233344455",
        recipient_person_id: IDS.homer,
        recipient_phone_number: "+10000000000",
        content: "On my way",
        creation_timestamp: NOW,
      },
    },
  ]);
});

test("send_message_with_phone_number leaves recipient_person_id None for a number not in contacts", () => {
  const ctx = makeContext();
  assert.equal(run("send_message_with_phone_number", { phone_number: "+18307976530", content: "Stop" }, ctx).ok, true);
  const row = ctx.world.rows("MESSAGING").at(-1);
  assert.equal(row?.recipient_person_id, null);
  assert.equal(row?.recipient_phone_number, "+18307976530");
});

test("send_message_with_phone_number checks the phone number before cellular service", () => {
  const ctx = makeContext(worldWithSettings({ cellular: false }));
  const out = run("send_message_with_phone_number", { phone_number: "12345", content: "hi" }, ctx);
  assert.equal(out.text, "phonenumbers.phonenumberutil.NumberParseException: (0) Missing or invalid default region.");
});

test("send_message_with_phone_number needs cellular service, and a refused send uses no uuid", () => {
  const ctx = makeContext(worldWithSettings({ cellular: false }));
  const out = run("send_message_with_phone_number", { phone_number: "+10000000000", content: "hi" }, ctx);
  assert.equal(out.text, "ConnectionError: Cellular service is not enabled");
  assert.deepEqual(ctx.world.changes(), []);
  assert.equal(ctx.uuid4(), uuidN(1));
});

test("send_message_with_phone_number needs exactly one self contact", () => {
  const none = makeContext(
    worldWithTable(
      "CONTACT",
      defaultContacts().filter((r) => r.is_self !== true),
    ),
  );
  assert.equal(
    run("send_message_with_phone_number", { phone_number: "+10000000000", content: "hi" }, none).text,
    "polars.exceptions.DuplicateError: 1 and only 1 self entry should exist in contacts database, instead found 0",
  );
  const tomas = defaultContacts()[0];
  assert.ok(tomas);
  const two = makeContext(worldWithTable("CONTACT", [...defaultContacts(), { ...tomas, person_id: "other-me" }]));
  assert.equal(
    run("send_message_with_phone_number", { phone_number: "+10000000000", content: "hi" }, two).text,
    "polars.exceptions.DuplicateError: 1 and only 1 self entry should exist in contacts database, instead found 2",
  );
  assert.deepEqual(two.world.changes(), []);
});

test("send_message_with_phone_number checks argument types", () => {
  const ctx = makeContext();
  assert.equal(
    run("send_message_with_phone_number", { phone_number: "+10000000000", content: 42 }, ctx).text,
    "TypeError: Parameter 'content' is of type '<class 'int'>', but expected '<class 'str'>'.",
  );
  assert.equal(
    run("send_message_with_phone_number", { content: "hi" }, ctx).text,
    "TypeError: missing a required argument: 'phone_number'",
  );
});

test("search_messages matches ids exactly and prints timestamps as floats", () => {
  const out = run("search_messages", { sender_person_id: IDS.homer }, makeContext());
  const id4 = uuid5("message_4");
  assert.equal(
    out.text,
    `[{'message_id': '${id4}', 'sender_person_id': '${IDS.homer}', 'sender_phone_number': '+10000000000', ` +
      `'recipient_person_id': '${IDS.tomas}', 'recipient_phone_number': '+11233344455', 'content': "How's it going", ` +
      `'creation_timestamp': 1763715417.0}, ` +
      `{'message_id': '${id4}', 'sender_person_id': '${IDS.homer}', 'sender_phone_number': '+10000000000', ` +
      `'recipient_person_id': '${IDS.tomas}', 'recipient_phone_number': '+11233344455', 'content': 'Good, keep me posted', ` +
      `'creation_timestamp': 1763719138.0}]`,
  );
});

test("search_messages matches content approximately and phone numbers exactly", () => {
  const ctx = makeContext();
  const gpu = run("search_messages", { content: "want some GPU" }, ctx);
  assert.ok(gpu.ok);
  assert.deepEqual(
    (gpu.result as { content: string }[]).map((r) => r.content),
    ["Hey kid, you want some GPU?"],
  );
  const toStranger = run("search_messages", { recipient_phone_number: "+18307976530" }, ctx);
  assert.ok(toStranger.ok);
  assert.deepEqual(
    (toStranger.result as { content: string }[]).map((r) => r.content),
    ["No leave me alone"],
  );
  assert.equal(run("search_messages", { recipient_phone_number: "+18307976531" }, ctx).text, "[]");
});

test("search_messages timestamp bounds are inclusive", () => {
  const ctx = makeContext();
  const created = NOW - (3600 + 3 * 60 + 3); // "How's it going"
  const out = run("search_messages", { creation_timestamp_lowerbound: created, creation_timestamp_upperbound: NOW }, ctx);
  assert.ok(out.ok);
  assert.deepEqual(
    (out.result as { content: string }[]).map((r) => r.content),
    ["How's it going", "Things are proceeding as expected", "Good, keep me posted"],
  );
  const upTo = run("search_messages", { creation_timestamp_upperbound: created }, ctx);
  assert.ok(upTo.ok);
  assert.equal((upTo.result as unknown[]).length, 3);
});

test("search_messages needs a criterion; the tuple lists creation_timestamp twice as upstream's does", () => {
  assert.equal(
    run("search_messages", {}, makeContext()).text,
    "ValueError: No search criteria are given. At least one search criteria should be provided among " +
      "('message_id', 'sender_person_id', 'sender_phone_number', 'recipient_person_id', 'recipient_phone_number', " +
      "'content', 'creation_timestamp', 'creation_timestamp')",
  );
});

test("search_messages validates phone numbers and timestamp ranges", () => {
  const ctx = makeContext();
  assert.equal(
    run("search_messages", { sender_phone_number: "+1" }, ctx).text,
    "phonenumbers.phonenumberutil.NumberParseException: (1) The string supplied did not seem to be a phone number.",
  );
  assert.equal(
    run("search_messages", { recipient_phone_number: "+999 1234567" }, ctx).text,
    "phonenumbers.phonenumberutil.NumberParseException: (0) Could not interpret numbers after plus-sign.",
  );
  assert.equal(
    run("search_messages", { creation_timestamp_lowerbound: NOW * 1000 }, ctx).text,
    "ValueError: Parameter 'creation_timestamp_lowerbound' is larger than its valid range maximum of 2524604400.0.",
  );
  assert.equal(
    run("search_messages", { creation_timestamp_upperbound: 0 }, ctx).text,
    "ValueError: Parameter 'creation_timestamp_upperbound' is smaller than its valid range minimum of 315529200.0.",
  );
  assert.equal(
    run("search_messages", { creation_timestamp_lowerbound: "yesterday" }, ctx).text,
    "TypeError: Parameter 'creation_timestamp_lowerbound' is of type '<class 'str'>', but expected 'typing.Union[float, tool_sandbox.common.utils.NotGiven]'.",
  );
});
