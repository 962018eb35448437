// Where each milestone and minefield is written in a scenario's text: the line of its `id:`. Read
// from the YAML tree, not from the resolved scenario, so results stay on their lines while the
// author is typing (a file with semantic errors still parses) and a node without a valid id is
// simply skipped.
import { isMap, isScalar, isSeq } from "yaml";
import type { NodeKind } from "../../engine/panel/protocol.js";
import { YamlSource } from "../../engine/scenario/yaml-source.js";

export interface NodeLocation {
  readonly kind: NodeKind;
  readonly id: string;
  /** 0-based line of the id's value. */
  readonly line: number;
}

export interface ScenarioOutline {
  /** The `name:` value; null when missing or not a string. */
  readonly name: string | null;
  /** Every node with a string id, in file order, milestones first. */
  readonly nodes: readonly NodeLocation[];
}

const SECTIONS: readonly { readonly key: string; readonly kind: NodeKind }[] = [
  { key: "milestones", kind: "milestone" },
  { key: "minefields", kind: "minefield" },
];

/** The scenario's name and node lines; empty when the YAML does not parse. */
export function readOutline(text: string): ScenarioOutline {
  const source = new YamlSource(text, "scenario");
  if (source.syntaxDiagnostics.length > 0) return { name: null, nodes: [] };
  const nameNode = source.locate(["name"]);
  const name = nameNode.complete && isScalar(nameNode.node) && typeof nameNode.node.value === "string" ? nameNode.node.value : null;
  const nodes: NodeLocation[] = [];
  for (const { key, kind } of SECTIONS) {
    const section = source.locate([key]);
    if (!section.complete || !isSeq(section.node)) continue;
    for (const item of section.node.items) {
      if (!isMap(item)) continue;
      const idNode = item.get("id", true);
      if (!isScalar(idNode) || typeof idNode.value !== "string" || !idNode.range) continue;
      nodes.push({ kind, id: idNode.value, line: source.position(idNode.range[0]).line });
    }
  }
  return { name, nodes };
}

/** The line of one node, or null when the text has no node of that kind and id. */
export function lineOfNode(text: string, kind: NodeKind, id: string): number | null {
  return readOutline(text).nodes.find((n) => n.kind === kind && n.id === id)?.line ?? null;
}
