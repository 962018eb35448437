// The DAG of a milestone (or minefield) list: ids, `after:` edges, and the checks upstream never
// made (a node left out of every edge silently scored 0; a cycle or a reference to a node that is
// not an ancestor gave meaningless scores).
//
// Edges: `after: [a]` on node b means a -> b (b is matched at an index >= a's). When no node in
// the list has `after`, the list is a chain in order. Milestones and minefields are separate
// graphs with separate ids.
import type { CheckContext } from "./check-context.js";
import { has, list, obj, str } from "./raw.js";
import { closestMatch, didYouMean } from "./suggest.js";

export type Section = "milestones" | "minefields";

export const INITIAL = "initial";

export interface MilestoneGraph {
  readonly section: Section;
  /** Ids by list index (null where the id is missing or unusable). */
  readonly ids: readonly (string | null)[];
  /** Effective parents of each id, in the order written (chain: the previous node). */
  readonly parents: ReadonlyMap<string, readonly string[]>;
  isAncestor(ancestor: string, node: string): boolean;
}

export function buildGraph(ctx: CheckContext, section: Section, raw: unknown): MilestoneGraph {
  const nodes = list(raw).map(obj);
  const noun = section === "milestones" ? "milestone" : "minefield";
  const ids = collectIds(ctx, section, noun, nodes);
  const known = new Set(ids.filter((id): id is string => id !== null));
  const explicit = nodes.some((n) => has(n, "after"));
  const parents = new Map<string, string[]>();
  // What each unknown `after` entry most likely meant (null: no guess), so the node it meant is
  // not also reported as unconnected: one mistake, one diagnostic.
  const meant: (string | null)[] = [];
  nodes.forEach((node, i) => {
    const id = ids[i];
    if (id === null || id === undefined || parents.has(id)) return;
    if (!explicit) {
      const previous = ids[i - 1];
      parents.set(id, i > 0 && previous ? [previous] : []);
      return;
    }
    const after: string[] = [];
    list(node?.after).forEach((parent, j) => {
      if (typeof parent !== "string") return;
      if (known.has(parent)) after.push(parent);
      else {
        const suggestion = closestMatch(parent, known);
        meant.push(suggestion);
        ctx.reporter.report([section, i, "after", j], "unknown-milestone", `No ${noun} has the id "${parent}".${didYouMean(suggestion)}`, {
          data: suggestion === null ? undefined : { suggestion },
        });
      }
    });
    parents.set(id, after);
  });
  const graph = makeGraph(section, ids, parents);
  if (explicit && !meant.includes(null)) reportUnconnected(ctx, section, noun, nodes, ids, parents, new Set(meant as string[]));
  reportCycles(ctx, section, nodes, ids, parents);
  return graph;
}

function collectIds(ctx: CheckContext, section: Section, noun: string, nodes: readonly ReturnType<typeof obj>[]): (string | null)[] {
  const seen = new Map<string, number>();
  return nodes.map((node, i) => {
    const id = str(node?.id);
    if (id === null) return null;
    if (id === INITIAL) {
      ctx.reporter.report(
        [section, i, "id"],
        "reserved-milestone-id",
        `"${INITIAL}" is reserved: it names the world before the conversation. Choose another id.`,
      );
      return null;
    }
    const first = seen.get(id);
    if (first !== undefined) {
      ctx.reporter.report(
        [section, i, "id"],
        "duplicate-milestone-id",
        `Another ${noun} (number ${first + 1}) already has the id "${id}".`,
      );
      return null;
    }
    seen.set(id, i);
    return id;
  });
}

/**
 * In explicit-edge mode, a node with no `after` that nothing comes after is outside the DAG. A
 * node an unknown `after` entry most likely meant counts as followed; when an unknown entry has no
 * likely meaning, connectivity is not judged until it is fixed.
 */
function reportUnconnected(
  ctx: CheckContext,
  section: Section,
  noun: string,
  nodes: readonly ReturnType<typeof obj>[],
  ids: readonly (string | null)[],
  parents: ReadonlyMap<string, readonly string[]>,
  meant: ReadonlySet<string>,
): void {
  if (nodes.length < 2) return;
  const followed = new Set([...parents.values()].flat());
  for (const id of meant) followed.add(id);
  nodes.forEach((node, i) => {
    const id = ids[i];
    if (!id || has(node, "after") || followed.has(id)) return;
    const previous = ids
      .slice(0, i)
      .reverse()
      .find((p): p is string => p !== null);
    const insert = previous === undefined ? "after: []" : `after: [${previous}]`;
    const fix = previous === undefined ? "Add `after: []` if it stands alone" : `Add \`${insert}\`, or \`after: []\` if it stands alone`;
    ctx.reporter.report(
      [section, i, "id"],
      "milestone-unconnected",
      `The ${noun} "${id}" is not connected (no \`after\`, and nothing comes after it). ${fix}.`,
      { data: { insert } },
    );
  });
}

/** Every `after` entry on a cycle, reported with the cycle it closes. */
function reportCycles(
  ctx: CheckContext,
  section: Section,
  nodes: readonly ReturnType<typeof obj>[],
  ids: readonly (string | null)[],
  parents: ReadonlyMap<string, readonly string[]>,
): void {
  const children = new Map<string, string[]>();
  for (const [child, ps] of parents) for (const p of ps) children.set(p, [...(children.get(p) ?? []), child]);
  nodes.forEach((node, i) => {
    const child = ids[i];
    if (!child) return;
    list(node?.after).forEach((parent, j) => {
      if (typeof parent !== "string" || !parents.get(child)?.includes(parent)) return;
      // parent -> child closes a cycle when child reaches parent again.
      const back = shortestPath(children, child, parent);
      if (back === null) return;
      const cycle = [parent, ...back].join(" → ");
      ctx.reporter.report([section, i, "after", j], "dag-cycle", `This edge closes a cycle: ${cycle}.`);
    });
  });
}

function shortestPath(children: ReadonlyMap<string, readonly string[]>, from: string, to: string): string[] | null {
  const previous = new Map<string, string | null>([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const at = queue.shift()!;
    if (at === to) {
      const path: string[] = [];
      for (let n: string | null = at; n !== null; n = previous.get(n) ?? null) path.unshift(n);
      return path;
    }
    for (const next of children.get(at) ?? []) {
      if (!previous.has(next)) {
        previous.set(next, at);
        queue.push(next);
      }
    }
  }
  return null;
}

function makeGraph(section: Section, ids: readonly (string | null)[], parents: ReadonlyMap<string, readonly string[]>): MilestoneGraph {
  const ancestors = new Map<string, ReadonlySet<string>>();
  const ancestorsOf = (node: string): ReadonlySet<string> => {
    const cached = ancestors.get(node);
    if (cached) return cached;
    const found = new Set<string>();
    const stack = [...(parents.get(node) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (found.has(next)) continue;
      found.add(next);
      stack.push(...(parents.get(next) ?? []));
    }
    ancestors.set(node, found);
    return found;
  };
  return { section, ids, parents, isAncestor: (a, node) => a !== node && ancestorsOf(node).has(a) };
}
