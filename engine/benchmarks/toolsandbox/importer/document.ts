// Writes an imported scenario as YAML through the `yaml` library's document API, so every text
// comes out correctly quoted. Short maps and lists are in flow style, long texts in literal
// blocks; the key order is the one the converter builds, so the same input gives the same bytes.
import { Document, Scalar, visit, type Node } from "yaml";
import type { JsonValue } from "../../../base/json.js";

const FLOW_LIMIT = 100;
/** Texts that stay plain inside `{...}` for every YAML reader (PyYAML ends plain scalars at `:`, `,`, `?`). */
const FLOW_SAFE = /^[\p{L}\p{N} _@.'/+-]*$/u;

function flowSafe(value: JsonValue): boolean {
  if (typeof value === "string") return FLOW_SAFE.test(value);
  if (value === null || typeof value !== "object") return true;
  return (Array.isArray(value) ? value : Object.values(value)).every(flowSafe);
}

function compact(doc: Document, value: JsonValue, depth: number): Node | JsonValue {
  if (value === null || typeof value !== "object") return value;
  const json = JSON.stringify(value, (_k, v: unknown) => (v === Number.POSITIVE_INFINITY ? 1e308 : v));
  if (depth > 1 && json.length <= FLOW_LIMIT && flowSafe(value)) return doc.createNode(value, { flow: true }) as Node;
  if (Array.isArray(value)) return doc.createNode(value.map((item) => compact(doc, item, depth + 1))) as Node;
  return doc.createNode(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(doc, v, depth + 1)]))) as Node;
}

export function scenarioYaml(content: Readonly<Record<string, JsonValue>>, header: readonly string[]): string {
  const doc = new Document(undefined, { version: "1.1" });
  const root = compact(doc, content as JsonValue, 0) as Node;
  root.commentBefore = header.map((line) => ` ${line}`).join("\n");
  doc.contents = root;
  visit(doc, {
    Scalar(_key, scalar) {
      if (typeof scalar.value === "string" && scalar.value.includes("\n")) scalar.type = Scalar.BLOCK_LITERAL;
    },
  });
  return doc.toString({ lineWidth: 100, flowCollectionPadding: false });
}
