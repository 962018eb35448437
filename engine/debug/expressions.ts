// The debugger's expressions: breakpoint conditions, Watch and the Debug Console. A small language
// parsed here and evaluated over plain values, so nothing the author types is ever run as code
// (no eval, no Function). It has literals, dotted paths, comparisons, &&, || and !; see
// docs/debugging.md for what the names mean.
//
// A path into a table's column (`CONTACT.name`) stands for that column in every row: a comparison
// holds when it holds for any row, so `SETTING.cellular == false` reads naturally for a one-row
// table and `CONTACT.name == "Fredrik"` asks "is there such a contact". `!=` is the negation of
// `==` (no row has the value).
import { closestMatch, didYouMean } from "../scenario/suggest.js";

/** A value an expression works with: JSON-like data, or a table column read across its rows. */
export type ExprValue = null | boolean | number | string | readonly ExprValue[] | { readonly [key: string]: ExprValue } | ColumnValues;

/** A column read across every row of a table: comparisons hold when one row's value does. */
export class ColumnValues {
  constructor(
    readonly table: string,
    readonly column: string,
    readonly values: readonly ExprValue[],
  ) {}
}

/** What a name at the start of a path refers to; undefined for a name that means nothing here. */
export type NameResolver = (name: string) => ExprValue | undefined;

export class ExpressionError extends Error {
  override readonly name = "ExpressionError";
}

type Node =
  | { readonly kind: "literal"; readonly value: ExprValue }
  | { readonly kind: "path"; readonly root: string; readonly steps: readonly (string | number)[] }
  | { readonly kind: "not"; readonly operand: Node }
  | { readonly kind: "and" | "or"; readonly left: Node; readonly right: Node }
  | { readonly kind: "compare"; readonly op: CompareOp; readonly left: Node; readonly right: Node };

type CompareOp = "==" | "!=" | "<" | "<=" | ">" | ">=";

type Token =
  | { readonly kind: "op"; readonly text: string; readonly at: number }
  | { readonly kind: "name"; readonly text: string; readonly at: number }
  | { readonly kind: "number"; readonly value: number; readonly at: number }
  | { readonly kind: "string"; readonly value: string; readonly at: number };

const OPERATORS = ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")", ".", "[", "]"] as const;
/** Longer than any expression an author writes by hand; keeps a hostile watch from costing much. */
const MAX_LENGTH = 2000;

function tokenize(text: string): Token[] {
  if (text.length > MAX_LENGTH) throw new ExpressionError(`the expression is longer than ${MAX_LENGTH} characters`);
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const { value, end } = readString(text, i);
      tokens.push({ kind: "string", value, at: i });
      i = end;
      continue;
    }
    const number = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(text.slice(i));
    // A minus sign starts a number only where a value may start (never right after a name or ")").
    if (number && (c !== "-" || valueMayStart(tokens))) {
      tokens.push({ kind: "number", value: Number(number[0]), at: i });
      i += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(i));
    if (name) {
      tokens.push({ kind: "name", text: name[0], at: i });
      i += name[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (op === undefined) throw new ExpressionError(`unexpected "${c}" at column ${i + 1}`);
    tokens.push({ kind: "op", text: op, at: i });
    i += op.length;
  }
  return tokens;
}

function valueMayStart(tokens: readonly Token[]): boolean {
  const last = tokens[tokens.length - 1];
  return last === undefined || (last.kind === "op" && last.text !== ")" && last.text !== "]");
}

const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", "\\": "\\", '"': '"', "'": "'" };

function readString(text: string, start: number): { value: string; end: number } {
  const quote = text[start]!;
  let value = "";
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === quote) return { value, end: i + 1 };
    if (c === "\\") {
      const next = text[i + 1];
      if (next === undefined) break;
      value += ESCAPES[next] ?? next;
      i += 2;
      continue;
    }
    value += c;
    i++;
  }
  throw new ExpressionError(`the string starting at column ${start + 1} is not closed`);
}

