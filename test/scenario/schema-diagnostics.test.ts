import { test } from "node:test";
import assert from "node:assert/strict";
import { check, describe, expectOne, single, underlined } from "./helpers.js";

const milestone = (constraint: string) => `milestones:\n  - id: m\n    constraints:\n${constraint}`;

test("an unknown key is underlined at the key, with the closest allowed key suggested", () => {
  const d = expectOne(check({ options: "options: { invalid_tool_cal: end }" }), "schema-unknown-key", "invalid_tool_cal");
  assert.equal(d.message, 'Unknown key "invalid_tool_cal". Did you mean "invalid_tool_call"?');
  assert.deepEqual(d.data, { suggestion: "invalid_tool_call" });
});

test("an unknown key with nothing close lists the keys that are allowed", () => {
  const d = expectOne(check({ agent: "agent: { mood: grumpy }" }), "schema-unknown-key", "mood");
  assert.equal(d.message, 'Unknown key "mood". Expected "system_prompt" or "persona".');
  assert.equal(d.data, undefined);
});

test("a misspelt required key is one diagnostic, not an unknown key plus a missing key", () => {
  const result = check({ user: "user:\n  goal: Do it.\n  openng: Hello." });
  const d = expectOne(result, "schema-unknown-key", "openng");
  assert.deepEqual(d.data, { suggestion: "opening" });
});

test("a missing required key is reported at the key of the section that lacks it", () => {
  const d = expectOne(check({ user: "user:\n  opening: Hello." }), "schema-required", "user");
  assert.equal(d.message, 'This user section needs "goal".');
  assert.deepEqual(d.data, { insert: "goal" });
});

test("an empty top level names what a scenario needs", () => {
  const result = check("description: nothing else\n");
  assert.deepEqual(
    result.diagnostics.map((d) => [d.code, d.message]),
    [
      ["schema-required", 'This scenario needs "name".'],
      ["schema-required", 'This scenario needs "user".'],
      ["schema-required", 'This scenario needs "reference".'],
    ],
  );
  assert.equal(check("").diagnostics[0]!.code, "empty-file");
  assert.equal(check("# only a comment\n").diagnostics[0]!.code, "empty-file");
});

test("a wrong type names what was expected and what was found, at the value", () => {
  const d = expectOne(check({ max_messages: "max_messages: lots" }), "schema-type", "lots");
  assert.equal(d.message, 'Expected a whole number, found the text "lots".');
  const list = expectOne(check({ milestones: "milestones: { id: m }" }), "schema-type", "{ id: m }");
  assert.equal(list.message, "Expected a list, found a mapping.");
});

test("an enum value gets a suggestion when one is close, else the list of values", () => {
  const close = expectOne(check({ options: "options: { invalid_tool_call: recovr }" }), "schema-enum", "recovr");
  assert.deepEqual(close.data, { suggestion: "recover" });
  const far = expectOne(check({ options: "options: { invalid_tool_call: explode }" }), "schema-enum", "explode");
  assert.equal(far.message, '"explode" is not allowed here. Expected "recover" or "end".');
});

test("an unknown constraint kind is reported once at the kind, not once per union branch", () => {
  const d = expectOne(
    check({ milestones: milestone("      - kind: addtion\n        table: CONTACT\n        target: [{ name: x }]") }),
    "schema-enum",
    "addtion",
  );
  assert.equal(d.message, 'Unknown kind "addtion". Did you mean "addition"?');
});

test("a known kind validates only its own branch: its keys, its required fields", () => {
  const result = check({
    milestones: milestone("      - kind: addition\n        table: SANDBOX\n        target: [{ content: x }]\n        extractor: days"),
  });
  assert.deepEqual(
    result.diagnostics.map((d) => [d.code, underlined(result, d)]),
    [
      ["sandbox-not-world", "SANDBOX"],
      ["schema-unknown-key", "extractor"],
    ],
    describe(result),
  );
});

test("a measure kind is a tagged union too; `close` needs its tolerance", () => {
  const target = "      - kind: snapshot\n        table: SETTING\n        target: [{ latitude: 1.0 }]\n";
  const result = check({ milestones: milestone(`${target}        measures: { latitude: { kind: close } }`) });
  const d = expectOne(result, "schema-required", "latitude");
  assert.equal(d.message, 'This close measure needs "atol".');
});

test("a type union reports the branch the value's type picks, or one 'expected X or Y'", () => {
  const wrongItem = check({ user: "user:\n  goal: g\n  opening: o\n  demonstrations: [[1]]" });
  const d = expectOne(wrongItem, "schema-type", "[1]");
  assert.equal(d.message, "Expected a string or a demonstration, found a list.");
  const inline = check({ user: "user:\n  goal: g\n  opening: o\n  demonstrations:\n    - { name: d, goal: g, mesages: [] }" });
  assert.deepEqual(
    inline.diagnostics.map((x) => [x.code, underlined(inline, x)]),
    [["schema-unknown-key", "mesages"]],
    describe(inline),
  );
});

test("a reference step has exactly one key", () => {
  // The schema admits a second key for DialogTool's `action:`; two step keys are the checker's to report.
  const two = expectOne(check({ reference: "reference:\n  - agent: Hi\n    user: Hello" }), "reference-step-keys", "agent: Hi");
  assert.match(two.message, /exactly one of calls, agent, user or end_conversation/);
  const falseEnd = check({ reference: "reference:\n  - agent: Hi\n  - end_conversation: false" });
  assert.equal(expectOne(falseEnd, "schema-enum", "false").message, "Write `end_conversation: true`, or remove the step.");
});

test("patterns explain the expected form", () => {
  const d = expectOne(check({ name: "name: My Scenario" }), "schema-pattern", "My Scenario");
  assert.match(d.message, /lower-case letters, digits and underscores/);
  const key = expectOne(check({ web: "web:\n  exchange_rates: { rates: { eur: 0.9 } }" }), "schema-pattern", "eur");
  assert.match(key.message, /3-letter ISO currency code/);
});

test("duplicate list entries are underlined at the repeated entry", () => {
  const result = check({ tools: "tools: { allow: [search_contacts, get_wifi_status, search_contacts] }" });
  const d = single(result);
  assert.equal(d.code, "schema-unique");
  assert.equal(result.text.slice(d.offset[0], d.offset[1]), "search_contacts");
  assert.ok(d.offset[0] > result.text.indexOf("get_wifi_status"));
});
