import { test } from "node:test";
import assert from "node:assert/strict";
import { check, describe, expectClean, expectOne, underlined } from "./helpers.js";

const steps = (...lines: string[]) => `reference:\n${lines.map((l) => `  - ${l}`).join("\n")}`;
const call = (tool: string, args = "{}") => `calls: [{ tool: ${tool}, arguments: ${args} }]`;
const END = ["agent: Done.", "end_conversation: true"];
const codes = (r: ReturnType<typeof check>) => r.diagnostics.map((d) => [d.code, underlined(r, d)]);

test("tool lists name catalog tools; the closest name is suggested", () => {
  const r = check({ tools: "tools:\n  allow: [send_message]\n  deny: [get_wifi_statu]" });
  assert.deepEqual(
    r.diagnostics.map((d) => [d.code, underlined(r, d), d.data?.suggestion]),
    [
      ["unknown-tool", "send_message", "send_message_with_phone_number"],
      ["unknown-tool", "get_wifi_statu", "get_wifi_status"],
    ],
  );
});

test("a reference call must be to a tool the agent can call under the lists", () => {
  const notAllowed = check({ tools: "tools: { allow: [get_wifi_status] }", reference: steps(call("get_cellular_service_status"), ...END) });
  assert.match(expectOne(notAllowed, "tool-not-allowed", "get_cellular_service_status").message, /tools.allow does not list/);
  const denied = check({ tools: "tools: { deny: [get_wifi_status] }", reference: steps(call("get_wifi_status"), ...END) });
  assert.match(expectOne(denied, "tool-not-allowed", "get_wifi_status").message, /tools.deny withholds/);
  const userTool = check({ reference: steps(call("end_conversation"), ...END) });
  assert.match(expectOne(userTool, "tool-not-allowed", "end_conversation").message, /only the user/);
  const unknown = check({ reference: steps(call("search_contact", "{ name: x }"), ...END) });
  assert.deepEqual(expectOne(unknown, "unknown-tool", "search_contact").data, { suggestion: "search_contacts" });
});

test("arguments: unknown names, missing required ones, and types from the catalog", () => {
  const r = check({
    reference: steps(
      call("search_contacts", "{ nam: Homer S }"),
      call("get_wifi_status", "{ verbose: true }"),
      call("send_message_with_phone_number", "{ phone_number: '+1' }"),
      call("search_weather_around_lat_lon", "{ days: 1.5, latitude: north }"),
      ...END,
    ),
  });
  assert.deepEqual(
    codes(r),
    [
      ["unknown-argument", "nam"],
      ["unknown-argument", "verbose"],
      ["missing-argument", "arguments"],
      ["argument-type", "1.5"],
      ["argument-type", "north"],
    ],
    describe(r),
  );
  assert.equal(r.diagnostics[0]!.data?.suggestion, "name");
  assert.match(r.diagnostics[1]!.message, /get_wifi_status takes no arguments/);
  assert.equal(r.diagnostics[2]!.message, 'send_message_with_phone_number needs the argument "content".');
  assert.equal(r.diagnostics[3]!.message, '"days" takes a whole number, found the number 1.5.');
});

test("timestamp arguments take time expressions; nullable ones take null; numbers take integers", () => {
  const s = expectClean(
    check({ reference: steps(call("add_reminder", "{ content: x, reminder_timestamp: now + 2h, latitude: null, longitude: 3 }"), ...END) }),
  );
  const step = s.reference[0]!;
  assert.ok(step.kind === "agent_calls");
  assert.deepEqual(step.calls[0]!.arguments, { content: "x", reminder_timestamp: s.clock.now + 7200, latitude: null, longitude: 3 });
  expectOne(
    check({ reference: steps(call("add_reminder", "{ content: x, reminder_timestamp: next week }"), ...END) }),
    "bad-time-expression",
    "next week",
  );
});

test("call ids default to call_<step>_<n> and must be unique", () => {
  const s = expectClean(
    check({
      reference: steps("calls: [{ tool: get_wifi_status }, { tool: get_current_location }]", "calls: [{ tool: get_wifi_status }]", ...END),
    }),
  );
  assert.deepEqual(
    s.reference.flatMap((st) => (st.kind === "agent_calls" ? st.calls.map((c) => c.id) : [])),
    ["call_1_1", "call_1_2", "call_2_1"],
  );
  const dup = check({ reference: steps("calls: [{ tool: get_wifi_status, id: x }, { tool: get_current_location, id: x }]", ...END) });
  expectOne(dup, "duplicate-call-id", "x");
});

test("the reference follows the turns of a conversation", () => {
  const order = (...s: string[]) => check({ reference: steps(...s) });
  expectOne(order("user: Hello", ...END), "reference-order", "user: Hello");
  expectOne(order("end_conversation: true"), "reference-order", "end_conversation: true");
  expectOne(order("agent: Which one?", "agent: Hello?", "end_conversation: true"), "reference-order", "agent: Hello?");
  expectOne(order(call("get_wifi_status"), "user: Thanks", ...END), "reference-order", "user: Thanks");
  expectOne(order("agent: Hi", "user: Hi", "end_conversation: true"), "reference-order", "end_conversation: true");
  expectOne(order(...END, "agent: One more thing"), "reference-order", "agent: One more thing");
  expectOne(order("agent: Shall I?"), "reference-order", "agent: Shall I?");
  expectClean(
    order(call("get_wifi_status"), call("get_current_location"), "agent: Sure?", "user: Yes", "agent: Done.", "end_conversation: true"),
  );
});

test("a reference that stops where the agent would speak is a warning", () => {
  const r = check({ reference: steps(call("get_wifi_status")) });
  const d = expectOne(r, "reference-incomplete", "calls: [{ tool: get_wifi_status, arguments: {} }]");
  assert.equal(d.severity, "warning");
  assert.ok(r.scenario);
});

test("a never-revealed value in the opening is a knowledge leak (warning), case-insensitively", () => {
  const user =
    "user:\n  goal: Find the code.\n  knowledge:\n    - { fact: The code is XJ-42., value: xj-42, reveal: never }\n    - { fact: Name is Bo., value: Bo }\n  opening: Use code XJ-42 for Bo.";
  const r = check({ user });
  const d = expectOne(r, "knowledge-leak", "Use code XJ-42 for Bo.");
  assert.equal(d.severity, "warning");
  assert.match(d.message, /"xj-42"/);
});

test("demonstrations: built-in names (with suggestions), inline ones, or none", () => {
  const typo = check({ user: "user:\n  goal: g\n  opening: o\n  demonstrations: [search_message_with_recency_latest]" });
  const d = expectOne(typo, "unknown-demonstration", "search_message_with_recency_latest");
  assert.equal(d.data?.suggestion, "search_message_with_recency_latest_multiple_user_turn");
  const none = expectClean(check({ user: "user:\n  goal: g\n  opening: o\n  demonstrations: []" }));
  assert.deepEqual(none.user.demonstrations, []);
});
