import { test } from "node:test";
import assert from "node:assert/strict";
import { callEffects } from "../../../../engine/benchmarks/tooltalk/importer/effects.js";
import { TOOLTALK_TABLES } from "../../../../engine/packs/tooltalk/tables.js";
import type { Row, RowChange, Tables } from "../../../../engine/world/types.js";

const schemas = TOOLTALK_TABLES.schemas;
const touched = (...tables: string[]): RowChange[] => tables.map((table) => ({ op: "insert", table, position: 0, row: {} }));

const alarm = (username: string, alarm_id: string, time: string): Row => ({ username, alarm_id, time });

test("an added row is named by what the call gave, never by the id the tool generated", () => {
  const before: Tables = { ALARM: [alarm("ravi_sandoval", "aaaa-0001", "06:00:00")] };
  const after: Tables = { ALARM: [...(before["ALARM"] ?? []), alarm("ravi_sandoval", "c41e-07ab", "18:30:00")] };
  assert.deepEqual(callEffects(touched("ALARM"), before, after, schemas, { time: "18:30:00" }), [
    { kind: "addition", table: "ALARM", rows: [{ username: "ravi_sandoval", time: "18:30:00" }] },
  ]);
});

test("a removed row is named by its owner and key (alarm ids repeat across users)", () => {
  const before: Tables = { ALARM: [alarm("ravi_sandoval", "aaaa-0001", "06:00:00"), alarm("bo_lindqvist", "aaaa-0001", "07:00:00")] };
  const after: Tables = { ALARM: [alarm("bo_lindqvist", "aaaa-0001", "07:00:00")] };
  assert.deepEqual(callEffects(touched("ALARM"), before, after, schemas, { alarm_id: "aaaa-0001" }), [
    { kind: "removal", table: "ALARM", rows: [{ username: "ravi_sandoval", alarm_id: "aaaa-0001" }] },
  ]);
});

test("a row changed field by field is one changed row with its new values; login secrets are left out", () => {
  const account: Row = {
    username: "kemal_ardic",
    email: "a@b.c",
    phone: "111-111-1111",
    name: "V",
    password: "p",
    session_token: "t",
    verification_code: null,
  };
  const before: Tables = { ACCOUNT: [account] };
  const after: Tables = { ACCOUNT: [{ ...account, email: "new@b.c", phone: "222-222-2222", session_token: "u" }] };
  assert.deepEqual(callEffects(touched("ACCOUNT", "ACCOUNT"), before, after, schemas, {}), [
    { kind: "update", table: "ACCOUNT", rows: [{ username: "kemal_ardic", email: "new@b.c", phone: "222-222-2222" }] },
  ]);
});

test("an update that sets what was there has no effect", () => {
  const row: Row = { username: "bo_lindqvist", reminder_id: "7a-e203", task: "x", due_date: null, status: "complete" };
  assert.deepEqual(callEffects(touched("REMINDER"), { REMINDER: [row] }, { REMINDER: [{ ...row }] }, schemas, {}), []);
});

test("the session is a snapshot of who is logged in, without the token", () => {
  const before: Tables = { SESSION: [{ username: null, session_token: null }] };
  const after: Tables = { SESSION: [{ username: "ines_moreau", session_token: "b07d2c18-4e6f-3a95" }] };
  assert.deepEqual(callEffects(touched("SESSION"), before, after, schemas, {}), [
    { kind: "snapshot", table: "SESSION", rows: [{ username: "ines_moreau" }] },
  ]);
});

test("an added row leaves out null columns, and keeps a key the call itself named", () => {
  const event: Row = {
    username: "ines_moreau",
    event_id: "b07d2c18-4e6f",
    name: "Kayaking",
    event_type: "event",
    start_time: "2024-06-07 08:00:00",
    end_time: "2024-06-09 18:00:00",
    location: null,
    description: null,
    attendees: null,
  };
  const [effect] = callEffects(touched("CALENDAR"), { CALENDAR: [] }, { CALENDAR: [event] }, schemas, { name: "Kayaking" });
  assert.deepEqual(effect?.rows, [
    { username: "ines_moreau", name: "Kayaking", event_type: "event", start_time: "2024-06-07 08:00:00", end_time: "2024-06-09 18:00:00" },
  ]);
  const account: Row = {
    username: "noor_haddad",
    email: "h@g.com",
    phone: null,
    name: null,
    password: "pw",
    session_token: "tok",
    verification_code: null,
  };
  const [registered] = callEffects(touched("ACCOUNT"), { ACCOUNT: [] }, { ACCOUNT: [account] }, schemas, {
    username: "noor_haddad",
    password: "pw",
    email: "h@g.com",
  });
  assert.deepEqual(registered?.rows, [{ username: "noor_haddad", email: "h@g.com", password: "pw" }]);
});
