// Every sample's reference solution, played by the scripted roles exactly as `validate` plays it,
// scores 1.0: each milestone fully matched, no minefield hit, and nothing for the authoring check
// to report. A sample whose milestones drift from its reference fails here with the reason.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { checkReferenceScore, scoreReference } from "../../engine/evaluation/reference-check.js";
import { nodeWhy } from "../../engine/evaluation/highlights.js";
import { checkScenarioText } from "../../engine/scenario/resolve.js";
import { YamlSource } from "../../engine/scenario/yaml-source.js";
import { formatDiagnostic } from "../../engine/base/diagnostics.js";

const DIR = join(__dirname, "..", "..", "sample-scenarios");
const files = readdirSync(DIR)
  .filter((f) => f.endsWith(".scenario.yaml"))
  .sort()
  .map((f) => join(DIR, f));

function load(file: string): { text: string; scenario: NonNullable<ReturnType<typeof checkScenarioText>["scenario"]> } {
  const text = readFileSync(file, "utf8");
  const { scenario } = checkScenarioText(text, file);
  assert.ok(scenario, `${basename(file)} resolves`);
  return { text, scenario };
}

test("every sample's reference scores 1.0, each milestone matched in full and no minefield hit", async () => {
  assert.ok(files.length > 0);
  for (const file of files) {
    const { scenario } = load(file);
    const result = await scoreReference(scenario);
    const below = result.milestones.filter((m) => m.similarity < 1).map((m) => `${m.id} ${m.similarity}: ${nodeWhy(m, "milestone")}`);
    assert.deepEqual(below, [], scenario.name);
    const hit = result.minefields.filter((m) => m.matched_at !== null).map((m) => m.id);
    assert.deepEqual(hit, [], scenario.name);
    assert.equal(result.score, 1, scenario.name);
  }
});

test("the authoring check finds nothing in any sample", async () => {
  for (const file of files) {
    const { text, scenario } = load(file);
    const diagnostics = await checkReferenceScore(scenario, new YamlSource(text, file));
    assert.deepEqual(diagnostics.map(formatDiagnostic), [], basename(file));
  }
});

test("the check can fail: a sample with a milestone its reference cannot meet is caught on that milestone", async () => {
  const file = files.find((f) => basename(f) === "cellular_off_adapted.scenario.yaml");
  assert.ok(file, "the cellular_off sample exists");
  const original = readFileSync(file, "utf8");
  const text = original.replace("target: [{ cellular: false }]", "target: [{ cellular: false, wifi: false }]");
  assert.notEqual(text, original);
  const { scenario } = checkScenarioText(text, file);
  assert.ok(scenario);
  const [d, ...rest] = await checkReferenceScore(scenario, new YamlSource(text, file));
  assert.deepEqual(rest, []);
  assert.equal(d?.code, "reference-misses-milestone");
  assert.equal(text.split("\n")[d.range.start.line], "  - id: cellular_off");
});
