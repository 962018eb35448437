// The block structure of a YAML text read line by line, the way an author sees it: which key or
// list item each line opens, at which column. It does not need the text to be valid YAML, so it
// still says where the cursor is while a line is half typed (`    kin`, `  - tool: sea`), where
// the parser's tree is broken or missing. Scalars that span lines (block scalars, quoted or
// plain continuations) are taken from the parsed tree so their text is never read as structure.
import { isMap, isNode, isPair, isScalar, isSeq, type Document } from "yaml";
import type { PathSegment } from "../../engine/scenario/yaml-source.js";

/** An open node on the path to a line: a key whose value follows, or a list item. */
export type Frame =
  | {
      readonly kind: "key";
      readonly name: string;
      readonly col: number;
      readonly inline: boolean;
      /** Only an anchor or a tag after the colon (`key: &base`): a mapping may still follow below. */
      readonly propertiesOnly: boolean;
      readonly id: string;
    }
  | { readonly kind: "item"; readonly col: number; readonly index: number; readonly id: string };

/** What one line opens: list items (`- `) and at most one key, with their columns. */
interface LineTokens {
  readonly items: readonly number[];
  readonly key: { readonly name: string; readonly col: number } | null;
  /** Column where the value text starts (after `key:` or `- `), or null when the line ends there. */
  readonly valueCol: number | null;
  /** The value text up to a comment, trimmed at the end. */
  readonly value: string;
}

type LineKind = "structure" | "blank" | "scalar" | "flow";

export interface LineInfo {
  readonly kind: LineKind;
  /** Offset of the line's first character. */
  readonly start: number;
  readonly text: string;
  /** Open frames after this line (for skipped lines: those of the line before). */
  readonly stack: readonly Frame[];
  /** For a "flow" line: offset where the flow collection it continues began, and the frames of its owner line. */
  readonly flowStart?: number;
  /** The key this line writes, with the id of the mapping it is written in (keysByPath is built from these). */
  readonly key?: { readonly parent: string; readonly name: string; readonly value: string };
}

export interface KeyOccurrence {
  readonly name: string;
  readonly line: number;
  /** The scalar written after the key on its line ("" when none; a flow collection is left as text). */
  readonly value: string;
}

export interface LineStructure {
  readonly lines: readonly LineInfo[];
  /** Keys written in each mapping, by the mapping's path (pathKey). */
  readonly keysByPath: ReadonlyMap<string, readonly KeyOccurrence[]>;
}

/** A path as a map key: segments joined so that index 0 and key "0" differ. */
export function pathKey(path: readonly PathSegment[]): string {
  let key = "";
  for (const segment of path) key = childKey(key, segment);
  return key;
}

function childKey(parent: string, segment: PathSegment): string {
  return typeof segment === "number" ? `${parent}\u0000#${segment}` : `${parent}\u0000${segment}`;
}

export function pathOf(stack: readonly Frame[]): PathSegment[] {
  return stack.map((f) => (f.kind === "key" ? f.name : f.index));
}

export function scanLines(text: string, doc: Document.Parsed | null): LineStructure {
  const { lines } = scanRange(text, doc, 0, null);
  return { lines, keysByPath: keysOf(lines) };
}

/**
 * The structure of `text` after an edit of `previous.text`: the lines before the top-level
 * section the edit starts in are kept, the lines from there are scanned again until a top-level
 * key in the unchanged end of the text, and the rest are the previous lines moved. Top-level keys
 * close every open frame, so the lines on either side do not depend on the scanned ones.
 */