/** Parses an expression; throws ExpressionError naming the column of the first problem. */
export function parseExpression(text: string): Expression {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const isOp = (t: Token | undefined, op: string): boolean => t?.kind === "op" && t.text === op;
  const where = (t: Token | undefined): string => (t === undefined ? "at the end" : `at column ${t.at + 1}`);
  const expect = (op: string): void => {
    if (!isOp(peek(), op)) throw new ExpressionError(`expected "${op}" ${where(peek())}`);
    pos++;
  };

  const primary = (): Node => {
    const t = peek();
    if (t === undefined) throw new ExpressionError("the expression ends where a value should follow");
    pos++;
    if (t.kind === "number" || t.kind === "string") return { kind: "literal", value: t.value };
    if (t.kind === "op" && t.text === "(") {
      const inner = or();
      expect(")");
      return inner;
    }
    if (t.kind === "name") {
      if (t.text === "true" || t.text === "True") return { kind: "literal", value: true };
      if (t.text === "false" || t.text === "False") return { kind: "literal", value: false };
      if (t.text === "null" || t.text === "None") return { kind: "literal", value: null };
      const steps: (string | number)[] = [];
      for (;;) {
        if (isOp(peek(), ".")) {
          pos++;
          const key = peek();
          if (key?.kind !== "name") throw new ExpressionError(`expected a name after "." ${where(key)}`);
          steps.push(key.text);
          pos++;
        } else if (isOp(peek(), "[")) {
          pos++;
          const key = peek();
          if (key?.kind === "number" && Number.isInteger(key.value)) steps.push(key.value);
          else if (key?.kind === "string") steps.push(key.value);
          else throw new ExpressionError(`expected a whole number or a string in [ ] ${where(key)}`);
          pos++;
          expect("]");
        } else break;
      }
      return { kind: "path", root: t.text, steps };
    }
    throw new ExpressionError(`unexpected "${t.text}" ${where(t)}`);
  };

  const compare = (): Node => {
    const left = primary();
    const t = peek();
    if (t?.kind === "op" && ["==", "!=", "<", "<=", ">", ">="].includes(t.text)) {
      pos++;
      return { kind: "compare", op: t.text as CompareOp, left, right: primary() };
    }
    return left;
  };

  const not = (): Node => {
    if (isOp(peek(), "!")) {
      pos++;
      return { kind: "not", operand: not() };
    }
    return compare();
  };

  const and = (): Node => {
    let left = not();
    while (isOp(peek(), "&&")) {
      pos++;
      left = { kind: "and", left, right: not() };
    }
    return left;
  };

  const or = (): Node => {
    let left = and();
    while (isOp(peek(), "||")) {
      pos++;
      left = { kind: "or", left, right: and() };
    }
    return left;
  };

  if (tokens.length === 0) throw new ExpressionError("the expression is empty");
  const root = or();
  if (pos < tokens.length) throw new ExpressionError(`unexpected text ${where(peek())}`);
  return new Expression(text, root);
}

export class Expression {
  constructor(
    readonly text: string,
    private readonly root: Node,
  ) {}

  /** The value of the expression; throws ExpressionError for an unknown name or a missing field. */
  evaluate(resolve: NameResolver): ExprValue {
    return evaluateNode(this.root, resolve);
  }

  /** The expression as a condition: its value read as true or false. */
  holds(resolve: NameResolver): boolean {
    return truthy(this.evaluate(resolve));
  }
}

function evaluateNode(node: Node, resolve: NameResolver): ExprValue {
  switch (node.kind) {
    case "literal":
      return node.value;
    case "path":
      return evaluatePath(node.root, node.steps, resolve);
    case "not":
      return !truthy(evaluateNode(node.operand, resolve));
    case "and":
      return truthy(evaluateNode(node.left, resolve)) && truthy(evaluateNode(node.right, resolve));
    case "or":
      return truthy(evaluateNode(node.left, resolve)) || truthy(evaluateNode(node.right, resolve));
    case "compare":
      return compareValues(node.op, evaluateNode(node.left, resolve), evaluateNode(node.right, resolve));
  }
}

function evaluatePath(root: string, steps: readonly (string | number)[], resolve: NameResolver): ExprValue {
  let value = resolve(root);
  if (value === undefined) throw new ExpressionError(`unknown name "${root}"`);
  let shown = root;
  for (const step of steps) {
    value = stepInto(value, step, shown);
    shown += typeof step === "number" ? `[${step}]` : `.${step}`;
  }
  return value;
}

