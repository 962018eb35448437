// The `milestones:` and `minefields:` sections resolved into nodes with effective `after` edges.
import type { Constraint, Milestone } from "./model.js";
import { resolveConstraint } from "./constraints.js";
import { buildGraph, type Section } from "./milestone-graph.js";
import { list, obj, str, strings } from "./raw.js";
import type { ToolContext } from "./tool-calls.js";

export function resolveNodes(ctx: ToolContext, section: Section, raw: unknown): Milestone[] {
  const graph = buildGraph(ctx, section, raw);
  const nodes: Milestone[] = [];
  list(raw).forEach((item, i) => {
    const node = obj(item);
    const id = graph.ids[i] ?? null;
    const constraints = list(node?.constraints)
      .map((c, j) => resolveConstraint(ctx, [section, i, "constraints", j], c, graph, id))
      .filter((c): c is Constraint => c !== null);
    if (id === null) return;
    const guardrails = obj(node?.guardrails);
    nodes.push({
      id,
      description: str(node?.description),
      after: graph.parents.get(id) ?? [],
      constraints,
      guardrails: {
        tables: Array.isArray(guardrails?.tables) ? strings(guardrails.tables) : null,
        exclude: strings(guardrails?.exclude),
      },
    });
  });
  return nodes;
}
