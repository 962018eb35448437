// Where the cursor is in YAML terms: the path of the mapping whose key is being typed, or of the
// value being typed, plus the word to replace. Read from the text (line-structure.ts), so it works
// on the half-typed line that made the document invalid.
import type { PathSegment } from "../../engine/scenario/yaml-source.js";
import { applyTokens, lineTokens, pathOf, type Frame, type LineStructure } from "./line-structure.js";

/** Where the cursor is, in YAML terms; robust on lines still being typed. */
export interface CursorContext {
  /** On "key": the path of the mapping whose key is typed. On "value": the path of the value typed. */
  readonly path: readonly PathSegment[];
  readonly on: "key" | "value";
  /** The part of the current word before the cursor. */
  readonly prefix: string;
  /** Offsets of the whole word under the cursor (what a completion replaces). */
  readonly tokenStart: number;
  readonly tokenEnd: number;
  /** Inside a flow collection ([...] or {...}). */
  readonly inFlow: boolean;
  /** A value right after `- ` with nothing else on the item yet: it may also start a mapping. */
  readonly itemStart: boolean;
  /** Column where a key of the mapping being written starts (for multi-line inserts). */
  readonly indent: number;
  /** Inside free text that spans lines (a block scalar, a continued string) or a comment: nothing to complete. */
  readonly inScalar: boolean;
  /** Line (0-based) the cursor is on. */
  readonly line: number;
}

/** Characters of a word a completion replaces: keys, ids, tool names, enum values, uuids. */
const WORD = /[A-Za-z0-9_.\-+@/$]/;

