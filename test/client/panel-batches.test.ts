// A long run opens in the VS Code panel in batches (client/host/panel-batches.ts): every line
// arrives once and in order, the panel hears how far it is, and a short run is posted as before.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BATCH_LINES, inBatches } from "../../client/host/panel-batches.js";
import type { FeedMessage } from "../../client/host/feed.js";
import { longRun } from "../webview/trajectories.js";

test("a long run's lines are posted in batches between loading messages, every line once and in order", () => {
  const lines = longRun(3000);
  const snapshot: FeedMessage[] = [
    { type: "lines", lines },
    { type: "live", state: "finished" },
    { type: "damaged", problem: "cut at line 9" },
  ];
  const posted = inBatches(snapshot);
  const batches = posted.filter((m) => m.type === "lines");
  assert.ok(batches.every((b) => b.type === "lines" && b.lines.length <= BATCH_LINES));
  assert.deepEqual(
    batches.flatMap((b) => (b.type === "lines" ? b.lines : [])),
    lines,
  );
  assert.equal(batches.length, Math.ceil(lines.length / BATCH_LINES));
  // The first batch starts the run (its header); the other messages follow the lines, the last word is the whole count.
  assert.equal(batches[0]?.type === "lines" && batches[0].lines[0]?.type, "header");
  assert.deepEqual(posted.slice(-3), [
    { type: "live", state: "finished" },
    { type: "damaged", problem: "cut at line 9" },
    { type: "loading", loaded: lines.length, total: lines.length },
  ]);
  const progress = posted.filter((m) => m.type === "loading").map((m) => (m.type === "loading" ? m.loaded : -1));
  assert.deepEqual(
    progress,
    [...progress].sort((a, b) => a - b),
  );
});

test("a short run is posted as one message, as before", () => {
  const snapshot: FeedMessage[] = [
    { type: "lines", lines: longRun(40) },
    { type: "live", state: "running" },
  ];
  assert.deepEqual(inBatches(snapshot), snapshot);
});
