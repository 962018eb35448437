import { test } from "node:test";
import assert from "node:assert/strict";
import { check, describe, expectClean, expectOne, underlined } from "./helpers.js";

/** A milestone list: [id, extra lines] pairs; every node gets a trivial valid constraint. */
function nodes(section: "milestones" | "minefields", list: ReadonlyArray<readonly [string, string?]>): string {
  const body = list
    .map(
      ([id, extra]) =>
        `  - id: ${id}\n${extra ? `    ${extra}\n` : ""}    constraints:\n      - { kind: snapshot, table: SETTING, target: [{ wifi: true }] }`,
    )
    .join("\n");
  return `${section}:\n${body}`;
}

/** One milestone `m` after `first`, with the given constraint lines. */
function constraint(lines: string): string {
  return `${nodes("milestones", [["first"]])}\n  - id: m\n    constraints:\n${lines}`;
}

const codes = (r: ReturnType<typeof check>) => r.diagnostics.map((d) => [d.code, underlined(r, d)]);

test("without any `after` the list is a chain in written order", () => {
  const s = expectClean(check({ milestones: nodes("milestones", [["a"], ["b"], ["c"]]) }));
  assert.deepEqual(
    s.milestones.map((m) => m.after),
    [[], ["a"], ["b"]],
  );
});

test("ids are unique per list, milestones and minefields separately; initial is reserved", () => {
  const dup = check({ milestones: nodes("milestones", [["a"], ["a"]]) });
  const d = expectOne(dup, "duplicate-milestone-id", "a");
  assert.equal(
    d.range.start.line,
    dup.text.split("\n").findIndex((l, i, all) => l === "  - id: a" && all.indexOf(l) !== i),
  );
  expectClean(check({ milestones: nodes("milestones", [["a"]]), minefields: nodes("minefields", [["a"]]) }));
  expectOne(check({ milestones: nodes("milestones", [["initial"]]) }), "reserved-milestone-id", "initial");
});

test("`after` to an unknown id suggests the closest id of the same list", () => {
  const r = check({
    milestones: nodes("milestones", [
      ["cellular_on", "after: []"],
      ["sent", "after: [celular_on]"],
    ]),
  });
  assert.deepEqual(expectOne(r, "unknown-milestone", "celular_on").data, { suggestion: "cellular_on" });
  const across = check({ milestones: nodes("milestones", [["a", "after: []"]]), minefields: nodes("minefields", [["b", "after: [a]"]]) });
  expectOne(across, "unknown-milestone", "a");
});

test("in explicit mode a node with no `after` that nothing follows is unconnected", () => {
  const r = check({ milestones: nodes("milestones", [["a", "after: []"], ["b"], ["c", "after: [a]"]]) });
  const d = expectOne(r, "milestone-unconnected", "b");
  assert.deepEqual(d.data, { insert: "after: [a]" });
  // A root that others follow, and an explicit standalone `after: []`, are both fine.
  expectClean(check({ milestones: nodes("milestones", [["a"], ["b", "after: [a]"], ["alone", "after: []"]]) }));
});

test("a cycle is reported at every `after` entry on it, with the loop spelled out", () => {
  const r = check({
    milestones: nodes("milestones", [
      ["a", "after: [c]"],
      ["b", "after: [a]"],
      ["c", "after: [b]"],
      ["d", "after: [c]"],
    ]),
  });
  assert.deepEqual(codes(r), [
    ["dag-cycle", "c"],
    ["dag-cycle", "a"],
    ["dag-cycle", "b"],
  ]);
  assert.match(r.diagnostics[0]!.message, /c → a → b → c/);
});

