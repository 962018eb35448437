// A parsed scenario file with its source positions: the YAML document, its plain value, and a
// way to turn a path into the file (["milestones", 2, "after", 0]) back into a source range.
// Every diagnostic the checker emits is located through here, so all ranges follow one rule:
// a range never runs past the end of the line it starts on (a squiggle under a whole block of
// YAML tells the author nothing).
import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, YAMLParseError } from "yaml";
import type { Document, Node, Pair } from "yaml";
import type { Diagnostic, Position, Range, Severity } from "../base/diagnostics.js";
import { grouped, limitValue, overLimitMessage } from "../base/limits.js";
import { nestingLimitMessage, treeProblems } from "./tree-limits.js";
import { parseWhole, type ParsedYaml, type YamlProblem } from "./yaml-sections.js";

export type PathSegment = string | number;
export type Path = readonly PathSegment[];

/** Which part of a located node a diagnostic underlines: the key of its pair, or the value. */
export type Anchor = "key" | "value";

/** Aliases expand at most this many times, so a hostile file cannot blow up toJS. */
const MAX_ALIAS_COUNT = 100;

export class YamlSource {
  /** Offsets where each line starts. (yaml's LineCounter only knows the lines its lexer reached.) */
  private readonly lineStarts: readonly number[];
  readonly doc: Document.Parsed;
  /** The plain JavaScript value of the document (null when empty or when it could not be built). */
  readonly value: unknown;
  /**
   * YAML syntax problems, and a limit of docs/limits.md passed; when there are any, `value` is not
   * worth validating further (past a limit it is not even built).
   */
  readonly syntaxDiagnostics: readonly Diagnostic[];
  /** Problems in the tree that do not stop the check (numbers out of float range). */
  readonly treeWarnings: readonly Diagnostic[];

  /** `parsed`: the text's parse, when the caller has one (the language server parses by section, yaml-sections.ts). */
  /** The text with lone CR line breaks read as LF (same length, so offsets are the editor's). */
  readonly text: string;

