// Completion: keys by context (the schema, or the table's columns, or the tool's arguments),
// values (enums, tool names, world ids, milestone ids, measures) and snippets for whole list
// entries. Every item carries a text edit over the word being typed, so a half-typed word is
// replaced, not appended to.
import {
  CompletionItemKind,
  InsertTextFormat,
  InsertTextMode,
  type CompletionContext,
  type CompletionItem,
  type CompletionList,
  type Position,
} from "vscode-languageserver";
import { isNode, isSeq } from "yaml";
import type { PathSegment } from "../../engine/scenario/yaml-source.js";
import type { CursorContext, ScenarioDocument } from "./document.js";
import { keyItems } from "./completion-keys.js";
import { valueItems } from "./completion-values.js";
import { schemaAt, typesOf } from "./schema-nav.js";
import { constraintSnippets, indentBody, nodeSnippet, SKELETON_SNIPPET, snippetToText, STEP_SNIPPETS, type Snippet } from "./snippets.js";
import { isSection, readTag, type ItemFactory } from "./completion-support.js";
import { guarded } from "./guard.js";
import { keySlot } from "./slots.js";

const EMPTY: CompletionList = { isIncomplete: false, items: [] };

export function completion(doc: ScenarioDocument, position: Position, context?: CompletionContext): CompletionList {
  void context; // every trigger gets the same answer: the items fit the position, not the key pressed
  return guarded("completion", EMPTY, () => ({ isIncomplete: false, items: complete(doc, position) }));
}

/**
 * A new file: nothing but comments and, at most, the one word being typed (`scen`), so the skeleton
 * is offered while the author types its name, not only in an empty file.
 */
