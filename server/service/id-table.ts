// Every milestone and minefield id written in a scenario: where each is defined, and every place
// that refers to one (`after:` entries, constraint `reference:` values). Navigation, rename and
// hover all read this table; it is built from the parsed tree, so ranges are exact.
import { isMap, isScalar, isSeq, Scalar, type Node, type YAMLMap } from "yaml";
import type { YamlSource } from "../../engine/scenario/yaml-source.js";

export type IdSection = "milestones" | "minefields";
const ID_SECTIONS: readonly IdSection[] = ["milestones", "minefields"];
/** The reserved reference name for the world before the conversation. */
export const INITIAL_ID = "initial";

/** One occurrence of a milestone or minefield id: its definition, an `after:` entry or a `reference:`. */
export interface IdOccurrence {
  readonly section: IdSection;
  readonly id: string;
  readonly role: "definition" | "after" | "reference";
  /** Index of the node (in its section) the occurrence is written in. */
  readonly node: number;
  /** Offsets of the id text itself (inside the quotes when quoted). */
  readonly start: number;
  readonly end: number;
}

/** A node of a section as written: its id (null when missing) and what it points at. */
export interface WrittenNode {
  readonly index: number;
  readonly id: string | null;
  /** Null when the node has no `after:` key. */
  readonly after: readonly string[] | null;
  readonly references: readonly string[];
  readonly description: string | null;
}

export interface IdTable {
  readonly occurrences: readonly IdOccurrence[];
  readonly nodes: Readonly<Record<IdSection, readonly WrittenNode[]>>;
}

export function buildIdTable(source: YamlSource): IdTable {
  const occurrences: IdOccurrence[] = [];
  const nodes: Record<IdSection, WrittenNode[]> = { milestones: [], minefields: [] };
  for (const section of ID_SECTIONS) {
    const list = source.locate([section]);
    if (!list.complete || !isSeq(list.node)) continue;
    list.node.items.forEach((item, index) => {
      if (!isMap(item)) return;
      const idNode = valueNode(item, "id");
      const id = idText(idNode);
      if (id !== null && idNode) occurrences.push(occurrence(section, id, "definition", index, idNode));
      const afterNode = valueNode(item, "after");
      const after: string[] = [];
      if (isSeq(afterNode)) {
        for (const entry of afterNode.items) {
          const parent = idText(entry);
          if (parent === null || !isScalar(entry)) continue;
          after.push(parent);
          occurrences.push(occurrence(section, parent, "after", index, entry));
        }
      }
      const references: string[] = [];
      const constraints = valueNode(item, "constraints");
      if (isSeq(constraints)) {
        for (const constraint of constraints.items) {
          if (!isMap(constraint)) continue;
          const refNode = valueNode(constraint, "reference");
          const ref = idText(refNode);
          if (ref === null || ref === INITIAL_ID || !refNode) continue;
          references.push(ref);
          occurrences.push(occurrence(section, ref, "reference", index, refNode));
        }
      }
      const description = valueNode(item, "description");
      nodes[section].push({
        index,
        id,
        after: afterNode === undefined ? null : after,
        references,
        description: isScalar(description) && typeof description.value === "string" ? description.value : null,
      });
    });
  }
  occurrences.sort((a, b) => a.start - b.start);
  return { occurrences, nodes };
}

/** The value node of `key` in a mapping; undefined when the key is absent, null when it has no value. */
function valueNode(map: YAMLMap, key: string): Node | null | undefined {
  const pair = map.items.find((p) => isScalar(p.key) && p.key.value === key);
  if (pair === undefined) return undefined;
  const value: unknown = pair.value;
  return isNode(value) ? value : null;
}

function isNode(v: unknown): v is Node {
  return isScalar(v) || isMap(v) || isSeq(v);
}

function idText(node: unknown): string | null {
  return isScalar(node) && typeof node.value === "string" && node.value.length > 0 ? node.value : null;
}

function occurrence(section: IdSection, id: string, role: IdOccurrence["role"], node: number, scalar: Node): IdOccurrence {
  const [from, to] = scalar.range ?? [0, 0];
  const quoted = isScalar(scalar) && (scalar.type === Scalar.QUOTE_DOUBLE || scalar.type === Scalar.QUOTE_SINGLE);
  // A plain id is written as is; a quoted one is its text between the quotes (no escapes in ids).
  const start = quoted ? from + 1 : from;
  return { section, id, role, node, start, end: quoted ? Math.max(start, to - 1) : start + id.length };
}

/** The occurrence under an offset (the cursor touching either end of the id counts). */
export function occurrenceAt(table: IdTable, offset: number): IdOccurrence | null {
  return table.occurrences.find((o) => offset >= o.start && offset <= o.end) ?? null;
}

/** Effective parents per id: written `after:` edges, or the chain in written order when no node has `after`. */
export function effectiveParents(nodes: readonly WrittenNode[]): Map<string, string[]> {
  const known = new Set(nodes.map((n) => n.id).filter((id): id is string => id !== null));
  const explicit = nodes.some((n) => n.after !== null);
  const parents = new Map<string, string[]>();
  // Chain mode follows the engine: each node comes after the node written just before it.
  let previous: WrittenNode | null = null;
  for (const node of nodes) {
    const before: WrittenNode | null = previous;
    previous = node;
    if (node.id === null || parents.has(node.id)) continue;
    if (explicit)
      parents.set(
        node.id,
        (node.after ?? []).filter((p) => known.has(p)),
      );
    else parents.set(node.id, before?.id && before.index === node.index - 1 ? [before.id] : []);
  }
  return parents;
}

/** Every ancestor of `id` under these parent edges. */
export function ancestorsOf(parents: ReadonlyMap<string, readonly string[]>, id: string): Set<string> {
  const found = new Set<string>();
  const stack = [...(parents.get(id) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === undefined || found.has(next)) continue;
    found.add(next);
    stack.push(...(parents.get(next) ?? []));
  }
  found.delete(id);
  return found;
}
