// The automatic guardrails (reference 5.7): between a node and the states it is related to (its
// DAG predecessors and the states its constraints reference), every watched world table that
// none of them is about must not change. Each becomes a `guardrail` constraint comparing the
// table at the node's message with the table at the related state (order-sensitive equality).
//
// For node i, with P = its effective `after` list and R = the references of its constraints:
//   watched = (guardrails.tables ?? every world table) - guardrails.exclude - SANDBOX
//   remove every table constrained (by a written constraint) by i, by each node of P and by each
//   milestone in R
//   add one guardrail per (related state in P ∪ R) × (remaining table).
//
// Deliberate change: upstream writes the initial state as reference −1, which indexes its Python
// list in the discard step, so the LAST milestone's tables were also removed whenever a node
// referenced the initial state. Here the initial state is the named reference "initial", which
// is no milestone and constrains nothing: a node referencing it watches those tables too.
import type { ConstraintReference, Milestone, TableName } from "../scenario/model.js";
import type { GuardrailConstraint } from "./measures/types.js";

export const SANDBOX_TABLE = "SANDBOX";

const INITIAL: ConstraintReference = { kind: "initial" };

const referenceKey = (r: ConstraintReference): string => (r.kind === "initial" ? "initial" : `milestone:${r.id}`);

/**
 * The states node `node` is related to, without duplicates: its predecessors in `after` order,
 * then the references of its constraints in the order they are first used.
 */
function relatedStates(node: Milestone): ConstraintReference[] {
  const seen = new Set<string>();
  const out: ConstraintReference[] = [];
  const add = (r: ConstraintReference): void => {
    const key = referenceKey(r);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(r);
  };
  for (const id of node.after) add({ kind: "milestone", id });
  for (const c of node.constraints) if (c.reference !== null) add(c.reference.kind === "initial" ? INITIAL : c.reference);
  return out;
}

/** Tables a node constrains with its written constraints. */
function constrainedTables(node: Milestone): Set<TableName> {
  return new Set(node.constraints.map((c) => c.table));
}

/**
 * Every node's guardrails, by list index. `worldTables` are the world's table names in the order
 * guardrails are listed when a node watches all of them. An `after` or reference id that is not
 * in `nodes` constrains nothing here; the evaluation rejects such a scenario before matching.
 */
export function automaticGuardrails(nodes: readonly Milestone[], worldTables: readonly TableName[]): GuardrailConstraint[][] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return nodes.map((node) => {
    const related = relatedStates(node);
    const excluded = new Set<TableName>([SANDBOX_TABLE, ...node.guardrails.exclude, ...constrainedTables(node)]);
    for (const r of related) {
      if (r.kind !== "milestone") continue;
      const other = byId.get(r.id);
      if (other) for (const table of constrainedTables(other)) excluded.add(table);
    }
    const watched = [...new Set(node.guardrails.tables ?? worldTables)].filter((t) => !excluded.has(t));
    return related.flatMap((reference) => watched.map((table): GuardrailConstraint => ({ kind: "guardrail", table, reference })));
  });
}
