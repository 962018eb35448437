// Small helpers completion shares: what is already written next to the cursor, how a value is
// written as YAML, and the item-building interface.
import { isMap, isScalar, isSeq } from "yaml";
import type { CompletionItem, CompletionItemKind } from "vscode-languageserver";
import type { PathSegment } from "../../engine/scenario/yaml-source.js";
import type { CursorContext, ScenarioDocument } from "./document.js";
import type { IdSection } from "./id-table.js";
import { pathKey } from "./line-structure.js";
import type { TagReader } from "./schema-nav.js";
import type { Snippet } from "./snippets.js";
import { writtenScalar } from "./slots.js";

export interface InsertText {
  readonly text: string;
  readonly snippet?: boolean;
  readonly filterText?: string;
}

export interface ItemFactory {
  readonly ctx: CursorContext;
  /** The word is followed by `:` on its line (a key is being renamed): insert the name only. */
  readonly followedByColon: boolean;
  /** The word is inside quotes the author opened: insert the text without quoting it again. */
  readonly inQuotes: boolean;
  item(label: string, kind: CompletionItemKind, insert: InsertText, extra?: Partial<CompletionItem>): CompletionItem;
  snippet(s: Snippet, indent: number, dash: string, sort: string): CompletionItem;
}

export function isSection(s: PathSegment | undefined): s is IdSection {
  return s === "milestones" || s === "minefields";
}

export function readTag(doc: ScenarioDocument): TagReader {
  return (path, tag) => writtenScalar(doc, [...path, tag]);
}

/** Keys already written in the mapping at `path`, leaving out the word being typed. */
export function existingKeys(doc: ScenarioDocument, path: readonly PathSegment[], ctx: CursorContext): Set<string> {
  const keys = new Set<string>();
  for (const occurrence of doc.lines.keysByPath.get(pathKey(path)) ?? []) {
    if (occurrence.line !== ctx.line) keys.add(occurrence.name);
  }
  try {
    const found = doc.source.locate(path);
    if (found.complete && isMap(found.node)) {
      for (const pair of found.node.items) {
        if (!isScalar(pair.key)) continue;
        const [start, end] = pair.key.range ?? [0, 0];
        if (end >= ctx.tokenStart && start <= ctx.tokenEnd) continue;
        keys.add(String(pair.key.value));
      }
    }
  } catch {
    // only the text-based keys then
  }
  return keys;
}

/** Scalars already listed in the sequence that holds `itemPath`, except the item itself. */
export function existingListValues(doc: ScenarioDocument, itemPath: readonly PathSegment[]): Set<string> {
  const values = new Set<string>();
  const index = itemPath[itemPath.length - 1];
  if (typeof index !== "number") return values;
  try {
    const found = doc.source.locate(itemPath.slice(0, -1));
    if (found.complete && isSeq(found.node)) {
      found.node.items.forEach((item, i) => {
        if (i !== index && isScalar(item) && item.value !== null) values.add(String(item.value));
      });
    }
  } catch {
    // nothing excluded then
  }
  return values;
}

const PLAIN_UNSAFE = /^[\s\-?:,[\]{}#&*!|>'"%@`]|: | #|^(true|false|yes|no|on|off|null|~)$/i;
const NUMBER_LIKE = /^[-+]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?$|^0x[0-9a-f]+$|^0o[0-7]+$|^[-+]?\.(inf|nan)$/i;

/** A value as it is written in YAML: text that would read as a number, boolean or null is quoted. */
export function yamlScalar(value: string | number | boolean, inQuotes: boolean): string {
  if (typeof value !== "string") return String(value);
  if (inQuotes) return value;
  return value === "" || PLAIN_UNSAFE.test(value) || NUMBER_LIKE.test(value) || /\s$/.test(value) ? JSON.stringify(value) : value;
}
