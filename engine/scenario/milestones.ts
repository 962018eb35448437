// The `milestones:` and `minefields:` sections resolved into nodes with effective `after` edges
// and their guardrail table lists (names of the pack's world tables).
import type { Constraint, Milestone } from "./model.js";
import { resolveConstraint } from "./constraints.js";
import { buildGraph, type Section } from "./milestone-graph.js";
import { lookupTable } from "./pack-tables.js";
import { list, obj, str, strings } from "./raw.js";
import type { ToolContext } from "./tool-calls.js";
import type { Path } from "./yaml-source.js";

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
    const tables = (key: "tables" | "exclude"): string[] => checkedTables(ctx, [section, i, "guardrails", key], guardrails?.[key]);
    nodes.push({
      id,
      description: str(node?.description),
      after: graph.parents.get(id) ?? [],
      constraints,
      guardrails: {
        tables: Array.isArray(guardrails?.tables) ? tables("tables") : null,
        exclude: tables("exclude"),
      },
    });
  });
  return nodes;
}

/** A guardrail table list: every name a world table of the pack (unknown ones are reported, and kept: they watch nothing). */
function checkedTables(ctx: ToolContext, path: Path, raw: unknown): string[] {
  list(raw).forEach((name, k) => {
    if (typeof name === "string") lookupTable(ctx, [...path, k], name, { sandbox: false });
  });
  return strings(raw);
}
