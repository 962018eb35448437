import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultWorld, uuid5 } from "../../engine/packs/toolsandbox/default-world.js";
import { DEFAULT_WEB_DATA } from "../../engine/tools/default-web-data.js";
import { BUILTIN_DEMONSTRATIONS, DEFAULT_DEMONSTRATIONS } from "../../engine/scenario/prompts/demonstrations.js";
import { DEFAULT_AGENT_SYSTEM_PROMPT } from "../../engine/scenario/prompts/prompts.js";
import { check, expectClean } from "./helpers.js";

const full = expectClean(check(readFileSync(join(__dirname, "fixtures", "full.scenario.yaml"), "utf8")));
// 2026-11-21T10:00:00 in Berlin is 09:00 UTC (CET, +01:00).
const NOW = Date.UTC(2026, 10, 21, 9, 0, 0) / 1000;
const HOUR = 3600;

test("a minimal scenario gets every documented default", () => {
  const s = expectClean(check({}));
  const now = Date.UTC(2026, 0, 15, 17, 0, 0) / 1000; // 2026-01-15T09:00:00 in Los Angeles
  assert.deepEqual(s.clock, { now, timezone: "America/Los_Angeles", now_iso: "2026-01-15T09:00:00-08:00" });
  assert.deepEqual(s.world, { pack: "toolsandbox", tables: defaultWorld(now) });
  assert.deepEqual(s.web, DEFAULT_WEB_DATA);
  assert.deepEqual(s.tools, { allow: null, deny: [] });
  assert.equal(s.agent.system_prompt, DEFAULT_AGENT_SYSTEM_PROMPT);
  assert.deepEqual(
    s.user.demonstrations,
    DEFAULT_DEMONSTRATIONS.map((n) => BUILTIN_DEMONSTRATIONS[n]),
  );
  assert.deepEqual(s.user.knowledge, []);
  assert.equal(s.max_messages, 30);
  assert.deepEqual(s.options, { invalid_tool_call: "recover" });
  assert.deepEqual([s.description, s.categories, s.milestones, s.minefields], ["", [], [], []]);
  assert.deepEqual(s.reference, [{ kind: "agent_text", text: "Done." }, { kind: "end_conversation" }]);
});

test("the clock resolves in its timezone and keeps the offset in now_iso", () => {
  assert.deepEqual(full.clock, { now: NOW, timezone: "Europe/Berlin", now_iso: "2026-11-21T10:00:00+01:00" });
});

test("world changes apply in the order replace, remove, update, add, with defaults and time expressions", () => {
  const base = defaultWorld(NOW);
  const tables = full.world.tables;
  assert.deepEqual(tables.SETTING, [{ ...base.SETTING![0]!, cellular: false, latitude: 52.52, longitude: 13.405 }]);
  assert.deepEqual(tables.CONTACT, [
    base.CONTACT![0],
    base.CONTACT![1],
    { ...base.CONTACT![3]!, relationship: "manager" }, // updated in place; John Petrucci removed
    { person_id: uuid5("Lars Ulrich"), name: "Lars Ulrich", phone_number: "+15550100", relationship: "friend", is_self: false },
  ]);
  assert.deepEqual(tables.MESSAGING, [
    {
      message_id: uuid5("full_example:MESSAGING:1"),
      sender_person_id: null,
      sender_phone_number: "+15550100",
      recipient_person_id: null,
      recipient_phone_number: "+11233344455",
      content: "Rehearsal moved to Friday",
      creation_timestamp: NOW - 15.5 * HOUR, // yesterday 18:30
    },
  ]);
  assert.deepEqual(tables.REMINDER, [
    {
      reminder_id: uuid5("full_example:REMINDER:1"),
      content: "Water the plants",
      creation_timestamp: NOW - 48 * HOUR,
      reminder_timestamp: NOW + 22 * HOUR,
      latitude: null,
      longitude: null,
    },
    {
      reminder_id: uuid5("full_example:REMINDER:2"),
      content: "Call mom",
      creation_timestamp: NOW,
      reminder_timestamp: NOW + 31 * HOUR,
      latitude: null,
      longitude: null,
    },
  ]);
});

test("web data: added entries come first, rates in the default base merge", () => {
  assert.equal(full.web.places[0]!.name, "Blue Bottle Coffee");
  assert.deepEqual(full.web.places.slice(1), DEFAULT_WEB_DATA.places);
  assert.deepEqual(full.web.weather, DEFAULT_WEB_DATA.weather);
  assert.deepEqual(full.web.exchange_rates, {
    base: DEFAULT_WEB_DATA.exchange_rates.base,
    rates: { ...DEFAULT_WEB_DATA.exchange_rates.rates, EUR: 0.5 },
  });
});

test("tools, agent, user, limits and options resolve as written", () => {
  assert.deepEqual(full.tools, {
    allow: [
      "search_contacts",
      "send_message_with_phone_number",
      "set_cellular_service_status",
      "add_reminder",
      "search_weather_around_lat_lon",
      "unit_conversion",
    ],
    deny: ["unit_conversion"],
  });
  assert.equal(full.agent.system_prompt, "Ask before you change settings.");
  assert.deepEqual(full.user.knowledge, [
    { fact: 'The text is "Rehearsal at 6".', value: "Rehearsal at 6", reveal: "when_asked" },
    { fact: "Lars's phone number is +15550100.", value: "+15550100", reveal: "never" },
  ]);
  assert.deepEqual(full.user.demonstrations, [
    BUILTIN_DEMONSTRATIONS.search_message_with_recency_latest_multiple_user_turn,
    {
      name: "inline_demo",
      goal: "Ask for a text to be sent.",
      messages: [
        { sender: "user", recipient: "agent", content: "Please text Maya." },
        { sender: "agent", recipient: "user", content: "What should it say?" },
      ],
    },
  ]);
  assert.equal(full.user.opening, "I need to text Lars.");
  assert.equal(full.max_messages, 12);
  assert.deepEqual(full.options, { invalid_tool_call: "end" });
  assert.deepEqual(full.categories, ["MULTIPLE_TOOL_CALL", "MULTIPLE_USER_TURN"]);
});

