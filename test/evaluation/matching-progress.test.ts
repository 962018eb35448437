// The progress line of a long match (matching-search.ts): silent for two seconds, then at most one
// line per five seconds, each saying how long so far and what the method reports.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ProgressClock, progressTitle } from "../../engine/evaluation/matching/search.js";

test("a long match reports after two seconds, then every five, never more often", () => {
  let now = 1_000_000;
  const lines: string[] = [];
  const clock = new ProgressClock(
    (line) => lines.push(line),
    progressTitle(9, 300, "search"),
    () => now,
  );
  let placed = 0;
  const tick = (): void => clock.tick(() => `${placed} of 9 placed`);
  for (; now < 1_001_999; now += 100) tick();
  assert.deepEqual(lines, [], "nothing in the first two seconds");
  now = 1_002_000;
  placed = 3;
  tick();
  tick();
  assert.deepEqual(lines, ["matching 9 interdependent milestones exactly over 300 distinct messages by search: 2 s so far, 3 of 9 placed"]);
  now = 1_006_900;
  tick();
  assert.equal(lines.length, 1, "not again within five seconds");
  now = 1_007_000;
  placed = 5;
  tick();
  assert.equal(lines[1], "matching 9 interdependent milestones exactly over 300 distinct messages by search: 7 s so far, 5 of 9 placed");
});
