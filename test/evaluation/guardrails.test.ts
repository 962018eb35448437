import { test } from "node:test";
import assert from "node:assert/strict";
import { automaticGuardrails } from "../../engine/evaluation/guardrails.js";
import type { Constraint, ConstraintReference, Milestone } from "../../engine/scenario/model.js";

const WORLD = ["SETTING", "CONTACT", "MESSAGING", "REMINDER"];

function snapshot(table: string, reference: ConstraintReference | null = null): Constraint {
  return { kind: "snapshot", table, target: [], measures: {}, reference };
}

function addition(table: string, reference: ConstraintReference): Constraint {
  return { kind: "addition", table, target: [], measures: {}, reference };
}

function node(
  id: string,
  after: string[],
  constraints: Constraint[],
  guardrails: Milestone["guardrails"] = { tables: null, exclude: [] },
): Milestone {
  return { id, description: null, after, constraints, guardrails };
}

/** "table vs reference" for each guardrail of each node, easy to compare. */
function describe(nodes: Milestone[]): string[][] {
  return automaticGuardrails(nodes, WORLD).map((list) =>
    list.map((g) => `${g.table} vs ${g.reference.kind === "initial" ? "initial" : g.reference.id}`),
  );
}

test("a root with no reference has no guardrail: there is nothing to compare with", () => {
  assert.deepEqual(describe([node("a", [], [snapshot("SETTING")])]), [[]]);
});

test("a node watches every world table that neither it nor its predecessor constrains, never SANDBOX", () => {
  const nodes = [node("on", [], [snapshot("SETTING")]), node("said", ["on"], [snapshot("SANDBOX")])];
  assert.deepEqual(describe(nodes), [[], ["CONTACT vs on", "MESSAGING vs on", "REMINDER vs on"]]);
});

test("the tables of every predecessor and referenced node are left out, and each related state gets its own guardrails", () => {
  const nodes = [
    node("found", [], [snapshot("SANDBOX")]),
    node("on", [], [snapshot("SETTING")]),
    node("sent", ["found", "on"], [addition("MESSAGING", { kind: "milestone", id: "on" })]),
  ];
  // sent: MESSAGING (its own) and SETTING (on's) are out; found and on are both related states.
  assert.deepEqual(describe(nodes)[2], ["CONTACT vs found", "REMINDER vs found", "CONTACT vs on", "REMINDER vs on"]);
});

test("a reference that is not a predecessor counts as a related state too, once", () => {
  const nodes = [
    node("a", [], [snapshot("CONTACT")]),
    node("b", ["a"], [snapshot("SANDBOX")]),
    node("c", ["b"], [addition("REMINDER", { kind: "milestone", id: "a" }), snapshot("SANDBOX", { kind: "milestone", id: "a" })]),
  ];
  // c: REMINDER (own), SANDBOX-only b, CONTACT (a's) out; predecessors first, then references.
  assert.deepEqual(describe(nodes)[2], ["SETTING vs b", "MESSAGING vs b", "SETTING vs a", "MESSAGING vs a"]);
});

test("exclude and tables narrow what is watched", () => {
  const excluded = [
    node("on", [], [snapshot("SANDBOX")]),
    node("sent", ["on"], [snapshot("SANDBOX")], { tables: null, exclude: ["SETTING"] }),
  ];
  assert.deepEqual(describe(excluded)[1], ["CONTACT vs on", "MESSAGING vs on", "REMINDER vs on"]);
  const listed = [
    node("on", [], [snapshot("SANDBOX")]),
    node("sent", ["on"], [snapshot("SANDBOX")], { tables: ["REMINDER", "SANDBOX"], exclude: [] }),
  ];
  assert.deepEqual(describe(listed)[1], ["REMINDER vs on"]);
});

test("an initial reference is guarded against the initial state, and (unlike upstream's -1) does not drop the last node's tables", () => {
  const nodes = [node("added", [], [addition("CONTACT", { kind: "initial" })]), node("last", ["added"], [snapshot("REMINDER")])];
  // Upstream's reference -1 also discarded the last milestone's tables (REMINDER) for "added".
  assert.deepEqual(describe(nodes)[0], ["SETTING vs initial", "MESSAGING vs initial", "REMINDER vs initial"]);
});

test("guardrails are derived per list: minefields reference minefields", () => {
  const minefields = [node("wrong", [], [snapshot("SANDBOX")]), node("worse", ["wrong"], [snapshot("CONTACT")])];
  assert.deepEqual(describe(minefields), [[], ["SETTING vs wrong", "MESSAGING vs wrong", "REMINDER vs wrong"]]);
});