test("milestones: explicit edges, guardrails, measures, default references, extraction", () => {
  const none = { tables: null, exclude: [] };
  assert.deepEqual(full.milestones, [
    {
      id: "found_lars",
      description: null,
      after: [],
      guardrails: none,
      constraints: [
        {
          kind: "snapshot",
          table: "SANDBOX",
          target: [
            {
              sender: "execution_environment",
              recipient: "agent",
              tool_trace: [
                { tool_name: "search_contacts", arguments: { name: "Lars Ulrich" } },
                { tool_name: "search_contacts", arguments: { name: "Lars" } },
              ],
            },
          ],
          measures: {},
          reference: null,
        },
      ],
    },
    {
      id: "cellular_on",
      description: "Cellular is back on.",
      after: [],
      guardrails: { tables: ["CONTACT", "MESSAGING"], exclude: [] },
      constraints: [{ kind: "snapshot", table: "SETTING", target: [{ cellular: true }], measures: {}, reference: null }],
    },
    {
      id: "message_sent",
      description: null,
      after: ["found_lars", "cellular_on"],
      guardrails: { tables: null, exclude: ["SETTING"] },
      constraints: [
        {
          kind: "addition",
          table: "MESSAGING",
          target: [{ recipient_phone_number: "+15550100", content: "Rehearsal at 6" }],
          measures: { content: { kind: "contains" } },
          reference: { kind: "initial" },
        },
        {
          kind: "update",
          table: "CONTACT",
          target: [{ name: "Homer S" }],
          measures: { relationship: { kind: "any" } },
          reference: { kind: "milestone", id: "found_lars" },
        },
      ],
    },
    {
      id: "reminder_added",
      description: null,
      after: ["message_sent"],
      guardrails: none,
      constraints: [
        {
          kind: "addition",
          table: "REMINDER",
          target: [{ content: "Call mom", reminder_timestamp: NOW + 31 * HOUR }],
          measures: { content: { kind: "rouge_l" }, reminder_timestamp: { kind: "close", atol: 60 } },
          reference: { kind: "initial" },
        },
      ],
    },
    {
      id: "weather_read",
      description: null,
      after: ["found_lars"],
      guardrails: none,
      constraints: [
        {
          kind: "tool_trace_extract",
          table: "SANDBOX",
          target: [{ tool_trace: [{ tool_name: "search_weather_around_lat_lon", arguments: { days: 0 } }] }],
          measures: { tool_trace: { kind: "tool_trace", atol: { latitude: 0.01, longitude: 0.01 } } },
          reference: { kind: "milestone", id: "found_lars" },
          extractor: "lat_lon_dict",
          extract: [
            { path: "result.latitude", as: "latitude", normalize: "raw" },
            { path: "result.longitude", as: "longitude", normalize: "raw" },
          ],
          fill: "tool_trace",
        },
        {
          kind: "tool_trace_extract",
          table: "SANDBOX",
          target: [{ sender: "agent", recipient: "user", content: "Found {who}." }],
          measures: { content: { kind: "exact" } },
          reference: { kind: "milestone", id: "found_lars" },
          extractor: null,
          extract: [{ path: "result.name", as: "who", normalize: "raw" }],
          fill: "content",
        },
      ],
    },
  ]);
});

test("minefields without `after` form a chain of their own", () => {
  assert.deepEqual(
    full.minefields.map((m) => [m.id, m.after]),
    [
      ["texted_homer", []],
      ["removed_lars", ["texted_homer"]],
    ],
  );
  assert.deepEqual(full.minefields[1]!.constraints, [
    { kind: "removal", table: "CONTACT", target: [{ name: "Lars Ulrich" }], measures: {}, reference: { kind: "initial" } },
  ]);
});

test("reference steps: default call ids call_<step>_<n>, explicit ids kept, timestamps resolved", () => {
  assert.deepEqual(full.reference, [
    { kind: "agent_text", text: "Sure. What should the message say?" },
    { kind: "user_text", text: "Rehearsal at 6. Also remind me to call mom tomorrow at 17:00." },
    {
      kind: "agent_calls",
      calls: [
        { id: "call_3_1", tool: "search_contacts", arguments: { name: "Lars Ulrich" } },
        { id: "turn_on", tool: "set_cellular_service_status", arguments: { on: true } },
      ],
    },
    {
      kind: "agent_calls",
      calls: [
        { id: "call_4_1", tool: "send_message_with_phone_number", arguments: { phone_number: "+15550100", content: "Rehearsal at 6" } },
        { id: "call_4_2", tool: "add_reminder", arguments: { content: "Call mom", reminder_timestamp: NOW + 31 * HOUR, latitude: null } },
      ],
    },
    { kind: "agent_text", text: "Done, both are set." },
    { kind: "end_conversation" },
  ]);
});

test("resolution is deterministic: the same text gives the same scenario", () => {
  const text = readFileSync(join(__dirname, "fixtures", "full.scenario.yaml"), "utf8");
  assert.deepEqual(check(text).scenario, full);
});
