// The evaluation line `run` appends after the end event: read back into `Trajectory.evaluation`,
// checked against the schema, accepted only right after the end, and optional.
import { test } from "node:test";
import assert from "node:assert/strict";
import { evaluateTrajectory } from "../../engine/evaluation/evaluate.js";
import type { EvaluationResult } from "../../engine/evaluation/result.js";
import { TrajectoryError } from "../../engine/trajectory/errors.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";
import { serializeLine } from "../../engine/trajectory/writer.js";
import { syntheticHeader, syntheticRun } from "./synthetic.js";

const FILE = "t.trajectory.jsonl";

function lines(): { text: string[]; result: EvaluationResult } {
  const run = syntheticRun();
  const text = [serializeLine(syntheticHeader()), ...run.events.map(serializeLine)];
  const result = evaluateTrajectory(parseTrajectory(text.join(""), FILE));
  return { text, result };
}

function expectError(text: string, line: number, pattern: RegExp): void {
  assert.throws(
    () => parseTrajectory(text, FILE),
    (e: unknown) => e instanceof TrajectoryError && e.line === line && pattern.test(e.reason),
  );
}

test("an evaluation after the end is read back as the trajectory's evaluation, without changing its events", () => {
  const { text, result } = lines();
  const withEvaluation = parseTrajectory([...text, serializeLine({ type: "evaluation", result })].join(""), FILE);
  const without = parseTrajectory(text.join(""), FILE);
  assert.deepEqual(withEvaluation.evaluation, result);
  assert.deepEqual(withEvaluation.events, without.events);
  assert.deepEqual(withEvaluation.warnings, []);
  // Files without it (older files, unscored runs) read as before.
  assert.equal(without.evaluation, null);
  assert.deepEqual(without.warnings, []);
});

test("an evaluation before the end, a second one, or an event after it is an error naming its line", () => {
  const { text, result } = lines();
  const evaluation = serializeLine({ type: "evaluation", result });
  const end = text.length; // 1-based line of the end event
  expectError([...text.slice(0, -1), evaluation, text.at(-1)!].join(""), end, /"evaluation" event comes before the end event/);
  expectError([...text, evaluation, evaluation].join(""), end + 2, /a second "evaluation" event/);
  expectError([...text, evaluation, text.at(-1)!].join(""), end + 2, /"end" event follows the evaluation event/);
});

test("an evaluation that breaks the schema is refused with the field it breaks", () => {
  const { text, result } = lines();
  const bad = { ...result, milestones: [{ ...result.milestones[0], matched_at: "soon" }] };
  assert.ok(result.milestones.length > 0, "the synthetic scenario has milestones");
  expectError([...text, `${JSON.stringify({ type: "evaluation", result: bad })}\n`].join(""), text.length + 1, /matched_at/);
});
