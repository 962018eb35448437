// `run --mode dialogtool` over ToolTalk's 78 published conversations, imported: the reference as the
// agent scores 1.0 on every task, with the plain questions and with the action and app questions.
// The same runs on our own fixture, and the rest of the mode, are tested by test/cli/dialogtool-*.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, removeTempDirs, runCli, tempDir } from "../../../cli/harness.js";
import { importedToolTalkFolder } from "../published-data.js";

before(requireBuild);
after(removeTempDirs);

interface Tally {
  correct: number;
  total: number;
  accuracy: number | null;
}
interface Summary {
  readonly scenarios: readonly unknown[];
  readonly aggregate: {
    awareness: Tally;
    selection: Tally;
    execution: Tally;
    response: { bleu: number; rouge_l: number };
    actions?: { tally: Tally; confusion: Record<string, Record<string, number>> };
    confirmation?: Tally;
    selection_settings?: Record<"flat" | "hierarchical", Record<"app" | "api" | "argument", Tally>>;
  };
}

function runDialogTool(extra: readonly string[]): Summary {
  const out = tempDir("dialogtool-tooltalk");
  const r = runCli(["run", importedToolTalkFolder(), "--mode", "dialogtool", ...extra, "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  const summary = JSON.parse(readFileSync(join(out, "dialogtool-summary.json"), "utf8")) as Summary;
  assert.equal(summary.scenarios.length, 78);
  return summary;
}

test("ToolTalk's 78 conversations, imported: the reference as the agent scores 1.0 on every task (the tasks run on either pack)", () => {
  const { aggregate } = runDialogTool([]);
  assert.deepEqual([aggregate.awareness.accuracy, aggregate.selection.accuracy, aggregate.execution.accuracy], [1, 1, 1]);
  assert.ok(Math.abs(aggregate.response.bleu - 100) < 1e-9, `BLEU ${aggregate.response.bleu}`);
  assert.equal(aggregate.response.rouge_l, 1);
});

test("ToolTalk's 78 conversations: the reference scores 1.0 on actions, confirmation and both selection settings", () => {
  const { aggregate } = runDialogTool(["--awareness", "actions", "--selection", "hierarchical"]);
  assert.equal(aggregate.actions?.tally.accuracy, 1);
  for (const [truth, row] of Object.entries(aggregate.actions?.confusion ?? {})) assert.deepEqual(Object.keys(row), [truth]);
  assert.ok((aggregate.confirmation?.total ?? 0) > 0);
  assert.equal(aggregate.confirmation?.correct, aggregate.confirmation?.total);
  for (const setting of Object.values(aggregate.selection_settings ?? {})) {
    for (const t of [setting.app, setting.api, setting.argument]) assert.deepEqual([t.correct, t.accuracy], [aggregate.selection.total, 1]);
  }
});
