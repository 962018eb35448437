// One row of bench:eval's scale case (d), run in a process of its own so that its peak memory
// (the process's maximum resident set) is the row's alone. Plays a generated episode, then scores
// it: once cold and `repeats` more times. Prints one JSON line (ScaleRowResult) on stdout.
//
//   node --import tsx bench/eval-scale-row.ts wide 12 300 5 runs
//   node --import tsx bench/eval-scale-row.ts chain 30 10000 3 plain
//
// Mode "runs" is the evaluation as shipped; "plain" matches without the run compression
// (index-compression.ts), every message its own index: the matcher as it was before it, as far as
// it gets (the parent stops it at its time budget).
import { performance } from "node:perf_hooks";
import { evaluate, listMatchProblem } from "../engine/evaluation/evaluate.js";
import { bestMatch } from "../engine/evaluation/matching/index.js";
import { StateCache } from "../engine/evaluation/node-scorer.js";
import { packTables } from "../engine/packs/tables.js";
import { chainScenarioText } from "./chain-scenario.js";
import { playGenerated } from "./generated-episode.js";
import { wideDagScenarioText, wideDagShape } from "./wide-dag-scenario.js";

export interface ScaleRowResult {
  readonly messages: number;
  readonly candidates: number;
  readonly worldStates: number;
  readonly firstMs: number;
  readonly meanMs: number;
  readonly minMs: number;
  readonly score: number;
  readonly matched: number;
  readonly milestones: number;
  readonly peakMiB: number;
}

async function main(): Promise<void> {
  const [kind, milestonesText, messagesText, repeatsText, mode] = process.argv.slice(2);
  const milestones = Number(milestonesText);
  const messages = Number(messagesText);
  const repeats = Number(repeatsText);
  if (
    (kind !== "wide" && kind !== "chain") ||
    !(milestones >= 2) ||
    !(messages > 0) ||
    !(repeats >= 1) ||
    (mode !== "runs" && mode !== "plain")
  ) {
    throw new Error("usage: eval-scale-row.ts wide|chain <milestones> <messages> <repeats> runs|plain");
  }
  const text = kind === "wide" ? wideDagScenarioText(true, wideDagShape(milestones, messages)) : chainScenarioText(milestones, messages);
  const { scenario, episode } = await playGenerated(text, `bench/${kind}-${milestones}-${messages}.scenario.yaml`);
  const window = { first: episode.firstUserIndex, last: episode.messages.length - 1 };

  const score =
    mode === "runs"
      ? () =>
          evaluate(scenario, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, {
            endReason: episode.ended?.reason ?? null,
          })
      : () => {
          // The milestones' match only, without sameAsPrevious: what the run compression saves.
          const { schemas } = packTables(scenario.world.pack);
          const states = new StateCache({
            messages: episode.messages,
            worldAt: (i) => episode.world.at(i),
            initialIndex: episode.firstUserIndex,
            schemas,
          });
          const { problem } = listMatchProblem(scenario.milestones, "milestone", [...schemas.keys()], states, window);
          const { sameAsPrevious: _dropped, ...plain } = problem;
          return bestMatch(plain);
        };
  const times: number[] = [];
  let result: unknown = null;
  for (let k = 0; k <= repeats; k++) {
    const start = performance.now();
    result = score();
    times.push(performance.now() - start);
  }
  const [firstMs, ...rest] = times as [number, ...number[]];
  const evaluation = mode === "runs" ? (result as ReturnType<typeof evaluate>) : null;
  const row: ScaleRowResult = {
    messages: episode.messages.length,
    candidates: window.last - window.first + 1,
    worldStates: episode.world.all().length,
    firstMs,
    meanMs: rest.reduce((a, b) => a + b, 0) / rest.length,
    minMs: Math.min(...rest),
    score: evaluation ? evaluation.score : (result as ReturnType<typeof bestMatch>).total / milestones,
    matched: evaluation
      ? evaluation.milestones.filter((m) => m.matched_at !== null).length
      : (result as ReturnType<typeof bestMatch>).assignment.filter((a) => a.similarity > 0).length,
    milestones,
    // maxRSS is in kibibytes.
    peakMiB: process.resourceUsage().maxRSS / 1024,
  };
  console.log(JSON.stringify(row));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});
