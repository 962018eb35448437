// docs/drafting.md's table of the samples' strength beside their drafts' is the output of
// scripts/draft-strength-table.mts: this keeps the page equal to what the drafter does now.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

test("docs/drafting.md holds the table the script prints today", () => {
  const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/draft-strength-table.mts"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const table = r.stdout.trim();
  assert.match(table, /^\| sample \| its milestones \| its strength \| draft's milestones \| draft's strength \|$/m);
  assert.equal(table.split("\n").length, 2 + 29 + 1);
  assert.ok(
    readFileSync("docs/drafting.md", "utf8").includes(table),
    "docs/drafting.md is out of date: run node --import tsx scripts/draft-strength-table.mts and paste its output",
  );
});
