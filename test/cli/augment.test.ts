// `run --augment` plays each scenario as upstream's eight tool-augmentation variants.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, removeTempDirs, runCli, tempDir } from "./harness.js";

before(requireBuild);
after(removeTempDirs);

test("run --augment writes the eight upstream variants with their names and categories, scored", () => {
  const out = tempDir("augment");
  const r = runCli(["run", "sample-scenarios/cellular_off_adapted.scenario.yaml", "--augment", "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  const names = readdirSync(out)
    .filter((f) => f.endsWith(".trajectory.jsonl"))
    .map((f) => f.slice(0, -".trajectory.jsonl".length))
    .sort();
  assert.deepEqual(names, [
    "cellular_off_adapted",
    "cellular_off_adapted_10_distraction_tools",
    "cellular_off_adapted_3_distraction_tools",
    "cellular_off_adapted_3_distraction_tools_arg_description_scrambled",
    "cellular_off_adapted_3_distraction_tools_arg_type_scrambled",
    "cellular_off_adapted_3_distraction_tools_tool_description_scrambled",
    "cellular_off_adapted_3_distraction_tools_tool_name_scrambled",
    "cellular_off_adapted_all_tools",
  ]);
  const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as {
    scenarios: { name: string; categories: string[]; score: number }[];
  };
  const byName = new Map(summary.scenarios.map((s) => [s.name, s]));
  assert.ok(byName.get("cellular_off_adapted")!.categories.includes("NO_DISTRACTION_TOOLS"));
  assert.ok(byName.get("cellular_off_adapted_all_tools")!.categories.includes("ALL_TOOLS_AVAILABLE"));
  assert.ok(byName.get("cellular_off_adapted_3_distraction_tools_tool_name_scrambled")!.categories.includes("TOOL_NAME_SCRAMBLED"));
  // The scripted agent calls tools by the names it is shown, so every variant still scores 1.
  for (const s of summary.scenarios) assert.equal(s.score, 1, s.name);
  // The printed table has a row per augmentation tag, like the paper's Table 5.
  assert.match(r.stdout, /^TOOL_NAME_SCRAMBLED +1 +1\.00/m);
  // Under name scrambling the agent called the tool by its scrambled name; the trace keeps the real one.
  const scrambled = readFileSync(join(out, "cellular_off_adapted_3_distraction_tools_tool_name_scrambled.trajectory.jsonl"), "utf8");
  assert.match(scrambled, /"openai_function_name":"setting_5"/);
  assert.match(scrambled, /"tool_name":"set_cellular_service_status"/);
});
