// The scalar under an offset in the parsed tree, with its path and whether it is a key or a value.
// Hover reads complete text, so the tree (with exact ranges) is the right source here.
import { isAlias, isMap, isScalar, isSeq, type Node } from "yaml";
import type { PathSegment, YamlSource } from "../../engine/scenario/yaml-source.js";

export interface ScalarAt {
  /** For a key: the path of its value (the mapping's path plus the key). For a value: its path. */
  readonly path: readonly PathSegment[];
  readonly on: "key" | "value";
  readonly value: unknown;
  readonly start: number;
  readonly end: number;
}

const MAX_DEPTH = 64;

export function scalarAt(source: YamlSource, offset: number): ScalarAt | null {
  let node: unknown = source.doc.contents;
  const path: PathSegment[] = [];
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (isMap(node)) {
      let next: unknown;
      for (const pair of node.items) {
        const key = pair.key;
        if (isScalar(key) && contains(key, offset)) {
          const [start, end] = key.range ?? [0, 0];
          return { path: [...path, String(key.value)], on: "key", value: key.value, start, end: trimEnd(source.text, start, end) };
        }
        if (isScalar(key) && isNodeLike(pair.value) && contains(pair.value, offset)) {
          path.push(String(key.value));
          next = pair.value;
          break;
        }
      }
      if (next === undefined) return null;
      node = next;
    } else if (isSeq(node)) {
      const index = node.items.findIndex((item) => isNodeLike(item) && contains(item, offset));
      if (index < 0) return null;
      path.push(index);
      node = node.items[index];
    } else if (isScalar(node)) {
      const [start, end] = node.range ?? [0, 0];
      return { path, on: "value", value: node.value, start, end: trimEnd(source.text, start, end) };
    } else {
      return null;
    }
  }
  return null;
}

function isNodeLike(v: unknown): v is Node {
  return (isMap(v) || isSeq(v) || isScalar(v) || isAlias(v)) && Array.isArray((v as Node).range);
}

function contains(node: Node, offset: number): boolean {
  const range = node.range;
  if (!range) return false;
  // The cursor right after the last character still counts (hovering the end of a word).
  return offset >= range[0] && offset <= range[1] && range[1] > range[0];
}

/** A scalar's range may run over trailing blanks or a line break; stop at the text. */
function trimEnd(text: string, start: number, end: number): number {
  let stop = Math.min(end, text.length);
  while (stop > start && /\s/.test(text[stop - 1] ?? "")) stop--;
  return stop;
}
