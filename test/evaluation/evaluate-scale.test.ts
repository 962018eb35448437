// No evaluation path throws a capacity error at the sizes issue 14 names: generated episodes
// (bench/wide-dag-scenario.ts, bench/chain-scenario.ts, played by the engine with the scripted
// roles, which follow the reference solution) are scored, every milestone matched where the
// reference solution reaches it, at the message each milestone's world change or tool call
// happened. Speed is bench:eval's business (case d); this file checks answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { evaluate } from "../../engine/evaluation/evaluate.js";
import type { Episode } from "../../engine/episode/episode.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { chainScenarioText } from "../../bench/chain-scenario.js";
import { playGenerated } from "../../bench/generated-episode.js";
import { wideDagScenarioText, wideDagShape } from "../../bench/wide-dag-scenario.js";

function score(scenario: Scenario, episode: Episode): ReturnType<typeof evaluate> {
  return evaluate(scenario, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, {
    endReason: episode.ended?.reason ?? null,
  });
}

/** The first message whose world differs from the previous one in `table` (after `from`). */
function changesOf(episode: Episode, table: string): number[] {
  const at: number[] = [];
  for (let i = 1; i < episode.messages.length; i++) if (episode.world.at(i)[table] !== episode.world.at(i - 1)[table]) at.push(i);
  return at;
}

const CASES = [
  { kind: "wide", milestones: 9, messages: 300, note: "refused from 270 messages before" },
  { kind: "wide", milestones: 20, messages: 10_000, note: "" },
  { kind: "chain", milestones: 6, messages: 10_000, note: "crashed with a RangeError before" },
  { kind: "chain", milestones: 30, messages: 10_000, note: "" },
] as const;

for (const { kind, milestones, messages, note } of CASES) {
  test(`a ${kind === "wide" ? "wide DAG" : "chain"} of ${milestones} milestones over ${messages} messages is scored exactly${note ? ` (${note})` : ""}`, async () => {
    const text = kind === "wide" ? wideDagScenarioText(true, wideDagShape(milestones, messages)) : chainScenarioText(milestones, messages);
    const { scenario, episode } = await playGenerated(text, `${kind}.scenario.yaml`);
    assert.ok(Math.abs(episode.messages.length - messages) < messages / 10 + 30, `${episode.messages.length} messages`);
    const result = score(scenario, episode);
    assert.equal(result.score, 1);
    assert.equal(result.milestones.filter((m) => m.matched_at !== null).length, milestones);
    if (kind === "chain") {
      // Each step's milestone sits where its reminder was added: the REMINDER table's changes.
      const added = changesOf(episode, "REMINDER");
      assert.equal(added.length, milestones - 1);
      assert.deepEqual(
        result.milestones.slice(1).map((m) => m.matched_at),
        added,
      );
    }
    // The same episode scored twice gives the same bytes (caches and runs change nothing).
    assert.equal(JSON.stringify(score(scenario, episode)), JSON.stringify(result));
  });
}
