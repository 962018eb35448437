// Times ToolTalk's 78 conversations through the project: importing them as scenarios, and scoring
// them in both modes. Figures only, no verdicts.
//
//   npm run bench:tooltalk            (3 timed rounds after a first, cold one)
//   npm run bench:tooltalk -- 10      (10)
//   ToolTalk's data is read from ../shared/data/tooltalk, or TOOLSANDBOX_TOOLTALK_DATA.
//
// Rows:
// - import: read the 78 files, build and check each scenario (twice: before and after its
//   milestones, as the importer does), replay the ground truth.
// - milestone mode, play: the scripted roles play each reference as an episode (what `run` does).
// - milestone mode, score: the played episodes scored against their milestones and minefields.
// - tooltalk mode, simulate + score: ToolTalk's per-turn, teacher-forced simulation of each
//   scenario with the ground-truth predictor, and ToolTalk's metrics.
// - tooltalk mode, score: ToolTalk's metrics alone, on the simulated turns.
import { performance } from "node:perf_hooks";
import { Episode } from "../engine/episode/episode.js";
import { evaluate } from "../engine/evaluation/evaluate.js";
import { importConversation } from "../engine/benchmarks/tooltalk/importer/import-conversation.js";
import { packById } from "../engine/packs/registry.js";
import { createScriptedRoles } from "../engine/roles/scripted.js";
import { checkScenarioText } from "../engine/scenario/resolve.js";
import type { Scenario } from "../engine/scenario/model.js";
import { groundTruthPredictor } from "../engine/benchmarks/tooltalk/evaluation/ground-truth-predictor.js";
import { scoreConversation } from "../engine/benchmarks/tooltalk/evaluation/metrics.js";
import { simulateConversation } from "../engine/benchmarks/tooltalk/evaluation/simulation.js";
import type { ToolTalkTurnRun } from "../engine/benchmarks/tooltalk/evaluation/types.js";
import { ScenarioBackend, scenarioConversation } from "../engine/benchmarks/tooltalk/mode/scenario-conversation.js";
import { toolTalkConversations, toolTalkDatabases } from "../test/conformance/tooltalk/published-data.js";
import { startBenchReport } from "./report.js";

const rounds = Number(process.argv[2] ?? 3);
if (!Number.isInteger(rounds) || rounds < 1) throw new RangeError(`rounds must be a positive integer, got ${process.argv[2]}`);

interface Row {
  readonly name: string;
  readonly firstMs: number;
  readonly meanMs: number;
}

async function time(name: string, work: () => Promise<void> | void): Promise<Row> {
  const t0 = performance.now();
  await work();
  const firstMs = performance.now() - t0;
  let total = 0;
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await work();
    total += performance.now() - t;
  }
  return { name, firstMs, meanMs: total / rounds };
}

async function main(): Promise<void> {
  const report = startBenchReport("tooltalk");
  const conversations = toolTalkConversations();
  const databases = toolTalkDatabases();
  const rows: Row[] = [];
  let scenarios: Scenario[] = [];

  rows.push(
    await time("import (78 conversations -> scenario files)", () => {
      scenarios = conversations.map((c) => {
        const { name, text } = importConversation(c, { schemaPath: null, databases });
        const { scenario } = checkScenarioText(text, name);
        if (!scenario) throw new Error(`${name} does not check`);
        return scenario;
      });
    }),
  );

  const episodes: Episode[] = [];
  rows.push(
    await time("milestone mode: play the 78 references", async () => {
      episodes.length = 0;
      for (const scenario of scenarios) {
        const { agent, user } = createScriptedRoles(scenario);
        const episode = new Episode({ scenario, agent, user, seed: 0 });
        await episode.run();
        episodes.push(episode);
      }
    }),
  );
  rows.push(
    await time("milestone mode: score the 78 episodes", () => {
      episodes.forEach((episode, i) => {
        const scenario = scenarios[i]!;
        const result = evaluate(scenario, episode.messages, (m) => episode.world.at(m), episode.firstUserIndex, {
          endReason: episode.ended?.reason ?? null,
        });
        if (result.score !== 1) throw new Error(`${scenario.name} scores ${result.score}`);
      });
    }),
  );

  const isAction = (name: string): boolean => packById("tooltalk").toolByName(name)?.action ?? false;
  let simulated: ToolTalkTurnRun[][] = [];
  rows.push(
    await time("tooltalk mode: simulate + score the 78 conversations", async () => {
      simulated = [];
      for (const scenario of scenarios) {
        const conversation = scenarioConversation(scenario, scenario.name);
        const turns = await simulateConversation(conversation, new ScenarioBackend(scenario), groundTruthPredictor(conversation));
        if (!scoreConversation(turns, isAction).metrics.success) throw new Error(`${scenario.name} fails ToolTalk's oracle`);
        simulated.push(turns);
      }
    }),
  );
  rows.push(
    await time("tooltalk mode: score the 78 simulations", () => {
      for (const turns of simulated) scoreConversation(turns, isAction);
    }),
  );

  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`ToolTalk: ${conversations.length} conversations, ${rounds} timed round(s) after a first one`);
  console.log(`${"".padEnd(width)}  ${"first ms".padStart(9)}  ${"mean ms".padStart(9)}  ${"per conv".padStart(9)}`);
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(width)}  ${r.firstMs.toFixed(1).padStart(9)}  ${r.meanMs.toFixed(1).padStart(9)}  ${(r.meanMs / conversations.length).toFixed(2).padStart(9)}`,
    );
  }
  report.write();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
