// Problems found in a file, with positions. Lines and characters are 0-based like LSP; the CLI
// prints them 1-based. `code` is stable (the language server's quick fixes key on it).
export type Severity = "error" | "warning" | "info";

export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

export interface Diagnostic {
  readonly file: string;
  readonly range: Range;
  /** Source offsets [start, end) of the node, for editors that work in offsets. */
  readonly offset: readonly [number, number];
  readonly severity: Severity;
  readonly code: string;
  readonly message: string;
  /** For quick fixes: e.g. { suggestion: "phone_number" } or { insert: "after: []" }. */
  readonly data?: Readonly<Record<string, string | number | boolean | readonly string[]>>;
}

/** "file:line:col: severity code: message", 1-based, as compilers print. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code}: ${d.message}`;
}
