// The panel's DialogTool message carries the error analyses of a free run, and the line under its
// totals says them: a saved run scores no errors; the same run with the message's text changed
// shows one mismatched argument of kind "other", and a transactional call the user asked for is
// confirmed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dialogToolAnalysisLine } from "../../../../engine/benchmarks/dialogtool/tasks/analysis-line.js";
import { dialogToolMessage } from "../../../../engine/panel/dialogtool-message.js";
import { parseTrajectory } from "../../../../engine/trajectory/reader.js";

const NAME = "send_message_with_contact_content_cellular_off_adapted";
const FILE = join("sample-scenarios", "trajectories", `${NAME}.trajectory.jsonl`);

function report(text: string) {
  const trajectory = parseTrajectory(text, FILE);
  const message = dialogToolMessage(trajectory.header, trajectory.messages);
  assert.ok(message);
  return message.report;
}

test("a saved run: no errors, every transactional call confirmed", () => {
  const { metrics } = report(readFileSync(FILE, "utf8"));
  assert.equal(
    dialogToolAnalysisLine(metrics),
    "errors: awareness FN 0% FP 0% · selection recall 1.00, 0 parse errors, 0 unnecessary calls · arguments 0 missing, 0 extra, mismatched: date/time 0, location 0, number 0, other 0 · confirmation 1.00",
  );
  assert.deepEqual([metrics.confirmation.correct, metrics.confirmation.total], [2, 2]);
});

test("a changed message text is one mismatched argument of kind other, in the message and the line", () => {
  const text = readFileSync(FILE, "utf8");
  const changed = text.replace(
    /("name":"send_message_with_phone_number","arguments":\{[^}]*"content":")How's the new album coming along/,
    "$1Is the album done yet",
  );
  assert.notEqual(changed, text);
  const { metrics } = report(changed);
  assert.deepEqual(metrics.errors.execution.mismatched, { date_time: 0, location: 0, number: 0, other: 1 });
  assert.match(dialogToolAnalysisLine(metrics), /arguments 0 missing, 0 extra, mismatched: date\/time 0, location 0, number 0, other 1/);
});