  constructor(
    text: string,
    readonly file: string,
    parsed?: ParsedYaml,
  ) {
    text = withLineFeeds(text);
    this.text = text;
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes > limitValue("scenarioBytes")) {
      // Past the size limit nothing is parsed or even split into lines: one diagnostic, at once.
      this.lineStarts = [0];
      this.doc = parseDocument("");
      this.syntaxDiagnostics = [
        this.diagnostic([0, 0], "error", "limit-file-size", overLimitMessage("scenarioBytes", `The file is ${grouped(bytes)} bytes`)),
      ];
      this.treeWarnings = [];
      this.value = null;
      return;
    }
    this.lineStarts = [0, ...Array.from(text.matchAll(/\n/g), (m) => m.index + 1)];
    parsed ??= parseGuarded(text);
    this.doc = parsed.doc;
    const syntax = this.collectSyntaxErrors(parsed.errors);
    syntax.push(...this.unresolvedTags());
    const tree = syntax.length === 0 ? treeProblems(this.doc, text) : [];
    for (const problem of tree)
      if (problem.severity === "error") syntax.push(this.diagnostic(problem.offsets, "error", problem.code, problem.message));
    this.treeWarnings = tree.filter((p) => p.severity === "warning").map((p) => this.diagnostic(p.offsets, "warning", p.code, p.message));
    let value: unknown = null;
    if (syntax.length === 0) {
      try {
        value = parsed.toValue(MAX_ALIAS_COUNT);
      } catch (err) {
        syntax.push(this.aliasError(err));
      }
    }
    this.syntaxDiagnostics = syntax;
    this.value = value;
  }

  /** 0-based line and character of a source offset. */
  position(offset: number): Position {
    const at = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.lineStarts[mid] ?? 0) <= at) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: at - (this.lineStarts[low] ?? 0) };
  }

  /** The lines and characters of [start, end) source offsets. */
  range([start, end]: readonly [number, number]): Range {
    return { start: this.position(start), end: this.position(end) };
  }

  /** The lines and characters of a path's source range (rangeOf): where a lens or a `file:line:col` points. */
  rangeAt(path: Path, anchor: Anchor = "value"): Range {
    return this.range(this.rangeOf(path, anchor));
  }

  diagnostic(offsets: readonly [number, number], severity: Severity, code: string, message: string, data?: Diagnostic["data"]): Diagnostic {
    const [start, end] = offsets;
    const base = {
      file: this.file,
      range: this.range(offsets),
      offset: [start, end] as const,
      severity,
      code,
      message,
    };
    return data === undefined ? base : { ...base, data };
  }

  /**
   * The source range for a path. With "key" the key of the last pair on the path is underlined
   * (unknown keys, missing keys); with "value" the value node. A path that runs past what the
   * file contains falls back to the deepest node that exists.
   */
  rangeOf(path: Path, anchor: Anchor = "value"): [number, number] {
    const { node, pair, complete } = this.locate(path);
    const keyNode = pair && isScalar(pair.key) ? pair.key : null;
    if ((anchor === "key" || !complete || node === null) && keyNode?.range) {
      return this.firstLine(keyNode.range[0], keyNode.range[1]);
    }
    if (node?.range) {
      const [start, end] = node.range;
      // An empty value (`key:` with nothing after it) has a zero-width range; underline the key.
      if (end <= start && keyNode?.range) return this.firstLine(keyNode.range[0], keyNode.range[1]);
      return this.firstLine(start, end);
    }
    return this.firstLine(0, this.text.length);
  }

  /** Walks the path through maps, sequences and aliases, stopping at the deepest node found. */
  locate(path: Path): { node: Node | null; pair: Pair | null; complete: boolean } {
    let node: Node | null = this.resolveAlias(this.doc.contents);
    let pair: Pair | null = null;
    for (const segment of path) {
      if (isMap(node)) {
        const found = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
        if (!found) return { node, pair, complete: false };
        pair = found;
        node = this.resolveAlias(isNodeValue(found.value) ? found.value : null);
        if (node === null) return { node: null, pair, complete: true };
      } else if (isSeq(node) && typeof segment === "number") {
        const item: unknown = node.items[segment];
        if (!isNodeValue(item)) return { node, pair, complete: false };
        pair = null;
        node = this.resolveAlias(item);
      } else {
        return { node, pair, complete: false };
      }
    }
    return { node, pair, complete: true };
  }

  private resolveAlias(node: Node | null): Node | null {
    if (!isAlias(node)) return node;
    const target: unknown = node.resolve(this.doc);
    return isNodeValue(target) ? target : node;
  }

  /** Clamps [start, end) to the line `start` is on, without its trailing blanks. */
  private firstLine(start: number, end: number): [number, number] {
    let stop = start;
    const limit = Math.min(end, this.text.length);
    while (stop < limit && this.text[stop] !== "\n" && this.text[stop] !== "\r") stop++;
    while (stop > start && /[ \t]/.test(this.text[stop - 1] ?? "")) stop--;
    return [start, stop];
  }

  /** Syntax errors, one per line (the YAML parser often reports a cascade on the same line). */
  private collectSyntaxErrors(errors: readonly YamlProblem[]): Diagnostic[] {
    const out: Diagnostic[] = [];
    const seenLines = new Set<number>();
    for (const error of errors) {
      const offsets = this.unclosedFlow(error) ?? this.restOfLine(error.pos[0]);
      const line = this.position(offsets[0]).line;
      if (seenLines.has(line)) continue;
      seenLines.add(line);
      if (isStackOverflow(error.message)) {
        out.push(this.diagnostic(offsets, "error", "limit-nesting-depth", nestingLimitMessage()));
        continue;
      }
      const code = error.code === "DUPLICATE_KEY" ? "yaml-duplicate-key" : "yaml-syntax";
      out.push(this.diagnostic(offsets, "error", code, syntaxMessage(error, this.text.slice(offsets[0], offsets[1]))));
    }
    return out;
  }

  /**
   * An unclosed `[` or `{` is noticed by the parser on the line after it: underline the bracket
   * that was left open, on its own line, instead.
   */
  private unclosedFlow(error: YamlProblem): [number, number] | null {
    const close = /Flow (sequence|map) .*end with an? ([\]}])/.exec(error.message)?.[2];
    if (close === undefined) return null;
    const open = close === "]" ? "[" : "{";
    let depth = 0;
    for (let i = Math.min(error.pos[0], this.text.length) - 1; i >= 0; i--) {
      const c = this.text[i];
      if (c === close) depth++;
      else if (c === open && depth-- === 0) return this.firstLine(i, this.text.length);
    }
    return null;
  }

  /**
   * From an error's offset to the end of its line. An error at the end of the input (an unclosed
   * bracket or quote) has nothing left on its line, so the last line with text is used instead.
   */
  private restOfLine(offset: number): [number, number] {
    const start = Math.max(0, Math.min(offset, this.text.length));
    const [from, to] = this.firstLine(start, this.text.length);
    if (to > from) return [from, to];
    const before = this.text.slice(0, start).replace(/\s+$/, "");
    if (before.length === 0) return [start, start];
    const lineStart = before.lastIndexOf("\n") + 1;
    const indent = before.slice(lineStart).search(/\S/);
    return [lineStart + Math.max(0, indent), before.length];
  }

  /** `!!int "abc"`: a standard tag that cannot apply to its value is an error, not text kept as it is. */
  private unresolvedTags(): Diagnostic[] {
    return this.doc.warnings
      .filter((w) => w.code === "TAG_RESOLVE_FAILED")
      .map((w) => {
        const [start, end] = w.pos;
        const tag = this.text.slice(start, end).trim();
        const kind = TAG_KINDS[tag.replace(/^!+/, "")] ?? `a ${tag}`;
        const message = `The tag ${tag} does not fit this value: it is not ${kind}. Remove the tag or fix the value.`;
        return this.diagnostic(this.firstLine(start, end), "error", "yaml-tag", message);
      });
  }

  /** toJS fails on an alias whose anchor is missing, or on too many alias expansions. */
  private aliasError(err: unknown): Diagnostic {
    const text = err instanceof Error ? err.message : String(err);
    const unresolved = /^Unresolved alias.*:\s*(\S+)\s*$/.exec(text)?.[1];
    const at = unresolved === undefined ? -1 : this.text.indexOf(`*${unresolved}`);
    if (unresolved !== undefined && at >= 0) {
      const message = `Unknown alias "*${unresolved}": no anchor "&${unresolved}" is defined before it.`;
      return this.diagnostic(this.firstLine(at, at + unresolved.length + 1), "error", "yaml-syntax", message);
    }
    const message = /alias/i.test(text) ? "Too many alias expansions in this file." : (text.split("\n")[0] ?? text);
    return this.diagnostic(this.restOfLine(0), "error", "yaml-syntax", message);
  }
}

