// The outline of a scenario (name, clock, world tables, web, tools, user, each milestone and
// minefield with its constraints, each reference step) and its folding ranges. Both come from the
// parsed tree, whatever of it the parser could build, and are capped for very large files.
import { isMap, isPair, isScalar, isSeq, type Node, type Pair } from "yaml";
import { SymbolKind, type DocumentSymbol, type FoldingRange } from "vscode-languageserver";
import type { ScenarioDocument } from "./document.js";
import { guarded } from "./guard.js";

/** Outline entries and folding ranges stop here (an outline of 10,000 rows helps nobody). */
const MAX_ITEMS = 5000;

const SECTION_KINDS: Readonly<Record<string, SymbolKind>> = {
  name: SymbolKind.Constant,
  description: SymbolKind.String,
  categories: SymbolKind.Enum,
  clock: SymbolKind.Object,
  world: SymbolKind.Module,
  web: SymbolKind.Module,
  tools: SymbolKind.Module,
  agent: SymbolKind.Object,
  user: SymbolKind.Object,
  max_messages: SymbolKind.Number,
  options: SymbolKind.Object,
  milestones: SymbolKind.Array,
  minefields: SymbolKind.Array,
  reference: SymbolKind.Array,
};

export function documentSymbols(doc: ScenarioDocument): DocumentSymbol[] {
  return guarded("documentSymbols", [], () => {
    const root = doc.source.doc.contents;
    if (!isMap(root)) return [];
    const budget = { left: MAX_ITEMS };
    return root.items.flatMap((pair) => {
      const key = keyText(pair);
      if (key === null) return [];
      const children = sectionChildren(doc, key, pair.value, budget);
      const symbol = pairSymbol(
        doc,
        pair,
        key,
        SECTION_KINDS[key] ?? SymbolKind.Property,
        sectionDetail(key, pair.value),
        children,
        budget,
      );
      return symbol ? [symbol] : [];
    });
  });
}

function sectionChildren(doc: ScenarioDocument, key: string, value: unknown, budget: { left: number }): DocumentSymbol[] {
  switch (key) {
    case "world":
    case "web":
    case "user":
    case "clock":
    case "tools":
    case "agent":
    case "options":
      return isMap(value) ? value.items.flatMap((p) => childPair(doc, p, budget)) : [];
    case "milestones":
    case "minefields":
      return isSeq(value) ? value.items.flatMap((item, i) => nodeSymbol(doc, item, i, key, budget)) : [];
    case "reference":
      return isSeq(value) ? value.items.flatMap((item, i) => stepSymbol(doc, item, i, budget)) : [];
    default:
      return [];
  }
}

function childPair(doc: ScenarioDocument, pair: Pair, budget: { left: number }): DocumentSymbol[] {
  const key = keyText(pair);
  if (key === null) return [];
  const kind = isSeq(pair.value) ? SymbolKind.Array : isMap(pair.value) ? SymbolKind.Struct : SymbolKind.Property;
  const symbol = pairSymbol(doc, pair, key, kind, scalarDetail(pair.value), [], budget);
  return symbol ? [symbol] : [];
}

/** A milestone or minefield, named by its id, with one child per constraint. */
function nodeSymbol(doc: ScenarioDocument, item: unknown, index: number, section: string, budget: { left: number }): DocumentSymbol[] {
  if (!isMap(item) || !hasRange(item) || budget.left <= 0) return [];
  const id = scalarOf(item, "id");
  const description = scalarOf(item, "description");
  const constraints = fieldValue(item, "constraints");
  const children = isSeq(constraints)
    ? constraints.items.flatMap((c, j) => {
        if (!isMap(c) || !hasRange(c) || budget.left <= 0) return [];
        budget.left--;
        const label = [scalarOf(c, "kind"), scalarOf(c, "table")].filter((s): s is string => s !== null).join(" ");
        return [symbolOf(doc, label || `constraint ${j + 1}`, SymbolKind.Field, c.range, c.range, null, [])];
      })
    : [];
  budget.left--;
  const idNode = fieldValue(item, "id");
  const selection = hasRange(idNode) ? idNode.range : item.range;
  const fallback = `${section === "milestones" ? "milestone" : "minefield"} ${index + 1}`;
  return [symbolOf(doc, id ?? fallback, SymbolKind.Event, item.range, selection, description, children)];
}

/** A reference step: "calls: tool_a, tool_b", "agent: text", "user: text", "end_conversation". */
function stepSymbol(doc: ScenarioDocument, item: unknown, index: number, budget: { left: number }): DocumentSymbol[] {
  if (!isMap(item) || !hasRange(item) || budget.left <= 0) return [];
  budget.left--;
  const first = item.items[0];
  const key = first ? keyText(first) : null;
  let detail: string | null = null;
  let kind: SymbolKind = SymbolKind.String;
  if (key === "calls" && isSeq(first?.value)) {
    detail = first.value.items
      .map((c) => (isMap(c) ? scalarOf(c, "tool") : null))
      .filter((t): t is string => t !== null)
      .join(", ");
    kind = SymbolKind.Method;
  } else if (key === "agent" || key === "user") {
    detail = scalarDetail(first?.value);
  } else if (key === "end_conversation") {
    kind = SymbolKind.Event;
  }
  return [symbolOf(doc, `${index + 1}. ${key ?? "step"}`, kind, item.range, item.range, detail, [])];
}

