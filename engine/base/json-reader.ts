// Reading untrusted JSON with the place of every problem: each reader knows its JSON path, and an
// error names the file, the line and column of the offending value and the path, in one line.
import { isMap, isSeq, parseDocument, type Node } from "yaml";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
import { jsonSyntaxErrorOffset } from "./json-syntax.js";

type PathSegment = string | number;

/** `$.conversation[3].apis[0]`; keys that are not identifiers are quoted. */
export function formatJsonPath(path: readonly PathSegment[]): string {
  let text = "$";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) text += `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** Bad JSON input (ToolTalk data, result files). `message` is the whole one-line report: `file:line:col: $.path: reason`. */
export class JsonInputError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly path: string | null,
  ) {
    super(message);
    this.name = "JsonInputError";
  }
}

/** 1-based line and column of an offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Offset of the value at `path`, or of its nearest ancestor that exists (a missing key is reported
 * at the object that lacks it). JSON is YAML, so yaml's parser gives the source ranges; this runs
 * only when there is an error to report.
 */
function offsetOf(text: string, path: readonly PathSegment[]): number {
  const doc = parseDocument(text, { logLevel: "silent" });
  let node: unknown = doc.contents;
  let offset = (node as Node | null)?.range?.[0] ?? 0;
  for (const segment of path) {
    let next: unknown;
    if (typeof segment === "number" && isSeq(node)) next = node.items[segment];
    else if (typeof segment === "string" && isMap(node)) next = node.get(segment, true);
    if (next === undefined || next === null) break;
    node = next;
    offset = (node as Node).range?.[0] ?? offset;
  }
  return offset;
}

/** Where a value came from, to point at it when it is wrong. */
export interface JsonSource {
  readonly file: string;
  readonly text: string;
}

function dataError(source: JsonSource, path: readonly PathSegment[], reason: string): JsonInputError {
  const { line, column } = lineAndColumn(source.text, offsetOf(source.text, path));
  const where = formatJsonPath(path);
  return new JsonInputError(`${source.file}:${line}:${column}: ${where}: ${reason}`, source.file, where);
}

/** JSON.parse, with the line and column of a syntax error where the scanner can place it. */
export function parseJsonText(source: JsonSource): JsonValue {
  try {
    return JSON.parse(source.text) as JsonValue;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const offset = jsonSyntaxErrorOffset(source.text);
    if (offset === null) throw new JsonInputError(`${source.file}: invalid JSON: ${reason}`, source.file, null);
    const { line, column } = lineAndColumn(source.text, offset);
    throw new JsonInputError(`${source.file}:${line}:${column}: invalid JSON: ${reason}`, source.file, null);
  }
}

function describe(value: JsonValue | undefined): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  const text = JSON.stringify(value);
  return `${typeof value} ${text.length > 40 ? `${text.slice(0, 37)}...` : text}`;
}

/** A value at a known path, with typed accessors that throw `JsonInputError` on a mismatch. */
export class JsonCursor {
  constructor(
    readonly source: JsonSource,
    readonly value: JsonValue | undefined,
    readonly path: readonly PathSegment[] = [],
  ) {}

  fail(reason: string): never {
    throw dataError(this.source, this.path, reason);
  }

  private expected(what: string): never {
    return this.fail(`expected ${what}, found ${describe(this.value)}`);
  }

  get exists(): boolean {
    return this.value !== undefined;
  }

  field(key: string): JsonCursor {
    const object = this.object();
    const value = Object.hasOwn(object, key) ? object[key] : undefined;
    return new JsonCursor(this.source, value, [...this.path, key]);
  }

  object(): JsonObject {
    return isJsonObject(this.value) ? this.value : this.expected("an object");
  }

  string(): string {
    return typeof this.value === "string" ? this.value : this.expected("a string");
  }

  optionalString(): string | undefined {
    return this.value === undefined ? undefined : this.string();
  }

  items(): JsonCursor[] {
    if (!Array.isArray(this.value)) return this.expected("an array");
    return this.value.map((item, i) => new JsonCursor(this.source, item, [...this.path, i]));
  }

  strings(): string[] {
    return this.items().map((item) => item.string());
  }

  /** A JSON value of any kind; `undefined` (absent) is reported as missing. */
  json(): JsonValue {
    return this.value === undefined ? this.fail("missing") : this.value;
  }
}
