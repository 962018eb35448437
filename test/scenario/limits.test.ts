import { test } from "node:test";
import assert from "node:assert/strict";
import { checkScenarioText } from "../../engine/scenario/load.js";
import { MAX_MATCH_NODES } from "../../engine/evaluation/matching/dag.js";

function scenarioWith(count: number): string {
  const milestones = Array.from(
    { length: count },
    (_, i) => `  - id: m${i}\n    constraints:\n      - kind: snapshot\n        table: SETTING\n        target: [{ wifi: true }]`,
  ).join("\n");
  return `name: many\nuser:\n  goal: g\n  opening: hi\nmilestones:\n${milestones}\nreference:\n  - agent: ok\n  - end_conversation: true\n`;
}

test("more milestones than the evaluation can match is an error on the first one too many", () => {
  const { diagnostics } = checkScenarioText(scenarioWith(MAX_MATCH_NODES + 2), "many.scenario.yaml");
  const found = diagnostics.filter((d) => d.code === "too-many-milestones");
  assert.equal(found.length, 1);
  // Milestone number MAX_MATCH_NODES (0-based) starts on line 6 + 5 lines per milestone.
  assert.equal(found[0]!.range.start.line, 5 + 5 * MAX_MATCH_NODES);
  assert.equal(
    checkScenarioText(scenarioWith(MAX_MATCH_NODES), "ok.scenario.yaml").diagnostics.filter((d) => d.code === "too-many-milestones").length,
    0,
  );
});