export function cursorContext(structure: LineStructure, text: string, offset: number): CursorContext {
  const at = Math.max(0, Math.min(offset, text.length));
  const lineIndex = lineOf(structure, at);
  const info = structure.lines[lineIndex];
  const lineStart = info?.start ?? 0;
  const lineText = info?.text ?? "";
  const col = Math.min(at - lineStart, lineText.length);
  const before = lineText.slice(0, col);
  const stackBefore = lineIndex > 0 ? (structure.lines[lineIndex - 1]?.stack ?? []) : [];
  const wordEnd = extendWord(lineText, col) + lineStart;
  const base = { line: lineIndex, tokenEnd: wordEnd, inScalar: false, inFlow: false, itemStart: false };

  if (info?.kind === "scalar" || inComment(before)) {
    return { ...base, path: pathOf(stackBefore), on: "value", prefix: "", tokenStart: at, tokenEnd: at, indent: col, inScalar: true };
  }
  if (info?.kind === "flow" && info.flowStart !== undefined) {
    return flowContext(pathOf(info.stack), text.slice(info.flowStart, at), at, base, col);
  }

  const tokens = lineTokens(before);
  const afterTokens = tokens.valueCol ?? before.length;
  const remainder = before.slice(afterTokens);
  // The frames the typed part of the line opens (a key there is the one whose value is typed).
  const stack = applyTokens(stackBefore, { ...tokens, valueCol: null });
  if (tokens.key) {
    // `key: value|`: the value of that key (a flow collection is read bracket by bracket).
    if (/^[[{]/.test(remainder)) return flowContext(pathOf(stack), remainder, at, base, col);
    const word = plainWord(remainder, lineStart + afterTokens);
    const itemCol = tokens.key.col;
    return { ...base, path: pathOf(stack), on: "value", prefix: word.prefix, tokenStart: word.start, indent: itemCol + 2 };
  }
  const lastItem = tokens.items[tokens.items.length - 1];
  if (lastItem !== undefined && (remainder.length === 0 || !/^[[{]/.test(remainder))) {
    // `- |` or `- wor|`: the item's value, which may also be the first key of a mapping item.
    const word = plainWord(remainder, lineStart + afterTokens);
    return {
      ...base,
      path: pathOf(stack),
      on: "value",
      prefix: word.prefix,
      tokenStart: word.start,
      itemStart: true,
      indent: lastItem + 2,
    };
  }
  if (lastItem !== undefined) return flowContext(pathOf(stack), remainder, at, base, col);
  // A blank line or a bare word: a key of the mapping this column belongs to.
  const column = before.search(/\S/) < 0 ? col : before.search(/\S/);
  const word = plainWord(remainder, lineStart + afterTokens);
  const owner = ownerAtColumn(stackBefore, column);
  return { ...base, path: pathOf(owner), on: "key", prefix: word.prefix, tokenStart: word.start, indent: column };
}

/** A `#` outside quotes, at the start or after a blank, starts a comment. */
function inComment(before: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < before.length; i++) {
    const c = before[i];
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      if (i === 0 || /[\s[{,:]/.test(before[i - 1] ?? "")) quote = c;
    } else if (c === "#" && (i === 0 || before[i - 1] === " " || before[i - 1] === "\t")) {
      return true;
    }
  }
  return false;
}

/** The frames that own a key written at `column`: deeper or equal frames close. */
function ownerAtColumn(stack: readonly Frame[], column: number): Frame[] {
  const owner = [...stack];
  while (owner.length > 0) {
    const top = owner[owner.length - 1];
    if (top === undefined) break;
    if (top.col >= column || (top.kind === "key" && top.inline && !top.propertiesOnly)) owner.pop();
    else break;
  }
  return owner;
}

function lineOf(structure: LineStructure, offset: number): number {
  const lines = structure.lines;
  let low = 0;
  let high = lines.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lines[mid]?.start ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return Math.max(0, low);
}

function extendWord(line: string, col: number): number {
  let end = col;
  while (end < line.length && WORD.test(line[end] ?? "")) end++;
  return end;
}

/** The typed value: its text before the cursor (an opening quote left out) and where it starts. */
function plainWord(remainder: string, start: number): { prefix: string; start: number } {
  if (remainder.startsWith('"') || remainder.startsWith("'")) return { prefix: remainder.slice(1), start: start + 1 };
  return { prefix: remainder, start };
}

interface FlowLevel {
  readonly type: "seq" | "map";
  index: number;
  key: string | null;
  onValue: boolean;
}

/**
 * Inside `[...]` / `{...}`: which item or key the cursor is at. `flowText` runs from the opening
 * bracket to the cursor; `basePath` is the path of the collection.
 */
function flowContext(
  basePath: readonly PathSegment[],
  flowText: string,
  cursor: number,
  base: { line: number; tokenEnd: number; inScalar: boolean; inFlow: boolean; itemStart: boolean },
  col: number,
): CursorContext {
  const levels: FlowLevel[] = [];
  let token = "";
  let tokenStart = 0;
  for (let i = 0; i < flowText.length; i++) {
    const c = flowText[i] ?? "";
    const level = levels[levels.length - 1];
    if (c === '"' || c === "'") {
      const close = flowText.indexOf(c, i + 1);
      if (close < 0) {
        token = flowText.slice(i + 1);
        tokenStart = i + 1;
        break;
      }
      token = flowText.slice(i + 1, close);
      tokenStart = i + 1;
      i = close;
      continue;
    }
    if (c === "[" || c === "{") {
      levels.push({ type: c === "[" ? "seq" : "map", index: 0, key: null, onValue: false });
      token = "";
      tokenStart = i + 1;
    } else if (c === "]" || c === "}") {
      levels.pop();
      token = "";
      tokenStart = i + 1;
    } else if (c === ",") {
      if (level?.type === "seq") level.index++;
      if (level?.type === "map") {
        level.key = null;
        level.onValue = false;
      }
      token = "";
      tokenStart = i + 1;
    } else if (
      c === ":" &&
      level?.type === "map" &&
      !level.onValue &&
      (i + 1 >= flowText.length || /[\s,\]}]/.test(flowText[i + 1] ?? ""))
    ) {
      level.key = token.trim();
      level.onValue = true;
      token = "";
      tokenStart = i + 1;
    } else if (token === "" && (c === " " || c === "\t" || c === "\n" || c === "\r")) {
      tokenStart = i + 1; // blanks before a word are not part of it
    } else {
      token += c;
    }
  }
  const path: PathSegment[] = [...basePath];
  levels.forEach((level, n) => {
    const last = n === levels.length - 1;
    if (level.type === "seq") path.push(level.index);
    else if (level.onValue && level.key !== null) path.push(level.key);
    else if (!last) path.push(level.key ?? "");
  });
  const top = levels[levels.length - 1];
  const on: "key" | "value" = top?.type === "map" && !top.onValue ? "key" : "value";
  const prefix = token;
  const start = cursor - flowText.length + tokenStart;
  return { ...base, path, on, prefix, tokenStart: Math.min(start, cursor), inFlow: levels.length > 0, indent: col };
}
