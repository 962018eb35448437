// The readable transcript `replay` prints: every message with its index, route and content, the
// tool call or exception it carries (an agent call with the ToolScan error patterns it shows),
// after each step that changed the world the row diff, under the message where a milestone or
// minefield matched a marker, and at the end the scores and the peer metrics.
import type { Message } from "../engine/episode/types.js";
import type { PeerMetrics } from "../engine/benchmarks/peers.js";
import { formatScore } from "../engine/evaluation/highlights.js";
import type { EvaluationResult } from "../engine/evaluation/result.js";
import { packTables } from "../engine/packs/tables.js";
import { effectiveTurnCount } from "../engine/evaluation/turn-count.js";
import type { Trajectory, WorldEvent } from "../engine/trajectory/trajectory.js";
import { plural } from "../engine/base/text.js";
import { judgementLines } from "./judgement-lines.js";
import { nodeTableLines, peerLines, scoreLine } from "./score-lines.js";
import { episodePeers } from "../engine/runner/summary.js";
import { changeLines } from "../engine/compare/world-diff.js";

const INDENT = "    ";

/** The transcript; with an evaluation, matches are marked under their messages and scores close it. */
export function transcriptLines(t: Trajectory, evaluation: EvaluationResult | null = null): string[] {
  const { scenario, run } = t.header;
  const { schemas } = packTables(scenario.world.pack);
  const out: string[] = [
    `scenario    ${scenario.name}`,
    `categories  ${scenario.categories.join(", ") || "(none)"}`,
    `run         agent ${run.agent}, user ${run.user}, seed ${run.seed}`,
    `clock       ${scenario.clock.now_iso} (${scenario.clock.timezone})`,
  ];
  const pending: WorldEvent[] = t.events.filter((e): e is WorldEvent => e.type === "world");
  const flushWorld = (upTo: number): void => {
    while (pending.length > 0 && pending[0]!.index <= upTo) {
      const event = pending.shift()!;
      out.push(`${INDENT}world changes at ${event.index}:`);
      for (const line of changeLines(event.changes, scenario.clock.timezone, schemas)) out.push(`${INDENT}  ${line}`);
    }
  };
  const marks = evaluation === null ? new Map<number, string[]>() : matchMarks(evaluation);
  const peers = episodePeers(scenario, t.messages);
  const patterns = peers === null ? new Map<number, string>() : callPatterns(peers);
  t.messages.forEach((m, i) => {
    out.push("", ...messageLines(m, patterns.get(i) ?? null));
    // Changes made by a step are recorded at its first response; show them after the step's last response.
    const next = t.messages[i + 1];
    const stepContinues = next !== undefined && m.sender === "execution_environment" && next.sender === "execution_environment";
    if (!stepContinues) flushWorld(i);
    out.push(...(marks.get(i) ?? []));
  });
  flushWorld(Number.POSITIVE_INFINITY);
  out.push("");
  out.push(
    t.end
      ? `end         ${t.end.reason}${t.end.detail ? ` (${t.end.detail})` : ""} after ${plural(t.messages.length, "message")}, ${plural(effectiveTurnCount(t.messages), "turn")}`
      : `end         none: the run did not finish (${plural(t.messages.length, "message")})`,
  );
  if (evaluation !== null) {
    out.push(`evaluation  ${scoreLine(evaluation)}`);
    const table = nodeTableLines(evaluation);
    if (table.length > 0) out.push("", ...table);
  }
  if (peers !== null) out.push("", ...peerLines(peers, "evaluation".length));
  if (t.judgement !== null) out.push("", ...judgementLines(t.judgement));
  return out;
}

/** "IAN, IAT" by the message index of each agent call ToolScan tagged. */
function callPatterns(peers: PeerMetrics): Map<number, string> {
  return new Map(peers.toolscan.calls.filter((c) => c.tags.length > 0).map((c) => [c.message_index, c.tags.join(", ")]));
}

/** Marker lines by message index: "✓ milestone cellular_on 1.00", "✗ minefield wrong_recipient 1.00". */
function matchMarks(evaluation: EvaluationResult): Map<number, string[]> {
  const marks = new Map<number, string[]>();
  const mark = (index: number | null, line: string): void => {
    if (index !== null) marks.set(index, [...(marks.get(index) ?? []), `${INDENT}${line}`]);
  };
  for (const m of evaluation.milestones) mark(m.matched_at, `✓ milestone ${m.id} ${formatScore(m.similarity)}`);
  for (const m of evaluation.minefields) mark(m.matched_at, `✗ minefield ${m.id} ${formatScore(m.similarity)}`);
  return marks;
}

/** `patterns`: the ToolScan tags of the call this message makes, if any. */
function messageLines(m: Message, patterns: string | null): string[] {
  const tags: string[] = [];
  if (m.scripted) tags.push("scripted");
  if (!m.tool_call && m.openai_function_name !== null) tags.push(`result of ${m.openai_function_name}`);
  if (!isDefaultVisibility(m)) tags.push(`visible to ${m.visible_to.join(", ") || "nobody"}`);
  const head = `[${m.sandbox_message_index}] ${m.sender} → ${m.recipient}${tags.length > 0 ? `  (${tags.join("; ")})` : ""}`;
  const lines = [head];
  if (m.tool_call) {
    const call = m.tool_call;
    const args = call.arguments !== undefined ? JSON.stringify(call.arguments) : `raw ${JSON.stringify(call.raw_arguments ?? "")}`;
    lines.push(`${INDENT}call ${call.name} ${args}  (id ${call.id})${patterns === null ? "" : `  [ToolScan: ${patterns}]`}`);
  } else {
    if (m.content !== m.tool_call_exception) lines.push(...indent(m.content));
    // A request without a structured call (ToolScan's IFE) has no call line to carry the tag.
    if (patterns !== null) lines.push(`${INDENT}[ToolScan: ${patterns}]`);
  }
  if (m.tool_call_exception !== null) {
    lines.push(`${INDENT}! ${m.tool_call_exception}`);
  }
  return lines;
}

function indent(text: string): string[] {
  return (text === "" ? "(empty)" : text).split("\n").map((l) => `${INDENT}${l}`.trimEnd());
}

function isDefaultVisibility(m: Message): boolean {
  const v = m.visible_to;
  return v.length === 2 && v.includes(m.sender) && v.includes(m.recipient);
}