test("a reference must be an ancestor in the effective DAG", () => {
  const fine = check({
    milestones: nodes("milestones", [["a"], ["b"], ["c"]]).replace(
      /(- id: c\n {4}constraints:\n {6}- \{ kind: snapshot)/,
      "$1, reference: a",
    ),
  });
  expectClean(fine);
  const later = check({
    milestones: `${nodes("milestones", [["a"]])}\n  - id: b\n    constraints:\n      - { kind: snapshot, table: SETTING, target: [{ wifi: true }], reference: c }\n${nodes("milestones", [["c"]]).replace("milestones:\n", "")}`,
  });
  expectOne(later, "reference-not-ancestor", "c");
  const self = check({
    milestones: `milestones:\n  - id: a\n    constraints:\n      - { kind: update, table: CONTACT, target: [{ name: x }], reference: a }`,
  });
  expectOne(self, "reference-not-ancestor", "a");
  const unknown = check({
    milestones: `milestones:\n  - id: a\n    constraints:\n      - { kind: update, table: CONTACT, target: [{ name: x }], reference: intial }`,
  });
  assert.deepEqual(expectOne(unknown, "unknown-milestone", "intial").data, { suggestion: "initial" });
});

test("targets and measures name real columns, values fit them, measures fit the column", () => {
  const r = check({
    milestones: constraint(
      "      - kind: snapshot\n        table: CONTACT\n        target: [{ nme: Homer S, is_self: maybe }]\n        measures: { phone: { kind: exact }, name: { kind: close, atol: 1 } }",
    ),
  });
  assert.deepEqual(
    codes(r),
    [
      ["unknown-column", "nme"],
      ["column-type", "maybe"],
      ["unknown-column", "phone"],
      ["measure-mismatch", "close"],
    ],
    describe(r),
  );
  assert.match(r.diagnostics[3]!.message, /does not fit "name", which holds text/);
});

test("SANDBOX targets: one row, roles by name, golden traces checked against the catalog", () => {
  const two = check({
    milestones: constraint("      - kind: snapshot\n        table: SANDBOX\n        target: [{ sender: agent }, { sender: user }]"),
  });
  expectOne(two, "sandbox-one-row", "[{ sender: agent }, { sender: user }]");
  const role = check({
    milestones: constraint("      - kind: snapshot\n        table: SANDBOX\n        target: [{ sender: assistant, visible_to: [usr] }]"),
  });
  assert.deepEqual(codes(role), [
    ["column-type", "assistant"],
    ["column-type", "usr"],
  ]);
  assert.equal(role.diagnostics[1]!.data?.suggestion, "user");
  const trace = check({
    milestones: constraint(
      "      - kind: snapshot\n        table: SANDBOX\n        target:\n          - tool_trace:\n              - { tool_name: search_contact, arguments: { name: x } }\n              - { tool_name: add_reminder, arguments: { contents: x, reminder_timestamp: soon, latitude: null } }",
    ),
  });
  assert.deepEqual(
    codes(trace),
    [
      ["unknown-tool", "search_contact"],
      ["unknown-argument", "contents"],
      ["bad-time-expression", "soon"],
    ],
    describe(trace),
  );
});

test("golden traces list only the arguments that must match, with time expressions resolved", () => {
  const s = expectClean(
    check({
      milestones: constraint(
        "      - kind: snapshot\n        table: SANDBOX\n        target: [{ tool_trace: { tool_name: add_reminder, arguments: { reminder_timestamp: tomorrow 09:00 } } }]",
      ),
    }),
  );
  const target = s.milestones[1]!.constraints[0]!.target[0]!;
  assert.deepEqual(target.tool_trace, [
    { tool_name: "add_reminder", arguments: { reminder_timestamp: Date.UTC(2026, 0, 16, 17, 0, 0) / 1000 } },
  ]);
});

test("tool_trace_extract needs SANDBOX, a milestone reference, one way to extract, and a column to fill", () => {
  const base = "      - kind: tool_trace_extract\n";
  const target = "        target: [{ content: 'It is {temperature}' }]\n";
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    [`${base}        table: CONTACT\n        reference: first\n        extractor: days\n${target}`, "extract-table", "CONTACT"],
    [`${base}        table: SANDBOX\n        extractor: days\n${target}`, "extract-reference", "tool_trace_extract"],
    [`${base}        table: SANDBOX\n        reference: initial\n        extractor: days\n${target}`, "extract-reference", "initial"],
    [`${base}        table: SANDBOX\n        reference: first\n        extractor: dayz\n${target}`, "unknown-extractor", "dayz"],
    [`${base}        table: SANDBOX\n        reference: first\n${target}`, "extract-rules", "tool_trace_extract"],
    [
      `${base}        table: SANDBOX\n        reference: first\n        extractor: days\n        extract: [{ path: result, as: x }]\n${target}`,
      "extract-rules",
      "extract",
    ],
    [
      `${base}        table: SANDBOX\n        reference: first\n        extractor: days\n        fill: tool_trace\n${target}`,
      "extract-fill",
      "tool_trace",
    ],
  ];
  for (const [lines, code, text] of cases) expectOne(check({ milestones: constraint(lines) }), code, text);
  const unknown = check({
    milestones: constraint(`${base}        table: SANDBOX\n        reference: first\n        extractor: result_to_temprature\n${target}`),
  });
  assert.deepEqual(unknown.diagnostics[0]!.data, { suggestion: "result_to_temperature" });
});

test("guardrails take tables or exclude, and resolve to the model's shape", () => {
  const s = expectClean(
    check({
      milestones: nodes("milestones", [
        ["a", "guardrails: { exclude: [SETTING] }"],
        ["b", "guardrails: { tables: [CONTACT] }"],
      ]),
    }),
  );
  assert.deepEqual(
    s.milestones.map((m) => m.guardrails),
    [
      { tables: null, exclude: ["SETTING"] },
      { tables: ["CONTACT"], exclude: [] },
    ],
  );
});
