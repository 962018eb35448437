// The runs folder of issue 26's "done when", built from two saved sample runs:
//   scripted/  agent "scripted", 2 scenarios x 3 trials, all scoring 1; plus a file cut short
//   model-b/   agent "openai:model-b", 2 scenarios x 3 trials (find_temperature fails its third);
//              a model_error run that had reached every milestone (recorded score 1), and a file
//              corrupt in the middle.
// Expected: 15 runs, 12 scored, 1 errored, 2 damaged; per agent pass^k, never pooled.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const SCENARIOS = ["find_temperature_adapted", "cellular_off_adapted"] as const;

const sampleLines = (name: string): string[] =>
  readFileSync(join("sample-scenarios", "trajectories", `${name}.trajectory.jsonl`), "utf8")
    .split("\n")
    .filter((l) => l !== "");

type Line = Record<string, unknown>;

/**
 * The sample's lines with the agent renamed, the seed of trial k (the run's seed + k - 1, as `run
 * --trials` plays them, so no two trials are byte-identical copies) and the recorded score, end
 * reason and detail replaced as asked.
 */
function variant(
  name: string,
  change: { agent?: string; trial?: number; score?: number; end?: { reason: string; detail: string } },
): string[] {
  return sampleLines(name).map((text) => {
    const line = JSON.parse(text) as Line;
    if (line.type === "header") {
      const run = line.run as Line;
      line.run = {
        ...run,
        ...(change.agent === undefined ? {} : { agent: change.agent }),
        seed: (run.seed as number) + (change.trial ?? 1) - 1,
      };
    }
    if (line.type === "end" && change.end !== undefined) Object.assign(line, change.end);
    if (line.type === "evaluation" && change.score !== undefined) line.result = { ...(line.result as Line), score: change.score };
    return JSON.stringify(line);
  });
}

const write = (file: string, lines: readonly string[]): void => writeFileSync(file, `${lines.join("\n")}\n`);

export const AGENT_B = "openai:model-b";

export function writeScoresFixture(root: string): string {
  const a = join(root, "scripted");
  const b = join(root, "model-b");
  mkdirSync(a, { recursive: true });
  mkdirSync(b, { recursive: true });
  for (const name of SCENARIOS) {
    for (const trial of [1, 2, 3]) {
      write(join(a, `${name}.trial-${trial}.trajectory.jsonl`), variant(name, { trial }));
      const fails = name === "find_temperature_adapted" && trial === 3;
      write(join(b, `${name}.trial-${trial}.trajectory.jsonl`), variant(name, { agent: AGENT_B, trial, ...(fails ? { score: 0 } : {}) }));
    }
  }
  // Reached every milestone, then the endpoint failed: recorded score 1, an infrastructure failure.
  write(
    join(b, "find_temperature_adapted.trial-4.trajectory.jsonl"),
    variant("find_temperature_adapted", {
      agent: AGENT_B,
      trial: 4,
      end: { reason: "model_error", detail: "agent openai:model-b: http://127.0.0.1:9/v1 answered with HTTP 500 after 3 attempts" },
    }),
  );
  // Corrupt in the middle (line 6 of 25); the rest of the file is whole and says score 1.
  const corrupt = variant("cellular_off_adapted", { agent: AGENT_B, trial: 4 });
  corrupt[5] = `${corrupt[5]!.slice(0, 30)}#garbage`;
  write(join(b, "cellular_off_adapted.trial-4.trajectory.jsonl"), corrupt);
  // Cut short while writing its last line.
  const cut = variant("find_temperature_adapted", { trial: 4 });
  writeFileSync(join(a, "find_temperature_adapted.trial-4.trajectory.jsonl"), `${cut.slice(0, 12).join("\n")}\n${cut[12]!.slice(0, 25)}`);
  return root;
}