function pairSymbol(
  doc: ScenarioDocument,
  pair: Pair,
  name: string,
  kind: SymbolKind,
  detail: string | null,
  children: DocumentSymbol[],
  budget: { left: number },
): DocumentSymbol | null {
  if (budget.left <= 0 || !isScalar(pair.key) || !pair.key.range) return null;
  budget.left--;
  const keyRange = pair.key.range;
  const end = hasRange(pair.value) ? Math.max(pair.value.range[1], keyRange[1]) : keyRange[1];
  return symbolOf(doc, name, kind, [keyRange[0], end], keyRange, detail, children);
}

function symbolOf(
  doc: ScenarioDocument,
  name: string,
  kind: SymbolKind,
  range: readonly number[],
  selection: readonly number[],
  detail: string | null,
  children: DocumentSymbol[],
): DocumentSymbol {
  const [start = 0, rawEnd = 0] = range;
  const end = trimEnd(doc.text, start, rawEnd);
  const [selStart = start, selEnd = start] = selection;
  const selectionStart = Math.max(start, Math.min(selStart, end));
  const selectionEnd = Math.max(selectionStart, Math.min(trimEnd(doc.text, selStart, selEnd), end));
  return {
    name: name.length > 0 ? name : "(unnamed)",
    kind,
    range: doc.rangeOf(start, end),
    selectionRange: doc.rangeOf(selectionStart, selectionEnd),
    ...(detail ? { detail } : {}),
    ...(children.length > 0 ? { children } : {}),
  };
}

function sectionDetail(key: string, value: unknown): string | null {
  if (key === "milestones" || key === "minefields" || key === "reference") return isSeq(value) ? `${value.items.length}` : null;
  return scalarDetail(value);
}

function scalarDetail(value: unknown): string | null {
  if (!isScalar(value) || value.value === null || value.value === undefined) return null;
  const text = String(value.value).replace(/\s+/g, " ");
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

export function foldingRanges(doc: ScenarioDocument): FoldingRange[] {
  return guarded("foldingRanges", [], () => {
    const out: FoldingRange[] = [];
    const starts = new Set<number>();
    const fold = (from: number, to: number): void => addFold(doc, out, starts, from, to);
    const visit = (node: unknown, startOffset: number | null): void => {
      if (out.length >= MAX_ITEMS || !hasRange(node)) return;
      const from = startOffset ?? node.range[0];
      fold(from, node.range[1]);
      if (isMap(node)) {
        for (const pair of node.items) {
          const keyStart = isScalar(pair.key) && pair.key.range ? pair.key.range[0] : null;
          if (isMap(pair.value) || isSeq(pair.value)) visit(pair.value, keyStart);
          else if (isScalar(pair.value) && pair.value.range && keyStart !== null) fold(keyStart, pair.value.range[1]);
        }
      } else if (isSeq(node)) {
        for (const item of node.items) visit(item, null);
      }
    };
    const root = doc.source.doc.contents;
    if (isMap(root) || isSeq(root)) {
      for (const item of root.items) {
        if (isPair(item)) {
          const keyStart = isScalar(item.key) && item.key.range ? item.key.range[0] : null;
          if (isMap(item.value) || isSeq(item.value)) visit(item.value, keyStart);
          else if (isScalar(item.value) && item.value.range && keyStart !== null) fold(keyStart, item.value.range[1]);
        } else {
          visit(item, null);
        }
      }
    }
    return out;
  });
}

/** A fold from the line of `start` to the last line with text before `end`, when that is a later line. */
function addFold(doc: ScenarioDocument, out: FoldingRange[], starts: Set<number>, start: number, end: number): void {
  if (out.length >= MAX_ITEMS) return;
  const startLine = doc.textDocument.positionAt(start).line;
  const endLine = doc.textDocument.positionAt(trimEnd(doc.text, start, end)).line;
  if (endLine <= startLine || starts.has(startLine)) return;
  starts.add(startLine);
  out.push({ startLine, endLine });
}

function trimEnd(text: string, start: number, end: number): number {
  let stop = Math.min(end, text.length);
  while (stop > start && /\s/.test(text[stop - 1] ?? "")) stop--;
  return stop;
}

function keyText(pair: Pair): string | null {
  return isScalar(pair.key) && pair.key.value !== null && pair.key.value !== undefined ? String(pair.key.value) : null;
}

function fieldValue(map: { items: Pair[] }, key: string): unknown {
  return map.items.find((p) => isScalar(p.key) && p.key.value === key)?.value;
}

function scalarOf(map: { items: Pair[] }, key: string): string | null {
  const value = fieldValue(map, key);
  return isScalar(value) && value.value !== null && value.value !== undefined ? String(value.value) : null;
}

function hasRange(node: unknown): node is Node & { range: [number, number, number] } {
  return (isMap(node) || isSeq(node) || isScalar(node)) && Array.isArray(node.range);
}
