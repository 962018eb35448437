// Every sample's saved reference run drafted into a new scenario: the draft checks with no errors,
// its reference scores 1.0 when the scripted roles play it, its strength is measured, and the same
// run gives the same bytes twice.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { draftScenario } from "../../engine/drafting/draft.js";
import { scoreReference } from "../../engine/evaluation/reference-check.js";
import { checkScenarioText } from "../../engine/scenario/resolve.js";
import { scenarioStrength } from "../../engine/strength/strength.js";
import { readRunFile } from "../../engine/trajectory/run-damage.js";

const RUNS = "sample-scenarios/trajectories";
const files = readdirSync(RUNS)
  .filter((f) => f.endsWith(".trajectory.jsonl"))
  .sort();

const draftOf = (file: string) => {
  const run = readRunFile(`${RUNS}/${file}`);
  assert.equal(run.damage, null, file);
  return draftScenario(run.trajectory!, { name: "drafted", source: file });
};

test("all 29 saved sample runs are there to draft from", () => {
  assert.equal(files.length, 29);
});

for (const file of files) {
  test(`${file}: the draft checks clean, its reference scores 1.0, its strength is measured, the bytes repeat`, async () => {
    const draft = draftOf(file);
    assert.equal(draftOf(file).text, draft.text, "a second draft differs");
    const checked = checkScenarioText(draft.text, "drafted.scenario.yaml");
    const errors = checked.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code}: ${d.message}`);
    assert.deepEqual(errors, []);
    assert.ok(checked.scenario);
    assert.ok(draft.milestones > 0, "no milestone");
    const played = readRunFile(`${RUNS}/${file}`).trajectory!;
    assert.deepEqual(checked.scenario.world.tables, played.header.scenario.world.tables, "the draft starts from another world");
    const score = await scoreReference(checked.scenario);
    assert.equal(score.score, 1, `${file}: ${score.zero_reason ?? JSON.stringify(score.milestones.map((m) => [m.id, m.similarity]))}`);
    const strength = await scenarioStrength(checked.scenario);
    assert.equal(strength.error, null);
    assert.ok(strength.valid > 0 && strength.score !== null);
  });
}
