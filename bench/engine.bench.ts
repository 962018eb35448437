// Engine throughput: every sample scenario played N times in-process with the scripted roles,
// first with the events dropped, then with each trajectory written to a temporary directory.
// Prints plain figures (messages per second and the mean time per message); asserts nothing.
// Then one long episode: a generated 10,000-message scenario (a 30-step plan with look-ups between
// the steps, bench/chain-scenario.ts) played once, with the time per message over its first and
// its last 1,000 messages: a turn should cost the same late in a long run as early.
//
//   npm run bench:engine                  (N = 20)
//   npm run bench:engine -- 100           (N = 100)
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Episode } from "../engine/episode/episode.js";
import type { EpisodeEvent, TrajectoryHeader } from "../engine/episode/types.js";
import { createScriptedRoles } from "../engine/roles/scripted.js";
import type { Scenario } from "../engine/scenario/model.js";
import { loadScenarioFile } from "../engine/scenario/load.js";
import { TrajectoryWriter } from "../engine/trajectory/writer.js";
import { startBenchReport } from "./report.js";
import { chainScenarioText } from "./chain-scenario.js";
import { checkScenarioText } from "../engine/scenario/load.js";

const SAMPLES = "sample-scenarios";
const SEED = 0;

function iterationsFromArgs(): number {
  const arg = process.argv[2];
  if (arg === undefined) return 20;
  const n = Number(arg);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`bench:engine: the iteration count must be a positive integer, got "${arg}"`);
    process.exit(2);
  }
  return n;
}

function loadSamples(): Scenario[] {
  const files = readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".scenario.yaml"))
    .sort();
  return files.map((f) => {
    const { scenario, diagnostics } = loadScenarioFile(join(SAMPLES, f));
    if (!scenario) throw new Error(`${f}: ${diagnostics.map((d) => d.message).join("; ")}`);
    return scenario;
  });
}

/** Plays one episode; returns its message count. */
async function play(scenario: Scenario, onEvent: (event: EpisodeEvent) => void): Promise<number> {
  const episode = new Episode({ scenario, ...createScriptedRoles(scenario), seed: SEED, onEvent });
  await episode.run();
  return episode.messages.length;
}

function header(scenario: Scenario): TrajectoryHeader {
  return {
    type: "header",
    format: "toolsandbox-trajectory",
    version: 1,
    scenario,
    run: { agent: "scripted", user: "scripted", seed: SEED, options: {} },
  };
}

interface Measurement {
  readonly label: string;
  readonly messages: number;
  readonly ms: number;
}

async function measure(
  label: string,
  scenarios: readonly Scenario[],
  iterations: number,
  playOne: (s: Scenario) => Promise<number>,
): Promise<Measurement> {
  let messages = 0;
  const start = performance.now();
  for (let i = 0; i < iterations; i++) for (const s of scenarios) messages += await playOne(s);
  return { label, messages, ms: performance.now() - start };
}

async function main(): Promise<void> {
  const report = startBenchReport("engine");
  const iterations = iterationsFromArgs();
  const scenarios = loadSamples();
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-bench-"));
  const inMemory = (s: Scenario): Promise<number> => play(s, () => undefined);
  const withTrajectory = async (s: Scenario): Promise<number> => {
    const writer = TrajectoryWriter.create(join(dir, `${s.name}.trajectory.jsonl`), header(s));
    try {
      return await play(s, (e) => writer.write(e));
    } finally {
      writer.close();
    }
  };
  try {
    // One untimed pass each, so the JIT and the file cache are warm for both measurements.
    await measure("warm-up", scenarios, 1, inMemory);
    await measure("warm-up", scenarios, 1, withTrajectory);
    const results = [
      await measure("episode only", scenarios, iterations, inMemory),
      await measure("episode + trajectory file", scenarios, iterations, withTrajectory),
    ];

    console.log(
      `engine benchmark: ${scenarios.length} sample scenarios x ${iterations} iterations, scripted roles, node ${process.version}`,
    );
    console.log(
      `${"".padEnd(26)}${"messages".padStart(10)}${"seconds".padStart(10)}${"messages/s".padStart(13)}${"ms/message".padStart(13)}`,
    );
    for (const r of results) {
      console.log(
        `${r.label.padEnd(26)}${String(r.messages).padStart(10)}${(r.ms / 1000).toFixed(3).padStart(10)}${Math.round(
          (r.messages * 1000) / r.ms,
        )
          .toString()
          .padStart(13)}${(r.ms / r.messages).toFixed(4).padStart(13)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await longEpisode();
  report.write();
}

const LONG_MESSAGES = 10_000;
const LONG_WINDOW = 1_000;

async function longEpisode(): Promise<void> {
  const checked = checkScenarioText(chainScenarioText(30, LONG_MESSAGES), "bench/long-episode.scenario.yaml");
  if (!checked.scenario) throw new Error(`the generated scenario has errors: ${checked.diagnostics.map((d) => d.message).join("; ")}`);
  const scenario = checked.scenario;
  const stamps: number[] = [];
  const start = performance.now();
  const messages = await play(scenario, (e) => void (e.type === "message" && stamps.push(performance.now())));
  const ms = performance.now() - start;
  const perMessage = (from: number, to: number): string => ((stamps[to]! - stamps[from]!) / (to - from)).toFixed(4);
  console.log(
    `one long episode: ${messages} messages in ${(ms / 1000).toFixed(3)} s, ${Math.round((messages * 1000) / ms)} messages/s; ` +
      `ms/message over the first ${LONG_WINDOW} ${perMessage(0, LONG_WINDOW)}, over the last ${LONG_WINDOW} ${perMessage(stamps.length - 1 - LONG_WINDOW, stamps.length - 1)}`,
  );
}

main().catch((e: unknown) => {
  console.error(`bench:engine: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
