// The battery `npm run conformance:tools` sends to our tools and upstream's, and the rules that
// count a difference as explained. (The comparison itself needs a checkout: see docs/fidelity.md.)
import assert from "node:assert/strict";
import { test } from "node:test";
import { TOOLS } from "../../engine/packs/toolsandbox/tools/catalog.js";
import { toolBattery } from "../../scripts/conformance-tools/battery.js";
import { explainedDifference } from "../../scripts/conformance-tools/deliberate.js";

const NOW = 1768496400;
const offline = TOOLS.filter((t) => !t.webBacked && t.name !== "end_conversation");
const battery = toolBattery(offline, NOW);

test("every offline tool gets valid calls, each parameter a wrong type and null, and each state dependency broken", () => {
  assert.equal(offline.length, 28);
  for (const tool of offline) {
    const calls = battery.filter((c) => c.tool === tool.name);
    assert.ok(
      calls.some((c) => c.id.includes("written")),
      tool.name,
    );
    for (const p of tool.parameters) {
      assert.ok(
        calls.some((c) => c.id.includes(`${p.name}: wrong type`)),
        `${tool.name}.${p.name}`,
      );
      assert.ok(
        calls.some((c) => c.id.includes(`${p.name}: null`)),
        `${tool.name}.${p.name}`,
      );
    }
    for (const dep of tool.stateDependencies.filter((d) => d.table === "SETTING")) {
      assert.ok(
        calls.some((c) => c.settings[dep.column] === !dep.value),
        `${tool.name} with ${dep.column} broken`,
      );
    }
  }
  assert.equal(new Set(battery.map((c) => c.id)).size, battery.length, "ids are unique");
});

test("the battery is the same on every run", () => {
  assert.deepEqual(toolBattery(offline, NOW), battery);
});

const call = (tool: string, args: Record<string, number | string> = {}) => ({ id: "x", tool, arguments: args, settings: {} });

test("a polars memory address is explained only when the predicate names the same column", () => {
  const ours = 'polars.exceptions.NoDataError: No db entry matching predicate=[(col("person_id")) == (String(abc))] found';
  const theirs = `polars.exceptions.NoDataError: No db entry matching predicate=<Expr ['[([(col("person_id")) == ("abc")]…'] at 0x7F43F49D8E10> found`;
  assert.match(explainedDifference(call("remove_contact"), ours, theirs) ?? "", /memory address/);
  assert.equal(explainedDifference(call("remove_contact"), ours, theirs.replace("person_id", "name")), null);
  assert.equal(explainedDifference(call("remove_contact"), ours, theirs.replace(" at 0x7F43F49D8E10", "")), null);
});

test("last-digit float differences are explained for the computing tools only, and only in the last digits", () => {
  assert.ok(explainedDifference(call("unit_conversion"), "0.45359237", "0.4535923700000001"));
  assert.ok(explainedDifference(call("calculate_lat_lon_distance"), "60.847130977543124", "60.84713097754313"));
  assert.equal(explainedDifference(call("unit_conversion"), "0.4535", "0.4536"), null);
  assert.equal(explainedDifference(call("timestamp_diff"), "0.45359237", "0.4535923700000001"), null);
});

test("a holiday year is explained only outside the holidays package's range", () => {
  assert.ok(
    explainedDifference(call("search_holiday", { holiday_name: "Christmas", year: 0 }), "ValueError: year 0 is out of range", "None"),
  );
  assert.equal(explainedDifference(call("search_holiday", { holiday_name: "Christmas", year: 2025 }), "1766649600.0", "None"), null);
});
