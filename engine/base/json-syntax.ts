// Where a JSON text stops being valid JSON. Node 20's JSON.parse often names the offending token
// without its position, so when a file fails to parse this scanner walks it by the grammar of
// RFC 8259 and returns the offset of the first character that cannot continue it.

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: RFC 8259 forbids unescaped U+0000-U+001F inside a string; the class names them
const STRING_BODY = /(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*/y;

class SyntaxStop {
  constructor(readonly offset: number) {}
}

class Scanner {
  private at = 0;
  constructor(private readonly text: string) {}

  private stop(): never {
    throw new SyntaxStop(this.at);
  }

  private skipWhitespace(): void {
    while (this.at < this.text.length && WHITESPACE.has(this.text[this.at]!)) this.at++;
  }

  private expect(ch: string): void {
    this.skipWhitespace();
    if (this.text[this.at] !== ch) this.stop();
    this.at++;
  }

  private sticky(pattern: RegExp): void {
    pattern.lastIndex = this.at;
    if (!pattern.test(this.text)) this.stop();
    this.at = pattern.lastIndex;
  }

  private string(): void {
    this.expect('"');
    this.sticky(STRING_BODY);
    if (this.text[this.at] !== '"') this.stop();
    this.at++;
  }

  private sequence(close: string, item: () => void): void {
    this.skipWhitespace();
    if (this.text[this.at] === close) {
      this.at++;
      return;
    }
    for (;;) {
      item();
      this.skipWhitespace();
      if (this.text[this.at] === close) {
        this.at++;
        return;
      }
      this.expect(",");
    }
  }

  value(): void {
    this.skipWhitespace();
    const ch = this.text[this.at];
    if (ch === "{") {
      this.at++;
      this.sequence("}", () => {
        this.string();
        this.expect(":");
        this.value();
      });
    } else if (ch === "[") {
      this.at++;
      this.sequence("]", () => this.value());
    } else if (ch === '"') this.string();
    else if (ch === "-" || (ch !== undefined && ch >= "0" && ch <= "9")) this.sticky(NUMBER);
    else {
      const literal = ["true", "false", "null"].find((word) => this.text.startsWith(word, this.at));
      if (literal === undefined) this.stop();
      this.at += literal.length;
    }
  }

  document(): void {
    this.value();
    this.skipWhitespace();
    if (this.at < this.text.length) this.stop();
  }
}

/** Offset of the first syntax error, or null when the text is valid JSON. */
export function jsonSyntaxErrorOffset(text: string): number | null {
  try {
    new Scanner(text).document();
    return null;
  } catch (error) {
    if (error instanceof SyntaxStop) return error.offset;
    if (error instanceof RangeError) return null; // nested too deep for the stack: no position
    throw error;
  }
}
