import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { evaluate, firstUserMessageIndex } from "../../engine/evaluation/evaluate.js";
import { matchedHere, PrefixEvaluation } from "../../engine/evaluation/prefix-evaluation.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";
import { longRunTrajectoryText, type TrafficPlacement } from "../../bench/long-run-trajectory.js";

// The debugger asks "what had matched by message i" at every stop, through one PrefixEvaluation
// that keeps the work of earlier prefixes. Each of its answers must be exactly what scoring the
// messages 0..i on their own gives, at every i, whatever order the prefixes are asked in.

const SAMPLES = "sample-scenarios/trajectories";

test("on generated long runs of every sample, each prefix scores as the messages up to it scored on their own", () => {
  const files = readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".trajectory.jsonl"))
    .sort();
  assert.equal(files.length, 29, "the 29 sample trajectories");
  let matchedSomewhere = 0;
  for (const [n, file] of files.entries()) {
    const sample = readFileSync(join(SAMPLES, file), "utf8");
    const placement: TrafficPlacement = n % 2 === 0 ? "spread" : "late";
    const size = parseTrajectory(sample, file).messages.length + 24;
    const run = parseTrajectory(longRunTrajectoryText(sample, size, placement), file);
    const first = firstUserMessageIndex(run.messages);
    const worldAt = (i: number) => run.worldAt(i);
    const incremental = new PrefixEvaluation(run.header.scenario, run.messages, worldAt, first, run.endReason);
    // Asked only what a milestone breakpoint asks (the matches, no explanations), as a step does.
    const stepping = new PrefixEvaluation(run.header.scenario, run.messages, worldAt, first, run.endReason);
    const last = run.messages.length - 1;
    // Forward as a continue walks, then a few back as Step Back does (answered from what was kept).
    const order = [...run.messages.keys(), last - 1, Math.floor(last / 2), first];
    for (const i of order) {
      const alone = evaluate(run.header.scenario, run.messages.slice(0, i + 1), worldAt, first, {
        endReason: i === last ? run.endReason : null,
      });
      assert.deepEqual(incremental.at(i), alone, `${file} (${placement}, ${run.messages.length} messages): the prefix up to ${i}`);
      assert.deepEqual(incremental.matchedHere(i), matchedHere(alone, i));
      assert.deepEqual(stepping.matchedHere(i), matchedHere(alone, i), `${file}: the matches alone at ${i}`);
      // Then the stop's whole evaluation, as the debugger prefetches it: it reuses the step's matching.
      assert.deepEqual(stepping.at(i), alone, `${file}: the whole evaluation at ${i} after the matches alone`);
      if (incremental.matchedHere(i).milestones.length > 0) matchedSomewhere++;
    }
  }
  // The comparison covers stops where a milestone breakpoint would stop, not only empty prefixes.
  assert.ok(matchedSomewhere >= 29, `milestones matched at their prefix's last message ${matchedSomewhere} times`);
});

test("a live episode's list grows in place: the evaluation keeps the count it was prepared on, and one prepared again scores as before", () => {
  // The debugger prepares again when the count differs (prefix-scores.ts); a count read from the
  // growing list would never differ, and the scorer's per-message tables would be too short.
  const file = "modify_contact_with_message_recency_adapted.trajectory.jsonl";
  const text = readFileSync(join(SAMPLES, file), "utf8");
  const run = parseTrajectory(longRunTrajectoryText(text, parseTrajectory(text, file).messages.length + 40, "spread"), file);
  const first = firstUserMessageIndex(run.messages);
  const worldAt = (i: number) => run.worldAt(i);
  const growing = run.messages.slice(0, first + 2);
  let evaluation = new PrefixEvaluation(run.header.scenario, growing, worldAt, first, null);
  let prepared = 1;
  for (let i = first; i < run.messages.length; i++) {
    while (growing.length <= i) growing.push(run.messages[growing.length]!);
    if (evaluation.messageCount !== growing.length) {
      evaluation = new PrefixEvaluation(run.header.scenario, growing, worldAt, first, null);
      prepared++;
    }
    const alone = evaluate(run.header.scenario, run.messages.slice(0, i + 1), worldAt, first, { endReason: null });
    assert.deepEqual(evaluation.matchedHere(i), matchedHere(alone, i), `the matches at ${i}`);
    assert.deepEqual(evaluation.at(i), alone, `the prefix up to ${i}`);
  }
  assert.equal(evaluation.messageCount, run.messages.length);
  assert.ok(prepared > 40, `prepared again as the list grew (${prepared} times)`);
});
