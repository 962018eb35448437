// A tool call as a person types it: `search_contacts(name="Fredrik", limit=3)`, keyword arguments
// with Python or JSON literals. The Debug Console (engine/debug/console.ts) dry-runs such a line and
// `toolsandbox play --as agent` (engine/roles/human.ts) sends it; both read it here. Only literals
// are read, never evaluated: nothing typed is run as code.
import type { JsonValue } from "../base/json.js";

/** A line that is not a well-formed call; the message names the column of the arguments. */
export class CallLineError extends Error {
  override readonly name = "CallLineError";
}

/** A line of the form `name(...)`: the name and the text between the parentheses; null for any other line. */
export function splitCallLine(line: string): { readonly name: string; readonly argumentText: string } | null {
  const call = /^([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)\s*$/.exec(line.trim());
  return call ? { name: call[1]!, argumentText: call[2]! } : null;
}

/** The line that calls `name` with `args`: JSON literals, which parseArguments reads back to the same values. */
export function callLineText(name: string, args: Readonly<Record<string, JsonValue>>): string {
  return `${name}(${Object.entries(args)
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
    .join(", ")})`;
}

const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" };

/** `name="Fredrik", limit=3, on=True`: Python-style keyword arguments with literal values. */
export function parseArguments(text: string): Record<string, JsonValue> {
  const parser = new LiteralParser(text);
  const args: Record<string, JsonValue> = {};
  parser.skipSpace();
  while (!parser.done()) {
    const key = parser.name();
    parser.expect("=");
    if (key in args) throw new CallLineError(`the argument ${key} is given twice`);
    args[key] = parser.value();
    parser.skipSpace();
    if (parser.done()) break;
    parser.expect(",");
    parser.skipSpace();
  }
  return args;
}

class LiteralParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  done(): boolean {
    return this.pos >= this.text.length;
  }

  skipSpace(): void {
    while (/\s/.test(this.text[this.pos] ?? "")) this.pos++;
  }

  expect(c: string): void {
    this.skipSpace();
    if (this.text[this.pos] !== c) throw new CallLineError(`expected "${c}" at column ${this.pos + 1} of the arguments`);
    this.pos++;
  }

  name(): string {
    this.skipSpace();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.text.slice(this.pos));
    if (!m) throw new CallLineError(`expected an argument name at column ${this.pos + 1} of the arguments (write name=value)`);
    this.pos += m[0].length;
    return m[0];
  }

  value(): JsonValue {
    this.skipSpace();
    const c = this.text[this.pos];
    if (c === '"' || c === "'") return this.string(c);
    if (c === "[") return this.list();
    if (c === "{") return this.object();
    const m = /^(?:-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|True|False|None|true|false|null)/.exec(this.text.slice(this.pos));
    if (!m) throw new CallLineError(`expected a value at column ${this.pos + 1} of the arguments`);
    this.pos += m[0].length;
    const word = m[0];
    if (word === "True" || word === "true") return true;
    if (word === "False" || word === "false") return false;
    if (word === "None" || word === "null") return null;
    return Number(word);
  }

  private string(quote: string): string {
    let out = "";
    this.pos++;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (c === quote) {
        this.pos++;
        return out;
      }
      if (c === "\\" && this.pos + 1 < this.text.length) {
        const next = this.text[this.pos + 1]!;
        // JSON's \uXXXX, so a line written by callLineText (JSON.stringify) reads back as it was.
        const hex = next === "u" ? /^[0-9a-fA-F]{4}/.exec(this.text.slice(this.pos + 2)) : null;
        if (hex) {
          out += String.fromCharCode(Number.parseInt(hex[0], 16));
          this.pos += 6;
          continue;
        }
        out += ESCAPES[next] ?? next;
        this.pos += 2;
        continue;
      }
      out += c;
      this.pos++;
    }
    throw new CallLineError("a string in the arguments is not closed");
  }

  private list(): JsonValue[] {
    const items: JsonValue[] = [];
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return items;
    }
    for (;;) {
      items.push(this.value());
      this.skipSpace();
      if (this.text[this.pos] === "]") {
        this.pos++;
        return items;
      }
      this.expect(",");
    }
  }

  private object(): { [key: string]: JsonValue } {
    const out: { [key: string]: JsonValue } = {};
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      const c = this.text[this.pos];
      const key = c === '"' || c === "'" ? this.string(c) : this.name();
      this.expect(":");
      out[key] = this.value();
      this.skipSpace();
      if (this.text[this.pos] === "}") {
        this.pos++;
        return out;
      }
      this.expect(",");
    }
  }
}
