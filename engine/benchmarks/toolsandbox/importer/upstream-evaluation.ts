// Scores our trajectories with a ToolSandbox checkout's own evaluation, for `eval
// --against-upstream` and `npm run conformance:evaluation`. A trajectory is converted to upstream's
// shapes (SANDBOX rows with upper-case roles and JSON tool traces; one snapshot per table change)
// and handed to upstream_score.py, which loads it into an ExecutionContext and runs the named
// scenario's own Evaluation from the checkout, under the trajectory's clock.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import type { Message } from "../../../episode/types.js";
import type { Trajectory } from "../../../trajectory/trajectory.js";
import { ExporterError } from "./run-exporter.js";

/** One run as upstream_score.py reads it. */
export interface UpstreamRun {
  readonly id: string;
  readonly scenario: string;
  readonly sandbox: readonly Record<string, unknown>[];
  readonly tables: Readonly<Record<string, readonly { index: number; rows: readonly unknown[] }[]>>;
}

export type UpstreamScore =
  | { readonly id: string; readonly milestone: number; readonly minefield: number }
  | { readonly id: string; readonly error: string };

function upstreamMessage(m: Message): Record<string, unknown> {
  return {
    sandbox_message_index: m.sandbox_message_index,
    sender: m.sender.toUpperCase(),
    recipient: m.recipient.toUpperCase(),
    content: m.content,
    openai_tool_call_id: m.openai_tool_call_id,
    openai_function_name: m.openai_function_name,
    conversation_active: m.conversation_active,
    tool_call_exception: m.tool_call_exception,
    tool_trace: m.tool_trace ? m.tool_trace.map((t) => JSON.stringify(t)) : null,
    // Upstream stores null for the scenario's own messages, except the user-only demonstrations.
    visible_to:
      m.scripted === true && !(m.visible_to.length === 1 && m.visible_to[0] === "user") ? null : m.visible_to.map((r) => r.toUpperCase()),
  };
}

export function upstreamRun(id: string, trajectory: Trajectory): UpstreamRun {
  const tables: Record<string, { index: number; rows: unknown[] }[]> = {};
  for (const snapshot of trajectory.world.all()) {
    for (const [table, rows] of Object.entries(snapshot.tables)) (tables[table] ??= []).push({ index: snapshot.index, rows: [...rows] });
  }
  return { id, scenario: trajectory.header.scenario.name, sandbox: trajectory.messages.map(upstreamMessage), tables };
}

/** upstream_score.py as shipped (beside this file from source, or in dist/toolsandbox-importer/). */
function upstreamScoreScript(): string {
  const candidates = [join(__dirname, "upstream_score.py"), join(__dirname, "toolsandbox-importer", "upstream_score.py")];
  const found = candidates.find((file) => existsSync(file));
  if (found === undefined)
    throw new ExporterError(`the upstream scoring script is missing from this installation (looked for ${candidates.join(", ")})`);
  return found;
}

function isScore(value: unknown): value is { id: string; error?: unknown; milestone_similarity?: unknown; minefield_similarity?: unknown } {
  return typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string";
}

/**
 * Scores `runs` with the checkout's evaluation under one clock. Throws ExporterError with one line
 * when the checkout or the Python cannot be used; a run upstream cannot score comes back as an error.
 */
export function scoreWithUpstream(
  checkout: string,
  python: string,
  clock: { readonly now: number; readonly timezone: string },
  runs: readonly UpstreamRun[],
): { scores: UpstreamScore[]; notes: string[] } {
  const root = resolve(checkout);
  if (!existsSync(join(root, "tool_sandbox")))
    throw new ExporterError(`${checkout}: not a ToolSandbox checkout (no tool_sandbox/ package in it)`);
  const result = spawnSync(python, [upstreamScoreScript(), "--now", String(clock.now), "--timezone", clock.timezone], {
    input: JSON.stringify(runs),
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    env: { ...process.env, PYTHONPATH: [root, process.env.PYTHONPATH].filter(Boolean).join(delimiter), PYTHONDONTWRITEBYTECODE: "1" },
  });
  if (result.error) throw new ExporterError(`cannot run ${python}: ${result.error.message}`);
  const notes = (result.stderr ?? "").split("\n").filter((l) => l.startsWith("upstream_score:") || l.startsWith("exporter:"));
  if (result.status !== 0) {
    const lines = (result.stderr ?? "").split("\n").filter((l) => l.trim() !== "");
    throw new ExporterError(
      `upstream's evaluation could not run: ${(lines.filter((l) => l.startsWith("exporter:")).pop() ?? lines.pop() ?? `exit code ${String(result.status)}`).replace(/^exporter: /, "")}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.stdout);
  } catch {
    throw new ExporterError("upstream's evaluation printed something that is not JSON");
  }
  if (!Array.isArray(parsed) || !parsed.every(isScore)) throw new ExporterError("upstream's evaluation printed an unexpected shape");
  const scores = parsed.map(
    (r): UpstreamScore =>
      typeof r.milestone_similarity === "number" && typeof r.minefield_similarity === "number"
        ? { id: r.id, milestone: r.milestone_similarity, minefield: r.minefield_similarity }
        : { id: r.id, error: typeof r.error === "string" ? r.error : "no score" },
  );
  return { scores, notes };
}

/** Upstream computes similarities in Float32: scores within this are the same. */
export const UPSTREAM_SCORE_TOLERANCE = 1e-5;
