// `agent.persona` (DialogTool's role configuration): resolved into the scenario as written, left
// out when absent, and an MBTI type that is not one of the 16 is an error at the value with the
// closest type suggested.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SCENARIO_SCHEMA } from "../../engine/scenario/schema-diagnostics.js";
import { MBTI_TYPES } from "../../engine/scenario/model.js";
import { check, expectClean, expectOne } from "./helpers.js";

const PERSONA = `agent:
  persona:
    name: Captain Nova
    gender: female
    mbti: ENTJ
    language_features: Short sentences.
    emotional_traits: Calm.`;

test("a persona is resolved field by field; a scenario without one has no persona key", () => {
  const s = expectClean(check({ agent: PERSONA }));
  assert.deepEqual(s.agent.persona, {
    name: "Captain Nova",
    gender: "female",
    mbti: "ENTJ",
    language_features: "Short sentences.",
    emotional_traits: "Calm.",
  });
  const plain = expectClean(check({}));
  assert.equal("persona" in plain.agent, false);
  const nameOnly = expectClean(check({ agent: "agent:\n  persona: { name: Ada }" }));
  assert.deepEqual(nameOnly.agent.persona, { name: "Ada" });
});

test("an unknown MBTI type is an error at the value, with did-you-mean", () => {
  const checked = check({ agent: PERSONA.replace("mbti: ENTJ", "mbti: ENTK") });
  const d = expectOne(checked, "schema-enum", "ENTK");
  assert.equal(d.severity, "error");
  assert.match(d.message, /Unknown value "ENTK"\. Did you mean "ENTJ"\?/);
  assert.equal(checked.scenario, null);
  const lower = expectOne(check({ agent: PERSONA.replace("mbti: ENTJ", "mbti: intp") }), "schema-enum", "intp");
  assert.match(lower.message, /Did you mean "INTP"\?/);
});

test("a persona needs a name, and its other keys are checked", () => {
  expectOne(check({ agent: "agent:\n  persona: { gender: male }" }), "schema-required", "persona");
  const d = expectOne(check({ agent: "agent:\n  persona: { name: A, mbit: INTJ }" }), "schema-unknown-key", "mbit");
  assert.match(d.message, /Did you mean "mbti"\?/);
});

test("the schema's MBTI types are the model's 16", () => {
  const defs = SCENARIO_SCHEMA.definitions as Record<string, { properties: Record<string, { enum?: string[] }> }>;
  assert.deepEqual(defs.persona!.properties.mbti!.enum, [...MBTI_TYPES]);
  assert.equal(new Set(MBTI_TYPES).size, 16);
});