function onlyAWordSoFar(text: string): boolean {
  const content = text
    .split(/\r\n|\r|\n/)
    .filter((line) => !/^\s*#/.test(line))
    .join("\n")
    .trim();
  return /^[A-Za-z_]*$/.test(content);
}

function complete(doc: ScenarioDocument, position: Position): CompletionItem[] {
  const offset = doc.offsetAt(position);
  const ctx = doc.pathAt(offset);
  if (ctx.inScalar) return [];
  const factory = itemFactory(doc, ctx);
  if (ctx.on === "key") {
    if (isListPosition(doc, ctx.path) && !ctx.inFlow) return listEntryItems(doc, ctx, factory, ctx.path, "- ", ctx.indent + 2);
    const items = keyItems(doc, ctx, ctx.path, factory, "");
    if (ctx.path.length === 0 && onlyAWordSoFar(doc.text)) items.unshift(factory.snippet(SKELETON_SNIPPET, 0, "", "!")); // "!" sorts before every key
    return items;
  }
  const items = valueItems(doc, ctx, ctx.path, factory);
  if (ctx.itemStart) {
    // `- |`: the item may be a mapping whose first key is typed on the dash line.
    const parent = ctx.path.slice(0, -1);
    if (isObjectPosition(doc, ctx.path)) items.push(...keyItems(doc, ctx, ctx.path, factory, ""));
    items.push(...entrySnippets(doc, ctx, factory, parent, "", ctx.indent));
  }
  return items;
}

/** A mapping key position whose value is a list: what is typed there starts a `- ` entry. */
function isListPosition(doc: ScenarioDocument, path: readonly PathSegment[]): boolean {
  if (path.length === 0 || keySlot(doc, path) !== null) return false;
  const types = schemaAt(path, readTag(doc)).branches.flatMap((b) => typesOf(b));
  return types.includes("array") && !types.includes("object");
}

function isObjectPosition(doc: ScenarioDocument, path: readonly PathSegment[]): boolean {
  if (keySlot(doc, path) !== null) return true;
  return schemaAt(path, readTag(doc)).branches.some((b) => typesOf(b).includes("object") || b.properties !== undefined);
}

/** Entries for a list at `listPath` typed on a fresh line: values or keys after `- `, and snippets. */
function listEntryItems(
  doc: ScenarioDocument,
  ctx: CursorContext,
  factory: ItemFactory,
  listPath: readonly PathSegment[],
  dash: string,
  contentIndent: number,
): CompletionItem[] {
  const itemPath = [...listPath, nextIndex(doc, listPath, ctx.tokenStart)];
  const entryCtx: CursorContext = { ...ctx, path: itemPath, indent: contentIndent };
  const items = isObjectPosition(doc, itemPath)
    ? keyItems(doc, entryCtx, itemPath, factory, dash)
    : valueItems(doc, entryCtx, itemPath, factory, dash);
  items.push(...entrySnippets(doc, entryCtx, factory, listPath, dash, contentIndent));
  return items;
}

/** Snippets for one entry of the list at `listPath`: a milestone, a minefield, a constraint or a step. */
function entrySnippets(
  doc: ScenarioDocument,
  ctx: CursorContext,
  factory: ItemFactory,
  listPath: readonly PathSegment[],
  dash: string,
  indent: number,
): CompletionItem[] {
  const snippets = snippetsFor(doc, listPath, ctx);
  return snippets.map((s, i) => factory.snippet(s, indent, dash, `9${i}`));
}

function snippetsFor(doc: ScenarioDocument, listPath: readonly PathSegment[], ctx: CursorContext): readonly Snippet[] {
  const [a, b, c] = listPath;
  if (listPath.length === 1 && isSection(a)) {
    const nodes = doc.ids.nodes[a];
    const explicit = nodes.some((n) => n.after !== null);
    const previous = [...nodes].reverse().find((n) => n.id !== null && n.index < Number(ctx.path[1] ?? Infinity))?.id ?? null;
    return [nodeSnippet(a, explicit ? previous : null, [...doc.pack.schemas.keys()])];
  }
  if (listPath.length === 1 && a === "reference") return STEP_SNIPPETS;
  if (listPath.length === 3 && isSection(a) && typeof b === "number" && c === "constraints")
    return constraintSnippets([...doc.pack.schemas.keys()]);
  return [];
}

/** The index a new entry of the list at `path` gets: the number of items written before `offset`. */
function nextIndex(doc: ScenarioDocument, path: readonly PathSegment[], offset: number): number {
  try {
    const found = doc.source.locate(path);
    const node = found.complete ? found.node : null;
    if (isSeq(node)) return node.items.filter((item) => isNode(item) && (item.range?.[0] ?? Infinity) < offset).length;
  } catch {
    // an unreadable list counts as empty
  }
  return 0;
}

/** Builds items with a text edit over the word under the cursor. */
function itemFactory(doc: ScenarioDocument, ctx: CursorContext): ItemFactory {
  const range = doc.rangeOf(ctx.tokenStart, ctx.tokenEnd);
  const lineEnd = doc.text.indexOf("\n", ctx.tokenEnd);
  const rest = doc.text.slice(ctx.tokenEnd, lineEnd < 0 ? doc.text.length : lineEnd);
  const followedByColon = /^\s*:/.test(rest);
  const inQuotes = /["']/.test(doc.text[ctx.tokenStart - 1] ?? "") && ctx.tokenStart > 0;
  return {
    ctx,
    followedByColon,
    inQuotes,
    item(label, kind, insert, extra = {}) {
      const snippet = insert.snippet === true;
      return {
        label,
        kind,
        filterText: insert.filterText ?? label,
        textEdit: { range, newText: insert.text },
        ...(snippet ? { insertTextFormat: InsertTextFormat.Snippet } : {}),
        ...(insert.text.includes("\n") ? { insertTextMode: InsertTextMode.asIs } : {}),
        ...extra,
      };
    },
    snippet(s, indent, dash, sort) {
      return this.item(
        dash ? `- ${s.label}` : s.label,
        CompletionItemKind.Snippet,
        {
          text: dash + indentBody(s.body, indent),
          snippet: true,
          filterText: dash ? `- ${s.label}` : s.label,
        },
        {
          detail: s.detail,
          sortText: `${sort}${s.label}`,
          documentation: { kind: "markdown", value: ["```yaml", snippetToText(s.body), "```"].join("\n") },
        },
      );
    },
  };
}
