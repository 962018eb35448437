import { test } from "node:test";
import assert from "node:assert/strict";
import { constraintSimilarity } from "../../../engine/evaluation/measures/constraint-similarity.js";
import { extractValues, UPSTREAM_EXTRACTORS, UPSTREAM_EXTRACTOR_NAMES } from "../../../engine/evaluation/measures/extractors.js";
import { sandboxRow } from "../../../engine/evaluation/measures/sandbox-rows.js";
import type { RoleName, ToolTrace } from "../../../engine/episode/types.js";
import type { ColumnMeasure, Constraint, ExtractionRule, TargetRow } from "../../../engine/scenario/model.js";
import type { MeasuredRow } from "../../../engine/evaluation/measures/types.js";
import { busMessage } from "../../episode/fixtures.js";

function rules(name: string): readonly ExtractionRule[] {
  const found = UPSTREAM_EXTRACTORS[name];
  if (!found) throw new Error(`no extractor ${name}`);
  return found;
}

function extract(
  fill: "content" | "tool_trace",
  target: TargetRow,
  extractor: string,
  measures: Record<string, ColumnMeasure> = {},
): Constraint {
  return {
    kind: "tool_trace_extract",
    table: "SANDBOX",
    target: [target],
    measures,
    reference: { kind: "milestone", id: "m0" },
    extractor,
    extract: rules(extractor),
    fill,
  };
}

function row(sender: RoleName, recipient: RoleName, content: string, traces: ToolTrace[] | null): MeasuredRow {
  const message = busMessage(20, sender, recipient, content, { tool_trace: traces });
  return sandboxRow(message);
}

const weather = row("execution_environment", "agent", "{...}", [
  {
    tool_name: "search_weather_around_lat_lon",
    arguments: { latitude: 37.3, longitude: -122 },
    result: { current_temperature: 2.675, min_temperature: 1.5 },
  },
]);
const conversionTarget: TargetRow = {
  sender: "execution_environment",
  recipient: "agent",
  tool_trace: [{ tool_name: "unit_conversion", arguments: { from_unit: "celsius", to_unit: "fahrenheit" } }],
};
const conversion = (amount: number): MeasuredRow =>
  row("execution_environment", "agent", "36.8", [
    { tool_name: "unit_conversion", arguments: { amount, from_unit: "celsius", to_unit: "fahrenheit" }, result: 36.8 },
  ]);

test("fill tool_trace: extracted values become golden arguments, compared with the argument's atol", () => {
  const exact = constraintSimilarity(extract("tool_trace", conversionTarget, "current_temperature"), {
    current: [conversion(2.675)],
    reference: [weather],
  });
  assert.equal(exact.similarity, 1);
  assert.deepEqual(exact.explanation.extraction?.values, [{ amount: 2.675 }]);
  const near = extract("tool_trace", conversionTarget, "current_temperature", {
    tool_trace: { kind: "tool_trace", atol: { amount: 0.1 } },
  });
  assert.equal(constraintSimilarity(near, { current: [conversion(2.7)], reference: [weather] }).similarity, 1);
  const far = constraintSimilarity(extract("tool_trace", conversionTarget, "current_temperature"), {
    current: [conversion(2.7)],
    reference: [weather],
  });
  assert.equal(far.similarity, 0);
  assert.equal(far.explanation.weakest?.column, "tool_trace");
});

test("fill tool_trace: each golden alternative is filled both ways, so either value is accepted", () => {
  const target: TargetRow = {
    ...conversionTarget,
    tool_trace: [
      { tool_name: "unit_conversion", arguments: { amount: 99, from_unit: "kelvin" } },
      { tool_name: "unit_conversion", arguments: { from_unit: "celsius" } },
    ],
  };
  const constraint = extract("tool_trace", target, "current_temperature");
  const filled = constraintSimilarity(constraint, { current: [conversion(2.675)], reference: [weather] }).explanation.extraction?.filled;
  assert.deepEqual(filled, [
    { tool_name: "unit_conversion", arguments: { amount: 2.675, from_unit: "kelvin" } },
    { tool_name: "unit_conversion", arguments: { amount: 99, from_unit: "kelvin" } },
    { tool_name: "unit_conversion", arguments: { from_unit: "celsius", amount: 2.675 } },
    { tool_name: "unit_conversion", arguments: { amount: 2.675, from_unit: "celsius" } },
  ]);
  const kelvin = (amount: number): MeasuredRow =>
    row("execution_environment", "agent", "x", [
      { tool_name: "unit_conversion", arguments: { amount, from_unit: "kelvin", to_unit: "celsius" }, result: 0 },
    ]);
  assert.equal(constraintSimilarity(constraint, { current: [kelvin(99)], reference: [weather] }).similarity, 1);
  assert.equal(constraintSimilarity(constraint, { current: [kelvin(2.675)], reference: [weather] }).similarity, 1);
  assert.equal(constraintSimilarity(constraint, { current: [kelvin(3)], reference: [weather] }).similarity, 0);
});

