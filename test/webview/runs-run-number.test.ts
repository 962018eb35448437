// Issue 39, item 6: in Show Runs, four runs of one scenario are told apart in the row itself by
// their run number (the file name the extension gives each run), and sort in run order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { COLUMNS, tableRows } from "../../client/webview/runs/table-model.js";
import { syntheticRuns } from "./runs-fixtures.js";

test("runs of one scenario show `· run N` in the scenario cell and sort by it", () => {
  const [template] = syntheticRuns(1);
  assert.ok(template);
  const records = [3, 1, 4, 2].map((n) => ({ ...template, file: `/ws/.toolsandbox/runs/send_message.run-${n}.trajectory.jsonl` }));
  const scenario = COLUMNS.find((c) => c.id === "scenario")!;
  const texts = records.map((r) => scenario.text(r));
  assert.equal(new Set(texts).size, 4, `the four rows read differently: ${texts.join(" | ")}`);
  assert.equal(texts[0], `${template.scenario} · run 3`);
  const rows = tableRows(records, { sort: "scenario", descending: false, filter: "", group: "none" });
  assert.deepEqual(
    rows.map((r) => (r.kind === "run" ? scenario.text(r.record) : "")),
    [1, 2, 3, 4].map((n) => `${template.scenario} · run ${n}`),
  );
  // A file the CLI wrote (no run number in its name) shows the scenario alone.
  assert.equal(scenario.text({ ...template, file: "/out/send_message.trajectory.jsonl" }), template.scenario);
});