export function rescanLines(
  previous: { readonly text: string; readonly structure: LineStructure },
  text: string,
  doc: Document.Parsed | null,
): LineStructure {
  const old = previous.text;
  const oldLines = previous.structure.lines;
  let prefix = 0;
  const limit = Math.min(old.length, text.length);
  while (prefix < limit && old.charCodeAt(prefix) === text.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < limit - prefix && old.charCodeAt(old.length - 1 - suffix) === text.charCodeAt(text.length - 1 - suffix)) suffix++;
  // The last top-level key line at or before the edit, in the unchanged prefix.
  // (Strictly before the edited line: the edit may unmake the key on its own line.)
  let first = lineIndexAt(oldLines, prefix) - 1;
  while (first > 0 && !isTopLevelKey(oldLines[first])) first--;
  first = Math.max(0, first);
  if (first >= oldLines.length || (oldLines[first]?.start ?? 0) > prefix) first = 0;
  // The new parse must still start a top-level entry there (an edit that opens a quote can turn
  // the key into text of the scalar above): otherwise everything is scanned again.
  if (first > 0 && !startsRootEntry(doc, oldLines[first]?.start ?? -1)) first = 0;
  const from = first === 0 ? 0 : (oldLines[first]?.start ?? 0);
  const delta = text.length - old.length;
  const unchangedFrom = text.length - suffix;
  const { lines: scanned, resumeAt } = scanRange(text, doc, from, (info) => info.start > unchangedFrom && isTopLevelKey(info));
  let tail: LineInfo[] = [];
  if (resumeAt !== null) {
    const oldIndex = lineIndexAt(oldLines, resumeAt - delta);
    if (oldLines[oldIndex]?.start === resumeAt - delta) tail = oldLines.slice(oldIndex).map((info) => moved(info, delta));
    // The new parse may read multi-line scalars differently there (an edit that breaks the YAML):
    // the moved lines must agree with it, or are scanned again.
    if (tail.length === 0 || !scalarsAgree(tail, multiLineScalarSpans(text, doc, resumeAt)))
      tail = scanRange(text, doc, resumeAt, null).lines;
  }
  const lines = [...oldLines.slice(0, first), ...scanned, ...tail];
  return { lines, keysByPath: keysOf(lines) };
}

function startsRootEntry(doc: Document.Parsed | null, offset: number): boolean {
  const root = doc?.contents;
  return isMap(root) && root.items.some((item) => isNode(item.key) && item.key.range?.[0] === offset);
}

/** Whether exactly the lines that start inside a multi-line scalar are the "scalar" lines. */
function scalarsAgree(lines: readonly LineInfo[], spans: readonly (readonly [number, number])[]): boolean {
  let spanIndex = 0;
  for (const info of lines) {
    if (info.kind === "blank" || info.kind === "flow") continue;
    const firstChar = info.start + info.text.search(/\S/);
    while (spanIndex < spans.length && (spans[spanIndex]?.[1] ?? 0) <= firstChar) spanIndex++;
    const span = spans[spanIndex];
    const inside = span !== undefined && firstChar > span[0] && firstChar < span[1];
    if (inside !== (info.kind === "scalar")) return false;
  }
  return true;
}

function moved(info: LineInfo, delta: number): LineInfo {
  if (delta === 0) return info;
  return info.flowStart === undefined
    ? { ...info, start: info.start + delta }
    : { ...info, start: info.start + delta, flowStart: info.flowStart + delta };
}

/** A line that writes a key at column 0 (every frame before it is closed). */
function isTopLevelKey(info: LineInfo | undefined): boolean {
  return info?.kind === "structure" && info.key?.parent === "" && info.stack.length === 1 && info.stack[0]?.col === 0;
}

function lineIndexAt(lines: readonly LineInfo[], offset: number): number {
  let low = 0;
  let high = lines.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lines[mid]?.start ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return Math.max(0, low);
}

function keysOf(lines: readonly LineInfo[]): Map<string, KeyOccurrence[]> {
  const keysByPath = new Map<string, KeyOccurrence[]>();
  lines.forEach((info, line) => {
    if (!info.key) return;
    const list = keysByPath.get(info.key.parent);
    const occurrence = { name: info.key.name, line, value: info.key.value };
    if (list) list.push(occurrence);
    else keysByPath.set(info.key.parent, [occurrence]);
  });
  return keysByPath;
}

/**
 * Scans lines from offset `from` (a line start where no frame is open) to the end, or up to the
 * first line `stopAt` accepts (then `resumeAt` is that line's start, the line itself not scanned).
 */
