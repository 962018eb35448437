// Explanations as one line of text: why a constraint or a node scored below 1, for the console
// (`eval`, `replay`) and for diagnostics (`validate`'s reference check). The structured
// explanation stays in the result; this only picks its most telling part.
import type { ConstraintResult, NodeResult } from "./result.js";

/** Scores print with two decimals; a missing one (the scenario could not be scored) as "-". */
export const formatScore = (score: number | null): string => (score === null ? "-" : score.toFixed(2));

/** "SANDBOX snapshot 0.00: sender: found "user", expected "agent"", or null when it scored 1. */
function constraintHighlight(c: ConstraintResult): string | null {
  if (c.similarity >= 1) return null;
  const against = c.reference === null ? "" : ` vs ${c.reference.id}@${c.reference.index}`;
  const head = `${c.table} ${c.kind}${against} ${formatScore(c.similarity)}`;
  const { reason, weakest, pairs } = c.explanation;
  // The column that pulled the score down says more than a general reason ("every pairing of the
  // rows has a column scoring 0"); rules that decide without pairing rows only have the reason.
  if (weakest !== null) {
    const pair = pairs.find((p) => p.target === weakest.target && p.row === weakest.row);
    const note = pair?.columns.find((col) => col.column === weakest.column)?.note;
    return `${head}: ${weakest.column}${note === undefined ? ` ${formatScore(weakest.similarity)}` : `: ${note}`}`;
  }
  return reason === null ? head : `${head}: ${reason}`;
}

/** Why a node scored what it did, in one line; empty for a full match. */
export function nodeWhy(node: NodeResult, kind: "milestone" | "minefield"): string {
  const reasons = [...node.constraints, ...node.guardrails].map(constraintHighlight).filter((r): r is string => r !== null);
  if (node.matched_at !== null) return reasons.join("; ");
  // A minefield that was not stepped on needs no story (the closest miss is in the result).
  if (kind === "minefield") return "not hit";
  if (node.explained_at === null) return "no message to match";
  return `no match; closest at ${node.explained_at}: ${reasons.join("; ")}`;
}
