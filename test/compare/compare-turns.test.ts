// Issue 39, item 7: compare numbers turns as the run's header counts them (upstream's effective
// turn count), not one per message after the setup.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { compareRuns, savedRun } from "../../engine/compare/compare-runs.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";

test("the last compared row's turn is the turn count the evaluation records", () => {
  for (const name of ["find_temperature_adapted", "add_reminder_content_and_date_and_time_multiple_user_turn_adapted"]) {
    const file = `sample-scenarios/trajectories/${name}.trajectory.jsonl`;
    const run = parseTrajectory(readFileSync(file, "utf8"), file);
    const c = compareRuns(savedRun("a", run), savedRun("b", run));
    const last = c.rows.at(-1)!;
    const counted = run.evaluation?.turn_count;
    assert.equal(typeof counted, "number", `${name} has a recorded turn count`);
    assert.equal(last.turn, counted, `${name}: the rows end at turn ${last.turn}, the header says ${counted}`);
    assert.ok(c.rows.length - c.rows.filter((r) => r.setup).length > last.turn, `${name} has messages that are not turns`);
  }
});
