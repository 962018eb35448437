// Shared by the outside-agent tests: the reference of a scenario as an MCP client plays it, and
// `toolsandbox serve` started as a user starts it (the built CLI, a separate process).
import { spawn } from "node:child_process";
import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packById } from "../../engine/packs/registry.js";
import { agentFacingName } from "../../engine/scenario/augmentations/scrambling.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { loadScenario } from "../../engine/runner/scenario-files.js";
import { toolsFor } from "../../engine/episode/tool-calls.js";
import { CLI, type CliResult } from "../cli/harness.js";

export const SAMPLES = join(process.cwd(), "sample-scenarios");
export const REFERENCE_AGENT = join(process.cwd(), "test", "fixtures", "agents", "reference-agent.mjs");

export type PlayStep =
  | { readonly calls: readonly { readonly id: string; readonly name: string; readonly arguments: Record<string, unknown> }[] }
  | { readonly say: string };

/** The agent's side of the reference, under the names the agent is shown. */
export function referencePlay(scenario: Scenario): PlayStep[] {
  const augmentations = scenario.options.augmentations ?? [];
  const tools = packById(scenario.world.pack).tools;
  const steps: PlayStep[] = [];
  for (const step of scenario.reference) {
    if (step.kind === "agent_text") steps.push({ say: step.text });
    else if (step.kind === "agent_calls")
      steps.push({
        calls: step.calls.map((c) => ({ id: c.id, name: agentFacingName(c.tool, augmentations, tools), arguments: { ...c.arguments } })),
      });
  }
  return steps;
}

export function sampleFiles(): string[] {
  return readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".scenario.yaml"))
    .sort()
    .map((f) => join(SAMPLES, f));
}

export function loadSample(file: string): Scenario {
  const loaded = loadScenario(file);
  if (!loaded.scenario) throw new Error(`${file} does not load`);
  return loaded.scenario;
}

/** The agent-facing tool names of a scenario (what the server lists besides the conversation tools). */
export function agentToolNames(scenario: Scenario): string[] {
  const augmentations = scenario.options.augmentations ?? [];
  const tools = packById(scenario.world.pack).tools;
  return toolsFor(scenario, "agent").map((t) => agentFacingName(t.name, augmentations, tools));
}

interface ServeProcess {
  /** The Streamable HTTP endpoint, once the server says it listens. */
  readonly url: Promise<string>;
  readonly done: Promise<CliResult>;
}

/** `toolsandbox serve <file> --port 0 ...` in a process of its own. */
export function startServe(file: string, args: readonly string[]): ServeProcess {
  const child = spawn(process.execPath, [CLI, "serve", file, "--port", "0", "--time-limit", "120", ...args], {
    env: { PATH: process.env.PATH ?? "" },
  });
  let stdout = "";
  let stderr = "";
  let announce: (url: string) => void = () => undefined;
  const url = new Promise<string>((resolve, reject) => {
    announce = resolve;
    child.on("close", () => reject(new Error(`serve exited before listening: ${stderr}`)));
  });
  url.catch(() => undefined);
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
    if (found?.[1]) announce(found[1]);
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
  return { url, done };
}

/**
 * Starts the built CLI with `args` (a run writing to `out`) and kills it with SIGKILL once its first
 * episode is complete (its trajectory has its evaluation line), so a later `--resume` has work left.
 */
export async function runKilledAfterFirstEpisode(args: readonly string[], out: string, episodes: number): Promise<void> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? "" }, stdio: "ignore" });
  const complete = (): number =>
    existsSync(out)
      ? readdirSync(out).filter(
          (f) => f.endsWith(".trajectory.jsonl") && readFileSync(join(out, f), "utf8").includes('"type":"evaluation"'),
        ).length
      : 0;
  for (let i = 0; i < 300 && complete() === 0; i++) await new Promise((r) => setTimeout(r, 100));
  child.kill("SIGKILL");
  await new Promise((r) => child.once("close", r));
  assert.ok(complete() >= 1 && complete() < episodes, `killed part-way (${complete()} complete)`);
}
