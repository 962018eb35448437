// The runs table as data (no browser): sorting (missing values last either way), filtering by
// words, grouping by suite and by category. The run record and the report they show:
// test/reports/runs-report.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { COLUMNS, tableRows, type TableQuery } from "../../client/webview/runs/table-model.js";
import { runsData } from "../../client/webview/runs/validate.js";
import { runsReport } from "../../engine/reports/runs-report.js";
import { syntheticRuns } from "./runs-fixtures.js";

const query = (q: Partial<TableQuery>): TableQuery => ({ sort: "date", descending: false, filter: "", group: "none", ...q });
const runs = (rows: ReturnType<typeof tableRows>) => rows.flatMap((r) => (r.kind === "run" ? [r.record] : []));

test("sorting by score puts unscored runs last, ascending or descending", () => {
  const records = syntheticRuns(200);
  for (const descending of [false, true]) {
    const scores = runs(tableRows(records, query({ sort: "score", descending }))).map((r) => r.score);
    const firstNull = scores.indexOf(null);
    assert.ok(firstNull > 0 && scores.slice(firstNull).every((s) => s === null), "nulls at the end");
    const known = scores.slice(0, firstNull) as number[];
    const sorted = [...known].sort((a, b) => (descending ? b - a : a - b));
    assert.deepEqual(known, sorted);
  }
});

test("a filter keeps the runs containing every word; grouping heads each suite or category with its count and mean", () => {
  const records = syntheticRuns(5000);
  const filtered = runs(tableRows(records, query({ filter: "scenario_0007 LLAMA" })));
  assert.ok(filtered.length > 0 && filtered.every((r) => r.scenario === "scenario_0007" && r.agent.includes("llama")));
  const bySuite = tableRows(records, query({ group: "suite" }));
  const heads = bySuite.filter((r) => r.kind === "group");
  assert.deepEqual(
    heads.map((h) => h.kind === "group" && h.label),
    ["openai-gpt-4o", "openai-gpt-4o-mini", "openai-llama3.1-70b", "scripted"],
  );
  assert.equal(
    heads.reduce((n, h) => n + (h.kind === "group" ? h.runs : 0), 0),
    5000,
  );
  // A run is listed under each of its categories.
  const byCategory = tableRows(records, query({ group: "category" }));
  assert.equal(
    runs(byCategory).length,
    records.reduce((n, r) => n + r.categories.length, 0),
  );
});

test("grouping by app heads each app its runs' references use, a run under each of them, and the runs with none apart", () => {
  const records = syntheticRuns(600);
  const byApp = tableRows(records, query({ group: "app" }));
  const heads = byApp.flatMap((r) => (r.kind === "group" ? [r] : []));
  assert.deepEqual(
    heads.map((h) => h.label),
    ["(no app)", "Clock", "Contacts", "Maps", "Messages", "Reminders", "Settings"],
  );
  assert.equal(
    runs(byApp).length,
    records.reduce((n, r) => n + Math.max(1, r.apps.length), 0),
  );
  const maps = heads.find((h) => h.label === "Maps");
  const members = records.filter((r) => r.apps.includes("Maps"));
  assert.equal(maps?.runs, members.length);
  assert.equal(runs(tableRows(records, query({ filter: "maps" }))).length, members.length, "the filter finds runs by app");
});

test("the End column shows the LLM reviewer's verdict beside the rule's cause, and the page's reader keeps it", () => {
  const [base] = syntheticRuns(1);
  const cause = { kind: "agent" as const, rule: "missed-milestone", message: null, evidence: "milestone confirmed was never reached" };
  const record = {
    ...base!,
    end_reason: "user_ended",
    cause,
    review: { reviewer: "openai:mock", kind: "user" as const, reason: "The user asked for the opposite of its goal." },
  };
  const end = COLUMNS.find((c) => c.id === "end")!;
  assert.equal(
    end.text(record),
    "user_ended · agent: milestone confirmed was never reached · review by openai:mock: user: The user asked for the opposite of its goal.",
  );
  const { review: _review, ...unreviewed } = record;
  assert.equal(end.text(unreviewed), "user_ended · agent: milestone confirmed was never reached");
  // The webview's reader of the records (client/webview/runs/validate.ts) keeps the review as sent.
  const data = { type: "runs", title: "t", records: [record], report: runsReport([record]) };
  const [read] = runsData(JSON.parse(JSON.stringify(data)), "runs").records;
  assert.deepEqual(read?.review, record.review);
});
