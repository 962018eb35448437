// `report --merge DIR... --out DIR`: the summaries of a run's shards (`run --shard I/N` on several
// machines) joined into the summary one unsharded run writes. Every part must be there once, from
// the same run (roles, seed, trials); the episodes are put back in the whole plan's order by the
// `plan_index` each shard recorded, and every aggregate is computed again from them, so the merged
// file is the unsharded one, scenario by scenario and figure by figure.
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { JsonCursor, JsonInputError, parseJsonText, type JsonSource } from "../base/json-reader.js";
import type { JsonValue } from "../base/json.js";
import { type BatchSummary, trialsSummary } from "./batch-summary.js";
import { ExitError, EXIT } from "./errors.js";
import { buildRunSummary, type ScenarioResult } from "./summary.js";

interface ShardPart {
  readonly file: string;
  readonly index: number;
  readonly count: number;
  readonly run: BatchSummary["run"];
  readonly trials: number;
  readonly notStarted: number;
  readonly scenarios: readonly { readonly planIndex: number; readonly result: ScenarioResult }[];
}

function integer(cursor: JsonCursor, min: number): number {
  const v = cursor.value;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min) cursor.fail(`expected a whole number from ${min}`);
  return v as number;
}

/** One shard's summary.json, checked where it enters; trajectory paths made relative to `outDir`. */
function readPart(file: string, outDir: string): ShardPart {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new ExitError(`${file}: ${code === "ENOENT" ? "no summary.json (was the shard's run finished?)" : "cannot be read"}`, EXIT.io);
  }
  const source: JsonSource = { file, text };
  try {
    const root = new JsonCursor(source, parseJsonText(source));
    if (root.field("format").string() !== "toolsandbox-run-summary") root.field("format").fail("expected toolsandbox-run-summary");
    const shard = root.field("shard");
    if (!shard.exists) root.fail("this summary is not a shard's (no `shard`): merge the summaries of `run --shard I/N`");
    const count = integer(shard.field("count"), 1);
    const index = integer(shard.field("index"), 1);
    const run = root.field("run");
    const runValue = { agent: run.field("agent").string(), user: run.field("user").string(), seed: integer(run.field("seed"), 0) };
    const trials = root.field("trials").exists ? integer(root.field("trials").field("per_scenario"), 1) : 1;
    const interrupted = root.field("interrupted");
    const notStarted = interrupted.exists ? integer(interrupted.field("episodes_not_started"), 0) : 0;
    const scenarios = root
      .field("scenarios")
      .items()
      .map((item) => {
        item.field("name").string();
        const trajectory = item.field("trajectory").string();
        const planIndex = integer(item.field("plan_index"), 0);
        const { plan_index: _, ...rest } = item.object() as Record<string, JsonValue>;
        const result = { ...rest, trajectory: relative(outDir, join(dirname(file), trajectory)) } as unknown as ScenarioResult;
        return { planIndex, result };
      });
    return { file, index, count, run: runValue, trials, notStarted, scenarios };
  } catch (e) {
    if (e instanceof JsonInputError) throw new ExitError(e.message, EXIT.failed);
    throw e;
  }
}

/** The merged summary of the shard summaries `files`, for a summary written in `outDir`. */
export function mergeShardSummaries(files: readonly string[], outDir: string): BatchSummary {
  if (files.length === 0) throw new ExitError("--merge needs the folders of the shards' runs", EXIT.usage);
  const parts = files.map((f) => readPart(f, outDir));
  const first = parts[0] as ShardPart;
  for (const part of parts) {
    if (part.count !== first.count)
      throw new ExitError(`${part.file}: shard ${part.index}/${part.count}, but ${first.file} is of ${first.count}`, EXIT.failed);
    const same = part.run.agent === first.run.agent && part.run.user === first.run.user && part.run.seed === first.run.seed;
    if (!same || part.trials !== first.trials) {
      throw new ExitError(`${part.file}: not the same run as ${first.file} (agent, user, seed and trials must match)`, EXIT.failed);
    }
  }
  const byIndex = new Map<number, ShardPart>();
  for (const part of parts) {
    const other = byIndex.get(part.index);
    if (other) throw new ExitError(`${part.file}: shard ${part.index}/${part.count} is also ${other.file}`, EXIT.failed);
    byIndex.set(part.index, part);
  }
  const missing = Array.from({ length: first.count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0)
    throw new ExitError(`missing shard ${missing.map((i) => `${i}/${first.count}`).join(", ")}: nothing was merged`, EXIT.failed);

  const scenarios = parts
    .flatMap((p) => p.scenarios)
    .sort((a, b) => a.planIndex - b.planIndex)
    .map((s) => s.result);
  const notStarted = parts.reduce((n, p) => n + p.notStarted, 0);
  const perTrial = first.trials > 1 ? trialsSummary(scenarios, first.trials) : null;
  return {
    ...buildRunSummary(first.run, scenarios),
    ...(perTrial ? { trials: perTrial } : {}),
    ...(parts.some((p) => p.notStarted > 0) ? { interrupted: { episodes_not_started: notStarted } } : {}),
  };
}
