// The editor's scoring plays the reference once and hands that run to strength: what it reports
// must be what `validate` and `toolsandbox strength` report when each plays the reference itself.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { checkReferenceScore } from "../../engine/evaluation/reference-check.js";
import { checkScenarioFileSource } from "../../engine/scenario/load.js";
import { YamlSource } from "../../engine/scenario/yaml-source.js";
import { checkReferenceAndStrength } from "../../engine/strength/checked-strength.js";
import { scenarioStrength } from "../../engine/strength/strength.js";

const CELLULAR = readFileSync("sample-scenarios/cellular_off_adapted.scenario.yaml", "utf8");

function checked(text: string, file: string) {
  const src = new YamlSource(text, file);
  const { scenario } = checkScenarioFileSource(src);
  assert.ok(scenario, `${file} has errors`);
  return { scenario, src };
}

for (const name of [
  "cellular_off_adapted",
  "modify_contact_with_message_recency_adapted",
  "send_message_with_contact_content_cellular_off_adapted",
]) {
  test(`${name}: one play of the reference gives validate's findings and the strength command's result`, async () => {
    const file = `sample-scenarios/${name}.scenario.yaml`;
    const { scenario, src } = checked(readFileSync(file, "utf8"), file);
    const once = await checkReferenceAndStrength(scenario, src);
    assert.deepEqual(once.findings, await checkReferenceScore(scenario, src));
    assert.ok(once.strength, "a passing reference is measured");
    assert.equal(JSON.stringify(once.strength), JSON.stringify(await scenarioStrength(scenario)));
  });
}

test("a reference that misses a milestone gets validate's error and no strength", async () => {
  const { scenario, src } = checked(CELLULAR.replace("arguments: { on: false }", "arguments: { on: true }"), "wrong.scenario.yaml");
  const once = await checkReferenceAndStrength(scenario, src);
  assert.deepEqual(once.findings, await checkReferenceScore(scenario, src));
  assert.ok(once.findings.some((d) => d.code === "reference-misses-milestone"));
  assert.equal(once.strength, null);
});
