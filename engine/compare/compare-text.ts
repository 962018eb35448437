// The comparison as text for `toolsandbox compare`: both runs in one line each, the first
// divergence, the rows from there on side by side (A, then B under it), the world changes of
// each, and the milestone and minefield outcomes.
import { formatScore } from "../evaluation/highlights.js";
import type { CompareCell, CompareSide, Comparison } from "./compare-runs.js";

const sideLine = (name: string, s: CompareSide): string => {
  const cost =
    s.telemetry.calls === 0
      ? ""
      : `, ${s.telemetry.calls} model calls, ${s.telemetry.total_tokens} tokens, ${(s.telemetry.latency_ms / 1000).toFixed(1)} s`;
  return `${name}  ${s.label}: agent ${s.agent}, user ${s.user}, score ${formatScore(s.score)}, ended ${s.end ?? "(no end)"}, ${s.messages} messages${cost}`;
};

const cellLines = (tag: string, c: CompareCell | null): string[] =>
  c === null ? [`  ${tag}  (no message)`] : [`  ${tag}  ${c.route}: ${c.text}`, ...c.world.map((w) => `       world ${w}`)];

export function comparisonLines(c: Comparison): string[] {
  const out = [`scenario  ${c.scenario}`, sideLine("A", c.a), sideLine("B", c.b), ""];
  if (c.firstDivergence === null) out.push(c.sameMessagesNote ?? "The runs are the same message for message.");
  else {
    const row = c.rows[c.firstDivergence];
    out.push(`First divergence at message ${c.firstDivergence}${row ? ` (turn ${row.turn})` : ""}:`);
    for (const r of c.rows.slice(c.firstDivergence)) {
      out.push(`#${r.index} turn ${r.turn}${r.same ? " (same)" : ""}`);
      if (r.same) out.push(...cellLines("=", r.a));
      else out.push(...cellLines("A", r.a), ...cellLines("B", r.b));
    }
  }
  if (c.nodes.length > 0) {
    out.push("", "NODE                              A                              B");
    for (const n of c.nodes) out.push(`${`${n.kind} ${n.id}`.padEnd(34)}${n.a.padEnd(31)}${n.b}${n.same ? "" : "   ≠"}`);
  }
  return out;
}
