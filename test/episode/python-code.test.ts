import { test } from "node:test";
import assert from "node:assert/strict";
import { malformedToolCallCode, pythonIdentifierPrefix, toolCallCode } from "../../engine/episode/python-code.js";

test("a tool call becomes upstream's three lines of Python", () => {
  assert.equal(
    toolCallCode("call_abc", "search_contacts", { name: "Homer S", is_self: false, limit: 3, ratio: 0.5, note: null }),
    [
      "call_abc_parameters = {'name': 'Homer S', 'is_self': False, 'limit': 3, 'ratio': 0.5, 'note': None}",
      "call_abc_response = search_contacts(**call_abc_parameters)",
      "print(repr(call_abc_response))",
    ].join("\n"),
  );
  assert.equal(toolCallCode("c", "get_wifi_status", {}).split("\n")[0], "c_parameters = {}");
});

test("ids that are not Python identifiers still give valid variable names", () => {
  assert.equal(pythonIdentifierPrefix("call_1"), "call_1");
  assert.equal(pythonIdentifierPrefix("6f1c-9a"), "_6f1c_9a");
  assert.equal(pythonIdentifierPrefix(""), "_");
  assert.match(toolCallCode("a-b", "get_wifi_status", {}), /^a_b_parameters = \{\}\na_b_response = get_wifi_status\(\*\*a_b_parameters\)/);
});

test("malformed argument text is shown as what the agent sent", () => {
  assert.equal(
    malformedToolCallCode("call_1", "set_wifi_status", '{"on": fals'),
    [
      "call_1_parameters = json.loads('{\"on\": fals')",
      "call_1_response = set_wifi_status(**call_1_parameters)",
      "print(repr(call_1_response))",
    ].join("\n"),
  );
});
