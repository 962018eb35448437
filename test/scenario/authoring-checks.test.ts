// Authoring mistakes that used to pass silently or be reported twice: a misspelt argument in a
// tool_trace tolerance, and an unknown id in `after` (which also made its intended node look
// unconnected).
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkScenarioText } from "../../engine/scenario/resolve.js";

const withTolerance = (atol: string): string => `name: tolerance_keys
user: { goal: Find my upcoming reminder, opening: What's next on my list? }
milestones:
  - id: searched
    constraints:
      - kind: snapshot
        table: SANDBOX
        target: [{ sender: execution_environment, recipient: agent, tool_trace: { tool_name: timestamp_diff, arguments: { timestamp_0: now, timestamp_1: tomorrow } } }]
        measures:
          tool_trace: { kind: tool_trace, atol: ${atol} }
reference:
  - agent: Nothing is due.
  - end_conversation: true
`;

const diagnostics = (text: string) => checkScenarioText(text, "t.scenario.yaml").diagnostics;

test("a tolerance key that is no argument of the traced tool is an error on the key, with the fix", () => {
  const text = withTolerance("{ timestamp0: 1, timestamp_1: 5 }");
  const found = diagnostics(text).filter((d) => d.code === "unknown-tolerance-argument");
  assert.equal(found.length, 1);
  const [d] = found;
  assert.equal(d!.severity, "error");
  assert.match(
    d!.message,
    /"timestamp0" is not an argument of "?timestamp_diff"?, so this tolerance would never apply\. Did you mean "timestamp_0"\?/,
  );
  assert.deepEqual(d!.data, { suggestion: "timestamp_0" });
  // The range is the key itself, so the quick fix replaces just the key.
  const line = text.split("\n")[d!.range.start.line]!;
  assert.equal(line.slice(d!.range.start.character, d!.range.end.character), "timestamp0");
});

test("correct tolerance keys, and .inf, raise nothing", () => {
  assert.deepEqual(
    diagnostics(withTolerance("{ timestamp_0: 1, timestamp_1: .inf }")).filter((d) => d.severity === "error"),
    [],
  );
});

const dag = (afterOfB: string): string => `name: after_ids
user: { goal: Add a contact, opening: Add Ada please }
milestones:
  - id: first
    after: []
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]
  - id: second
    after: [${afterOfB}]
    constraints: [{ kind: snapshot, table: SETTING, target: [{ cellular: true }] }]
reference:
  - agent: Done.
  - end_conversation: true
`;

test("an unknown id in after gives one diagnostic, with the id it most likely meant", () => {
  const found = diagnostics(dag("frist")).filter((d) => d.severity === "error");
  assert.deepEqual(
    found.map((d) => d.code),
    ["unknown-milestone"],
  );
  assert.match(found[0]!.message, /No milestone has the id "frist"\. Did you mean "first"\?/);
});

test("an unknown id with no likely meaning still gives only its own diagnostic", () => {
  const found = diagnostics(dag("zzzzzzzzzz")).filter((d) => d.severity === "error");
  assert.deepEqual(
    found.map((d) => d.code),
    ["unknown-milestone"],
  );
});

test("without a mistake in after, an unconnected node is still reported", () => {
  const text = dag("first").replace("    after: []\n", "").replace("after: [first]", "after: []");
  assert.ok(diagnostics(text).some((d) => d.code === "milestone-unconnected"));
});
