// Hover text for a milestone or minefield id: its place in the effective DAG (what it comes after,
// what comes after it, which nodes compare with its state) and, when a run of this scenario is
// known, whether it matched there and, if not, what came closest.
import type { ConstraintResult, EvaluationResult, NodeResult } from "../../engine/evaluation/result.js";
import { nodeStateWords } from "../../engine/evaluation/node-state.js";
import { effectiveParents, type IdSection, type WrittenNode } from "./id-table.js";

export function milestoneMarkdown(
  nodes: readonly WrittenNode[],
  section: IdSection,
  id: string,
  lastRun: EvaluationResult | null,
): string | null {
  const node = nodes.find((n) => n.id === id);
  if (!node) return null;
  const noun = section === "milestones" ? "milestone" : "minefield";
  const parents = effectiveParents(nodes);
  const explicit = nodes.some((n) => n.after !== null);
  const after = parents.get(id) ?? [];
  const before = [...parents.entries()].filter(([, ps]) => ps.includes(id)).map(([child]) => child);
  const comparedBy = nodes.filter((n) => n.id !== null && n.references.includes(id)).map((n) => n.id as string);
  const lines = [`**${noun}** \`${id}\`${node.description ? ` — ${node.description}` : ""}`];
  const facts: string[] = [];
  if (after.length > 0) facts.push(`- after ${names(after)}${explicit ? "" : " (list order: no node has `after`)"}`);
  else facts.push(`- a root: ${explicit ? "it comes after nothing" : "the first of the chain"}`);
  facts.push(before.length > 0 ? `- before ${names(before)}` : `- nothing comes after it`);
  if (node.references.length > 0) facts.push(`- compares with the state at ${names(node.references)}`);
  if (comparedBy.length > 0)
    facts.push(`- ${names(comparedBy)} ${comparedBy.length === 1 ? "compares" : "compare"} with the state at its match`);
  lines.push(facts.join("\n"));
  const result = lastRun ? (section === "milestones" ? lastRun.milestones : lastRun.minefields).find((r) => r.id === id) : undefined;
  if (result) lines.push(runMarkdown(result, section));
  return lines.join("\n\n");
}

function names(ids: readonly string[]): string {
  return ids.map((i) => `\`${i}\``).join(", ");
}

function runMarkdown(result: NodeResult, section: IdSection): string {
  // The words of the editor's CodeLens and Testing view (engine/evaluation/node-state.ts).
  const words = nodeStateWords(section === "milestones" ? "milestone" : "minefield", result);
  if (result.matched_at !== null) {
    const consequence = section === "minefields" ? " — this minefield fired, so the run scores 0" : "";
    return `**Last run:** ${words.phrase}${consequence}.`;
  }
  const where = result.explained_at === null ? "no message to compare with" : `closest at message ${result.explained_at}`;
  const head =
    section === "minefields"
      ? `**Last run:** not hit (${where}).`
      : `**Last run:** missed (best similarity ${result.similarity.toFixed(2)}; ${where}).`;
  const misses = [
    ...result.constraints.map((c, i) => missLine(`constraint ${i + 1}`, c)),
    ...result.guardrails.map((g) => missLine("guardrail", g)),
  ].filter((l): l is string => l !== null);
  return section === "minefields" || misses.length === 0 ? head : [head, ...misses].join("\n");
}

function missLine(label: string, c: ConstraintResult): string | null {
  if (c.similarity >= 1) return null;
  const e = c.explanation;
  const weakest = e.weakest;
  const note = weakest
    ? e.pairs.find((p) => p.target === weakest.target && p.row === weakest.row)?.columns.find((col) => col.column === weakest.column)?.note
    : undefined;
  const why = e.reason ?? (weakest ? `\`${weakest.column}\` scored ${weakest.similarity.toFixed(2)}${note ? `: ${note}` : ""}` : null);
  return `- ${label} (${c.kind} on ${c.table}): ${c.similarity.toFixed(2)}${why ? ` — ${why}` : ""}`;
}
