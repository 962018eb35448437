// Hover text for a milestone or minefield id: its place in the effective DAG (what it comes after,
// what comes after it, which nodes compare with its state) and, when a run of this scenario is
// known (the run the editor shows, else the newest saved one), whether it matched there and, if not, what came closest.
import type { ConstraintResult, EvaluationResult, NodeResult } from "../../engine/evaluation/result.js";
import { nodeStateWords } from "../../engine/evaluation/node-state.js";
import { effectiveParents, type IdSection, type WrittenNode } from "./id-table.js";

/** The run a hover speaks of: its results (null while it is still going) and how to name it. */
export interface HoverRun {
  /** "Last run" (the newest saved one), "Shown run" (the one the editor shows), or that re-scored. */
  readonly label: string;
  readonly result: EvaluationResult | null;
  /** Said in place of a result when there is none: "still going; no results yet", "errored (…); no score". */
  readonly noResult?: string;
}

export function milestoneMarkdown(nodes: readonly WrittenNode[], section: IdSection, id: string, run: HoverRun | null): string | null {
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
  if (run !== null && run.result === null) lines.push(`**${run.label}:** ${run.noResult ?? "no results"}.`);
  const result = run?.result
    ? (section === "milestones" ? run.result.milestones : run.result.minefields).find((r) => r.id === id)
    : undefined;
  if (run && result) lines.push(runMarkdown(result, section, run.label));
  return lines.join("\n\n");
}

function names(ids: readonly string[]): string {
  return ids.map((i) => `\`${i}\``).join(", ");
}

function runMarkdown(result: NodeResult, section: IdSection, label: string): string {
  // The words of the editor's CodeLens and Testing view (engine/evaluation/node-state.ts).
  const words = nodeStateWords(section === "milestones" ? "milestone" : "minefield", result);
  if (result.matched_at !== null) {
    const consequence = section === "minefields" ? " — this minefield fired, so the run scores 0" : "";
    return `**${label}:** ${words.phrase}${consequence}.`;
  }
  const where = result.explained_at === null ? "no message to compare with" : `closest at message ${result.explained_at}`;
  const head =
    section === "minefields"
      ? `**${label}:** not hit (${where}).`
      : `**${label}:** missed (best similarity ${result.similarity.toFixed(2)}; ${where}).`;
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