/**
 * The YAML parser recurses once per nesting level; nesting deep enough to exhaust the stack is
 * reported as the nesting limit, never as JavaScript's "Maximum call stack size exceeded".
 */
function parseGuarded(text: string): ParsedYaml {
  try {
    return parseWhole(text);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    const doc = parseDocument("", { prettyErrors: false, uniqueKeys: true, logLevel: "error" });
    const at = deepestOpening(text);
    doc.errors.push(new YAMLParseError([at, at + 1], "BAD_INDENT", err.message));
    return { doc, errors: doc.errors, toValue: () => null };
  }
}

/** How the YAML core tags' values are named in messages. */
const TAG_KINDS: Readonly<Record<string, string>> = { int: "a whole number", float: "a number", bool: "true or false", null: "null" };

const isStackOverflow = (message: string): boolean => /Maximum call stack size exceeded/.test(message);

/** Where the text first reaches its deepest bracket nesting (quotes not excluded: a position for the message only). */
function deepestOpening(text: string): number {
  let depth = 0;
  let best = { depth: 0, at: 0 };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    if (depth > best.depth) best = { depth, at: i };
  }
  return best.at;
}

/**
 * Lone CR line breaks (old Mac files) as LF, character for character. YAML and the editor both
 * count a lone CR as a line break; the parser here does not, and would read the file as one line.
 */
export function withLineFeeds(text: string): string {
  return text.includes("\r") ? text.replace(/\r(?!\n)/g, "\n") : text;
}

function isNodeValue(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !isPair(value) && "range" in value;
}

/** yaml's messages, made one line and, for the common cases, said the way a person would. */
function syntaxMessage(error: YamlProblem, lineText: string): string {
  const first = (error.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "").trim();
  switch (error.code) {
    case "DUPLICATE_KEY": {
      const key = /^("[^"]*"|'[^']*'|[^:]+?)\s*:/.exec(lineText)?.[1];
      return key
        ? `Duplicate key ${key.startsWith('"') ? key : `"${key}"`}: each key may appear once.`
        : "Duplicate key: each key may appear once.";
    }
    case "TAB_AS_INDENT":
      return "Tabs are not allowed for indentation; use spaces.";
    case "MULTIPLE_DOCS":
      return "A scenario file holds one YAML document; remove the extra `---`.";
    case "BLOCK_AS_IMPLICIT_KEY":
      return 'This value cannot start a new mapping: quote it if it contains ": ", or fix the indentation.';
    case "UNEXPECTED_TOKEN":
      return "Unexpected text here; check the indentation of this line.";
    default:
      return first.length > 0 ? first : "Invalid YAML.";
  }
}
