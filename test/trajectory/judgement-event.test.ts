// The judgement line `run --judge` appends last: read back into `Trajectory.judgement`, checked
// against the schema, accepted only after the end (and after the evaluation when there is one),
// and nothing may follow it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { evaluateTrajectory } from "../../engine/evaluation/evaluate.js";
import { modelSettings } from "../../engine/roles/openai/settings.js";
import { ROLE_PLAY_RUBRIC } from "../../engine/benchmarks/dialogtool/role-play/rubric.js";
import { TrajectoryError } from "../../engine/trajectory/errors.js";
import type { JudgementEvent } from "../../engine/trajectory/events.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";
import { serializeLine } from "../../engine/trajectory/writer.js";
import { syntheticHeader, syntheticRun } from "./synthetic.js";

const FILE = "t.trajectory.jsonl";

const JUDGEMENT: JudgementEvent = {
  type: "judgement",
  judge: "openai:mock",
  settings: modelSettings("mock", { base_url: "http://127.0.0.1:9/v1" }),
  rubric: ROLE_PLAY_RUBRIC,
  criteria: [
    { id: "identity", score: 5, reason: "Says its name." },
    { id: "emotional_traits", score: 4, reason: "Calm." },
  ],
  overall: 4.5,
};

function episodeLines(): string[] {
  return [serializeLine(syntheticHeader()), ...syntheticRun().events.map(serializeLine)];
}

function expectError(text: string, line: number, pattern: RegExp): void {
  assert.throws(
    () => parseTrajectory(text, FILE),
    (e: unknown) => e instanceof TrajectoryError && e.line === line && pattern.test(e.reason),
  );
}

test("a judgement after the end, or after the evaluation, is read back as the trajectory's judgement", () => {
  const text = episodeLines();
  const afterEnd = parseTrajectory([...text, serializeLine(JUDGEMENT)].join(""), FILE);
  assert.deepEqual(afterEnd.judgement, JUDGEMENT);
  assert.deepEqual(afterEnd.events, parseTrajectory(text.join(""), FILE).events);
  const result = evaluateTrajectory(afterEnd);
  const afterEvaluation = parseTrajectory(
    [...text, serializeLine({ type: "evaluation", result }), serializeLine(JUDGEMENT)].join(""),
    FILE,
  );
  assert.deepEqual(afterEvaluation.judgement, JUDGEMENT);
  assert.deepEqual(afterEvaluation.evaluation, result);
  assert.equal(parseTrajectory(text.join(""), FILE).judgement, null);
});

test("a failed judgement (no scores, a one-line failure) is a valid line", () => {
  const failed: JudgementEvent = { ...JUDGEMENT, criteria: [], overall: null, failure: 'the judge\'s answer is not JSON: "hello"' };
  assert.deepEqual(parseTrajectory([...episodeLines(), serializeLine(failed)].join(""), FILE).judgement, failed);
});

test("a judgement before the end, a second one, or any event after it is an error naming its line", () => {
  const text = episodeLines();
  const judgement = serializeLine(JUDGEMENT);
  const end = text.length;
  expectError([...text.slice(0, -1), judgement, text.at(-1)!].join(""), end, /"judgement" event comes before the end event/);
  expectError([...text, judgement, judgement].join(""), end + 2, /"judgement" event follows the judgement event/);
  const result = evaluateTrajectory(parseTrajectory(text.join(""), FILE));
  expectError(
    [...text, judgement, serializeLine({ type: "evaluation", result })].join(""),
    end + 2,
    /"evaluation" event follows the judgement event/,
  );
});

test("a judgement that breaks the schema is refused with the field it breaks", () => {
  const text = episodeLines();
  const bad = { ...JUDGEMENT, criteria: [{ id: "identity", score: 7, reason: "x" }] };
  expectError([...text, `${JSON.stringify(bad)}\n`].join(""), text.length + 1, /score/);
  const { rubric: _rubric, ...noRubric } = JUDGEMENT;
  expectError([...text, `${JSON.stringify(noRubric)}\n`].join(""), text.length + 1, /rubric/);
});