test("fill content: Python str.format with each normalised value; the best candidate wins", () => {
  const target: TargetRow = { sender: "agent", recipient: "user", content: "The current temperature is {temperature} Celsius" };
  const reply = row("agent", "user", "The current temperature is 2.67 Celsius", null);
  const { similarity, explanation } = constraintSimilarity(extract("content", target, "search_weather_around_lat_lon_temperature"), {
    current: [reply],
    reference: [weather],
  });
  assert.equal(similarity, 1);
  // 2.675 is just below the half in binary: "{:.2f}" gives 2.67, and "{:.0f}" gives 3.
  assert.deepEqual(explanation.extraction, {
    values: [{ temperature: "3" }, { temperature: "2.7" }, { temperature: "2.67" }, { temperature: "2.675" }],
    best: 2,
    filled: "The current temperature is 2.67 Celsius",
  });
});

test("fill content: the days extractor truncates with int() and fills the template", () => {
  const diff = row("execution_environment", "agent", "x", [
    { tool_name: "timestamp_diff", arguments: {}, result: { days: 12.9, seconds: 5 } },
  ]);
  const target: TargetRow = { sender: "agent", recipient: "user", content: "It is {days} days till Christmas Day" };
  const reply = row("agent", "user", "It is 12 days till Christmas Day", null);
  const { similarity, explanation } = constraintSimilarity(extract("content", target, "days"), { current: [reply], reference: [diff] });
  assert.equal(similarity, 1);
  assert.equal(explanation.extraction?.filled, "It is 12 days till Christmas Day");
});

test("a template naming a value the extractor does not give scores 0 with the reason", () => {
  const target: TargetRow = { sender: "agent", recipient: "user", content: "It is {temperature} degrees" };
  const reply = row("agent", "user", "It is 3 degrees", null);
  const { similarity, explanation } = constraintSimilarity(extract("content", target, "current_temperature"), {
    current: [reply],
    reference: [weather],
  });
  assert.equal(similarity, 0);
  assert.equal(explanation.reason, "cannot fill the content: no extracted value for {temperature}");
});

test("a referenced message without traces, or without the extracted path, scores 0", () => {
  const target: TargetRow = { sender: "agent", recipient: "user", content: "It is {days} days" };
  const reply = row("agent", "user", "It is 12 days", null);
  const bare = constraintSimilarity(extract("content", target, "days"), {
    current: [reply],
    reference: [row("agent", "user", "hi", null)],
  });
  assert.equal(bare.similarity, 0);
  assert.equal(bare.explanation.reason, "the referenced message has no tool trace");
  const other = constraintSimilarity(extract("content", target, "days"), { current: [reply], reference: [weather] });
  assert.equal(other.similarity, 0);
  assert.equal(
    other.explanation.reason,
    "nothing extracted from the referenced message's traces: the search_weather_around_lat_lon trace has no 'result.days'",
  );
});

test("every trace of the referenced message is tried and the maximum is kept", () => {
  const two = row("execution_environment", "agent", "x", [
    { tool_name: "timestamp_diff", arguments: {}, result: { days: 3 } },
    { tool_name: "timestamp_diff", arguments: {}, result: { days: 12 } },
  ]);
  const target: TargetRow = { sender: "agent", recipient: "user", content: "It is {days} days till Christmas Day" };
  const reply = row("agent", "user", "It is 12 days till Christmas Day", null);
  const { similarity, explanation } = constraintSimilarity(extract("content", target, "days"), { current: [reply], reference: [two] });
  assert.equal(similarity, 1);
  assert.equal(explanation.extraction?.best, 1);
});

test("the ten upstream extractors are available as rule lists", () => {
  assert.deepEqual([...UPSTREAM_EXTRACTOR_NAMES].sort(), [
    "current_temperature",
    "days",
    "lat_lon_dict",
    "min_temperature",
    "min_temperature_amount",
    "result_to_reminder_timestamp_lowerbound",
    "result_to_temperature",
    "result_to_timestamp0",
    "result_to_timestamp1",
    "search_weather_around_lat_lon_temperature",
  ]);
  const location: ToolTrace = { tool_name: "search_lat_lon", arguments: {}, result: { latitude: 37.3, longitude: -122.0 } };
  assert.deepEqual(extractValues(rules("lat_lon_dict"), location), { ok: true, values: [{ latitude: 37.3, longitude: -122.0 }] });
  const timestamp: ToolTrace = { tool_name: "get_current_timestamp", arguments: {}, result: 1700000000.5 };
  assert.deepEqual(extractValues(rules("result_to_timestamp0"), timestamp), { ok: true, values: [{ timestamp_0: 1700000000.5 }] });
  assert.deepEqual(extractValues(rules("min_temperature"), { tool_name: "x", arguments: {}, result: 2.5 }), {
    ok: true,
    values: [{ min_temperature: "2" }, { min_temperature: "2.5" }, { min_temperature: "2.50" }, { min_temperature: "2.500" }],
  });
  assert.equal(extractValues(rules("result_to_temperature"), { tool_name: "x", arguments: {}, result: "warm" }).ok, false);
});
