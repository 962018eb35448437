import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { check, describe, underlined } from "./helpers.js";

// One file, twenty mistakes of different kinds (fixtures/twenty-mistakes.scenario.yaml): the
// checker must report each exactly once, where the author made it, and nothing else.
const text = readFileSync(join(__dirname, "fixtures", "twenty-mistakes.scenario.yaml"), "utf8");

// [code, 1-based line, 1-based column, underlined text, suggestion]
const EXPECTED: ReadonlyArray<readonly [string, number, number, string, string | null]> = [
  ["schema-unknown-key", 2, 1, "descripton", "description"],
  ["schema-enum", 3, 14, "STATE_DEPENDANCY", "STATE_DEPENDENCY"],
  ["unknown-timezone", 6, 13, "Europe/Berln", "Europe/Berlin"],
  ["unknown-column", 8, 14, "celular", "cellular"],
  ["column-type", 11, 44, "15550100", null],
  ["where-no-match", 13, 24, "Homer Simpson", "Homer S"],
  ["bad-time-expression", 17, 50, "tomorow 17:00", "tomorrow 17:00"],
  ["unknown-tool", 19, 11, "search_contact", "search_contacts"],
  ["knowledge-leak", 26, 12, 'Text Fredrik "See you at rehearsal", or Homer at +10000000000.', null],
  ["schema-enum", 31, 15, "snapshott", "snapshot"],
  ["duplicate-milestone-id", 34, 9, "cellular_on", null],
  ["unknown-milestone", 39, 13, "celular_on", "cellular_on"],
  ["schema-unknown-key", 43, 9, "tagret", "target"],
  ["milestone-unconnected", 44, 9, "lonely", null],
  ["sandbox-one-row", 49, 11, "- { sender: agent, recipient: user }", null],
  ["dag-cycle", 52, 13, "looping", null],
  ["reference-not-ancestor", 60, 20, "message_sent", null],
  ["reference-order", 63, 5, "user: Hi there", null],
  ["unknown-argument", 66, 52, "contnet", "content"],
  ["argument-type", 69, 26, '"yes"', null],
];

test("a scenario with twenty different mistakes yields exactly twenty precise diagnostics", () => {
  const result = check(text);
  assert.equal(result.scenario, null);
  assert.equal(result.diagnostics.length, 20, describe(result));
  result.diagnostics.forEach((d, i) => {
    const [code, line, column, underline, suggestion] = EXPECTED[i]!;
    const where = `diagnostic ${i + 1} (${d.code} ${d.message})`;
    assert.equal(d.code, code, where);
    assert.equal(d.range.start.line, line - 1, where);
    assert.equal(d.range.start.character, column - 1, where);
    assert.equal(d.range.end.line, line - 1, `${where}: a range stays on its line`);
    assert.equal(underlined(result, d), underline, where);
    assert.equal(d.data?.suggestion ?? null, suggestion, where);
    assert.equal(d.file, "test.scenario.yaml");
    assert.ok(d.message.length > 0 && !d.message.includes("\n"), where);
  });
});

test("the two warnings among the twenty are warnings; the rest are errors", () => {
  const result = check(text);
  const warnings = result.diagnostics.filter((d) => d.severity === "warning").map((d) => d.code);
  assert.deepEqual(warnings, ["where-no-match", "knowledge-leak"]);
});

test("each mistake, fixed alone, removes exactly its diagnostic", () => {
  const fixes: ReadonlyArray<readonly [string, string, string]> = [
    ["schema-unknown-key", "descripton:", "description:"],
    ["unknown-timezone", "Europe/Berln", "Europe/Berlin"],
    ["argument-type", 'on: "yes"', "on: true"],
    ["dag-cycle", "after: [looping]", "after: [cellular_on]"],
  ];
  const codes = EXPECTED.map(([code]) => code);
  for (const [code, from, to] of fixes) {
    const fixed = check(text.replace(from, to));
    const expected = [...codes];
    expected.splice(expected.indexOf(code), 1);
    assert.deepEqual(
      fixed.diagnostics.map((d) => d.code),
      expected,
      `${code}:\n${describe(fixed)}`,
    );
  }
});