function scanRange(
  text: string,
  doc: Document.Parsed | null,
  from: number,
  stopAt: ((info: LineInfo) => boolean) | null,
): { lines: LineInfo[]; resumeAt: number | null } {
  const multiLine = multiLineScalarSpans(text, doc, from);
  const lines: LineInfo[] = [];
  let stack: readonly Frame[] = [];
  let flow: { start: number; col: number; depth: number } | null = null;
  let spanIndex = 0;
  let start = from;
  while (start <= text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    const lineText = text.slice(start, end).replace(/\r$/, "");
    const indent = lineText.search(/\S/);
    const firstChar = indent < 0 ? -1 : start + indent;
    while (spanIndex < multiLine.length && (multiLine[spanIndex]?.[1] ?? 0) <= firstChar) spanIndex++;
    const span = multiLine[spanIndex];
    let info: LineInfo;
    if (indent < 0 || lineText[indent] === "#" || isDocumentMarker(lineText)) {
      info = { kind: "blank", start, text: lineText, stack };
    } else if (flow !== null && indent > flow.col) {
      info = { kind: "flow", start, text: lineText, stack, flowStart: flow.start };
      flow.depth += bracketDepth(lineText, 0);
      if (flow.depth <= 0) flow = null;
    } else if (span !== undefined && firstChar > span[0] && firstChar < span[1]) {
      info = { kind: "scalar", start, text: lineText, stack };
    } else {
      const tokens = lineTokens(lineText);
      const nextStack = applyTokens(stack, tokens);
      const key = tokens.key;
      const keyInfo = key ? { parent: nextStack[nextStack.length - 2]?.id ?? "", name: key.name, value: unquote(tokens.value) } : undefined;
      info = keyInfo
        ? { kind: "structure", start, text: lineText, stack: nextStack, key: keyInfo }
        : { kind: "structure", start, text: lineText, stack: nextStack };
      if (stopAt?.(info)) return { lines, resumeAt: start };
      flow = null;
      stack = nextStack;
      if (tokens.valueCol !== null && /^[[{]/.test(tokens.value)) {
        const depth = bracketDepth(lineText, tokens.valueCol);
        const owner = key?.col ?? tokens.items[tokens.items.length - 1] ?? 0;
        if (depth > 0) flow = { start: start + tokens.valueCol, col: owner, depth };
      }
    }
    lines.push(info);
    if (newline < 0) break;
    start = newline + 1;
  }
  return { lines, resumeAt: null };
}

function unquote(value: string): string {
  const quoted = /^"(.*)"$|^'(.*)'$/.exec(value);
  return quoted ? (quoted[1] ?? quoted[2] ?? "") : value;
}

function isDocumentMarker(line: string): boolean {
  return /^(---|\.\.\.)(\s|$)/.test(line) || line.startsWith("%");
}

/** The items and key a line (or the part of it before the cursor) opens. */
export function lineTokens(line: string): LineTokens {
  const items: number[] = [];
  let i = skipSpaces(line, 0);
  while (line[i] === "-" && (i + 1 === line.length || line[i + 1] === " " || line[i + 1] === "\t")) {
    items.push(i);
    i = skipSpaces(line, i + 1);
  }
  if (i >= line.length || line[i] === "#") return { items, key: null, valueCol: null, value: "" };
  const key = keyAt(line, i);
  if (key === null) return { items, key: null, valueCol: i, value: valueText(line, i) };
  const valueStart = skipSpaces(line, key.colon + 1);
  const hasValue = valueStart < line.length && line[valueStart] !== "#";
  return {
    items,
    key: { name: key.name, col: i },
    valueCol: hasValue ? valueStart : null,
    value: hasValue ? valueText(line, valueStart) : "",
  };
}

/** `name:` (plain or quoted) at column i, followed by a blank or the end of the line. */
function keyAt(line: string, i: number): { name: string; colon: number } | null {
  const quote = line[i];
  if (quote === '"' || quote === "'") {
    const close = line.indexOf(quote, i + 1);
    if (close < 0) return null;
    const colon = skipSpaces(line, close + 1);
    if (line[colon] !== ":" || !isBlankOrEnd(line, colon + 1)) return null;
    return { name: line.slice(i + 1, close), colon };
  }
  if (line[i] === "[" || line[i] === "{" || line[i] === "|" || line[i] === ">") return null;
  for (let j = i; j < line.length; j++) {
    const c = line[j];
    if (c === "#" && j > i && (line[j - 1] === " " || line[j - 1] === "\t")) return null;
    if (c === ":" && isBlankOrEnd(line, j + 1)) {
      const name = line.slice(i, j).trimEnd();
      return name.length > 0 ? { name, colon: j } : null;
    }
  }
  return null;
}

function isBlankOrEnd(line: string, i: number): boolean {
  return i >= line.length || line[i] === " " || line[i] === "\t";
}

function skipSpaces(line: string, i: number): number {
  while (i < line.length && (line[i] === " " || line[i] === "\t")) i++;
  return i;
}

/** The value text from column i up to a trailing comment (outside quotes), trimmed at the end. */
function valueText(line: string, i: number): string {
  let quote: string | null = null;
  for (let j = i; j < line.length; j++) {
    const c = line[j];
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      if (j === i || /[\s[{,:]/.test(line[j - 1] ?? "")) quote = c;
    } else if (c === "#" && j > i && (line[j - 1] === " " || line[j - 1] === "\t")) {
      return line.slice(i, j).trimEnd();
    }
  }
  return line.slice(i).trimEnd();
}

/** Opened minus closed brackets from column i, outside quotes and comments. */
function bracketDepth(line: string, i: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let j = i; j < line.length; j++) {
    const c = line[j];
    if (quote !== null) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (j === 0 || line[j - 1] === " ")) break;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
  }
  return depth;
}

/** The frames open after a line with these tokens, given those open before it. */
export function applyTokens(before: readonly Frame[], tokens: LineTokens): Frame[] {
  const stack = [...before];
  for (const col of tokens.items) {
    while (stack.length > 0 && (stack[stack.length - 1]?.col ?? 0) > col) stack.pop();
    const top = stack[stack.length - 1];
    if (top?.kind === "item" && top.col === col) {
      const index = top.index + 1;
      stack[stack.length - 1] = { kind: "item", col, index, id: childKey(stack[stack.length - 2]?.id ?? "", index) };
    } else {
      // A key at the same column with a scalar on its line cannot own this list.
      if (top?.kind === "key" && top.col === col && top.inline) stack.pop();
      stack.push({ kind: "item", col, index: 0, id: childKey(stack[stack.length - 1]?.id ?? "", 0) });
    }
  }
  if (tokens.key) {
    const col = tokens.key.col;
    while (stack.length > 0 && (stack[stack.length - 1]?.col ?? 0) >= col) stack.pop();
    // A key with a scalar on its line owns no mapping: a key indented under it (Enter after
    // `now: ...` in an editor that indents by more than the file does) is read as its sibling, so
    // completion keeps working there while the YAML is broken.
    const owner = stack[stack.length - 1];
    if (owner?.kind === "key" && owner.inline && !owner.propertiesOnly) stack.pop();
    const name = tokens.key.name;
    // `key: &anchor` or `key: !tag` puts only properties on the line: the value (a mapping) may follow below.
    const propertiesOnly = /^(?:[&!]\S*\s*)+$/.test(tokens.value);
    stack.push({
      kind: "key",
      name,
      col,
      inline: tokens.valueCol !== null,
      propertiesOnly,
      id: childKey(stack[stack.length - 1]?.id ?? "", name),
    });
  }
  return stack;
}

/** [start, end) of every scalar whose text spans more than one line, in source order. */
function multiLineScalarSpans(text: string, doc: Document.Parsed | null, from: number): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const walk = (node: unknown, depth: number): void => {
    if (depth > 200) return;
    if (isScalar(node)) {
      const range = node.range;
      if (!range || range[1] <= range[0]) return;
      // An unterminated quoted string (being typed) would swallow the rest of the file: ignore it.
      const quote = node.type === "QUOTE_DOUBLE" ? '"' : node.type === "QUOTE_SINGLE" ? "'" : null;
      const closed = quote === null || (range[1] - range[0] >= 2 && text[range[1] - 1] === quote);
      const newline = text.indexOf("\n", range[0]);
      // A plain scalar cannot hold `key: ` nor be a key across lines; one that seems to (a key
      // indented too far under `now: ...`, which the parser reads as a two-line implicit key) is a
      // syntax error the parser recovered from, and its lines are keys, not text.
      const keyInside =
        node.type === "PLAIN" &&
        (/\n[ \t]*[^\s#][^\n]*?:(?:[ \t]|$)/.test(text.slice(range[0], range[1])) ||
          /^[ \t]*:(?:[ \t]|$)/.test(text.slice(range[1], range[1] + 80)));
      if (closed && !keyInside && newline >= 0 && newline < range[1]) spans.push([range[0], range[1]]);
    } else if (isMap(node) || isSeq(node)) {
      for (const item of node.items) {
        if (isPair(item)) {
          walk(item.key, depth + 1);
          walk(item.value, depth + 1);
        } else {
          walk(item, depth + 1);
        }
      }
    }
  };
  // Only the top-level entries that reach `from` or beyond: the lines before it are not scanned.
  const root = doc?.contents;
  if (isMap(root)) {
    for (const item of root.items) {
      const end = isNode(item.value) ? (item.value.range?.[2] ?? Infinity) : Infinity;
      if (end < from) continue;
      walk(item.key, 1);
      walk(item.value, 1);
    }
  } else if (doc) {
    walk(root, 0);
  }
  return spans.sort((a, b) => a[0] - b[0]);
}