function stepInto(value: ExprValue, step: string | number, shown: string): ExprValue {
  if (value instanceof ColumnValues) {
    if (typeof step === "number") {
      const at = value.values[step];
      if (at === undefined) throw new ExpressionError(`${shown} has ${value.values.length} rows, so there is no row ${step}`);
      return at;
    }
    // A field of a structured cell (a tool call's arguments, say), read in every row.
    return new ColumnValues(
      value.table,
      `${value.column}.${step}`,
      value.values.map((v) => fieldOrNull(v, step)),
    );
  }
  if (Array.isArray(value)) {
    const rows = value as readonly ExprValue[];
    if (typeof step === "number") {
      const at = rows[step];
      if (at === undefined) throw new ExpressionError(`${shown} has ${rows.length} items, so there is no item ${step}`);
      return at;
    }
    if (step === "length") return rows.length;
    // `TABLE.column`: a list of rows read by a column name is that column across the rows.
    if (rows.length > 0 && rows.every((r) => isRecord(r) && Object.hasOwn(r, step))) {
      return new ColumnValues(
        shown,
        step,
        rows.map((r) => (r as Record<string, ExprValue>)[step]!),
      );
    }
    if (rows.length === 0) return new ColumnValues(shown, step, []);
    const columns = [...new Set(rows.flatMap((r) => (isRecord(r) ? Object.keys(r) : [])))];
    throw new ExpressionError(`the rows of ${shown} have no column "${step}".${didYouMean(closestMatch(step, columns))}`);
  }
  if (isRecord(value)) {
    const key = String(step);
    if (!Object.hasOwn(value, key)) {
      const known = Object.keys(value);
      const hint = didYouMean(closestMatch(key, known));
      throw new ExpressionError(
        `${shown} has no field "${key}"${known.length > 0 ? ` (it has: ${known.slice(0, 12).join(", ")})` : ""}${hint ? `.${hint}` : ""}`,
      );
    }
    return value[key]!;
  }
  if (typeof value === "string" && step === "length") return value.length;
  throw new ExpressionError(`${shown} is ${describeValue(value)}, which has no field "${step}"`);
}

function fieldOrNull(value: ExprValue, step: string): ExprValue {
  return isRecord(value) && Object.hasOwn(value, step) ? value[step]! : null;
}

function isRecord(value: ExprValue): value is { readonly [key: string]: ExprValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof ColumnValues);
}

function compareValues(op: CompareOp, left: ExprValue, right: ExprValue): boolean {
  if (op === "!=") return !compareValues("==", left, right);
  if (left instanceof ColumnValues) return left.values.some((v) => compareValues(op, v, right));
  if (right instanceof ColumnValues) return right.values.some((v) => compareValues(op, left, v));
  if (op === "==") return sameValue(left, right);
  // Order is defined between two numbers or two strings; anything else does not compare.
  if (!((typeof left === "number" && typeof right === "number") || (typeof left === "string" && typeof right === "string"))) return false;
  switch (op) {
    case "<":
      return left < right;
    case "<=":
      return left <= right;
    case ">":
      return left > right;
    case ">=":
      return left >= right;
  }
}

function sameValue(a: ExprValue, b: ExprValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    const x = a as readonly ExprValue[];
    const y = b as readonly ExprValue[];
    return x.length === y.length && x.every((v, i) => sameValue(v, y[i]!));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k]!, b[k]!));
  }
  return false;
}

function truthy(value: ExprValue): boolean {
  if (value instanceof ColumnValues) return value.values.some(truthy);
  if (Array.isArray(value)) return value.length > 0;
  return value !== null && value !== false && value !== 0 && value !== "";
}

function describeValue(value: ExprValue): string {
  if (value === null) return "null";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return "true or false";
  return "a value";
}

/** How a value prints in Watch and the Debug Console. */
export function formatValue(value: ExprValue): string {
  if (value instanceof ColumnValues) {
    return value.values.length === 1 ? formatValue(value.values[0]!) : `[${value.values.map(formatValue).join(", ")}]`;
  }
  return JSON.stringify(value) ?? "null";
}
