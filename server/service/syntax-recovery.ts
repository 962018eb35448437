// While a YAML syntax error exists, the checker can say nothing else: the document has no value.
// The editor should not lose every other finding while the author types, so the sections that
// still parse are checked on their own: the text is cut at its top-level keys, each section that
// holds a syntax error is replaced by the same section as it was in the last version that parsed
// (or by the bare key, when no version parsed yet, which the checker reads as absent), and that
// text is checked. Its findings inside the sections kept are moved back to where those sections
// are now; findings in a replaced section point at text that is not there, and are dropped.
//
// Replacing a broken section by its last good version keeps what the other sections depend on
// (the tools a milestone may name, the ids an `after:` names), so a section the author is not
// editing reports what it reported before the error, and no more.
import type { Diagnostic } from "../../engine/base/diagnostics.js";

/**
 * Past this size the second check is not run: it would double the cost of every keystroke while
 * the error stands, in the files where a check already takes longest.
 */
const RECOVERY_MAX_CHARS = 1_000_000;

/** A line that opens a top-level key: a plain or quoted-free key at column 0 followed by `:`. */
const TOP_LEVEL_KEY = /^([A-Za-z_$][A-Za-z0-9_$-]*)[ \t]*:(?=[ \t]|\r?\n|$)/;

interface Piece {
  /** The top-level key; null for what comes before the first key (comments). */
  readonly key: string | null;
  readonly text: string;
  readonly offset: number;
  readonly line: number;
}

/** The text cut at its top-level keys; null when it cannot be cut safely (content before the first key, a key twice). */
function cutAtTopLevelKeys(text: string): Piece[] | null {
  const pieces: Piece[] = [];
  const keys = new Set<string>();
  let offset = 0;
  let line = 0;
  let current: { key: string | null; start: number; line: number } = { key: null, start: 0, line: 0 };
  for (const lineText of text.split(/(?<=\n)/)) {
    const key = TOP_LEVEL_KEY.exec(lineText)?.[1];
    if (key !== undefined) {
      if (keys.has(key)) return null;
      keys.add(key);
      pieces.push({ key: current.key, text: text.slice(current.start, offset), offset: current.start, line: current.line });
      current = { key, start: offset, line };
    } else if (current.key === null && lineText.trim() !== "" && !lineText.trimStart().startsWith("#")) {
      // Content before the first key (a document marker, a directive, a bare value): not ours to cut.
      return null;
    }
    offset += lineText.length;
    line++;
  }
  pieces.push({ key: current.key, text: text.slice(current.start), offset: current.start, line: current.line });
  return pieces;
}

/**
 * The checker's findings in the sections without a syntax error. `syntax`: the syntax errors of
 * `text`; `lastParsed`: the last version of the document that had none (null: none yet); `check`:
 * the checker, run on the stitched text.
 */
export function findingsBesideSyntaxErrors(
  text: string,
  syntax: readonly Diagnostic[],
  lastParsed: string | null,
  check: (text: string) => readonly Diagnostic[],
): Diagnostic[] {
  if (text.length > RECOVERY_MAX_CHARS) return [];
  const pieces = cutAtTopLevelKeys(text);
  if (pieces === null) return [];
  const pieceAt = (line: number): number => pieces.findLastIndex((p) => p.line <= line);
  const broken = new Set(syntax.map((d) => pieceAt(d.range.start.line)));
  // A break before the first key, or in every section, leaves nothing to check.
  if (broken.has(0) && pieces[0]!.key === null && pieces[0]!.text !== "") return [];
  if (pieces.every((p, i) => p.key === null || broken.has(i))) return [];
  const before = lastParsed === null ? null : cutAtTopLevelKeys(lastParsed);
  const previous = new Map((before ?? []).map((p) => [p.key, p.text]));

  // The stitched text, and where each kept piece starts in it.
  let stitched = "";
  let stitchedLine = 0;
  const kept: { piece: Piece; offset: number; line: number; end: number }[] = [];
  for (const [i, piece] of pieces.entries()) {
    let part = piece.text;
    if (broken.has(i)) part = previous.get(piece.key) ?? `${piece.key ?? ""}:\n`;
    else kept.push({ piece, offset: stitched.length, line: stitchedLine, end: stitched.length + part.length });
    if (!part.endsWith("\n")) part += "\n";
    stitched += part;
    stitchedLine += part.split("\n").length - 1;
  }

  let found: readonly Diagnostic[];
  try {
    found = check(stitched);
  } catch {
    return [];
  }
  // The last good section may not fit the others any more (it was cut at other keys): then say nothing.
  if (found.some((d) => d.code.startsWith("yaml-"))) return [];
  const replaced = new Set(pieces.filter((_, i) => broken.has(i)).map((p) => p.key));
  const out: Diagnostic[] = [];
  for (const d of found) {
    // A broken section checked as absent is not missing: the author is typing in it.
    if (d.code === "schema-required" && replaced.has(String(d.data?.insert ?? ""))) continue;
    const home = kept.find((k) => d.offset[0] >= k.offset && d.offset[0] < k.end);
    if (home === undefined || d.offset[1] > home.end) continue;
    const lines = home.piece.line - home.line;
    const shift = home.piece.offset - home.offset;
    out.push({
      ...d,
      offset: [d.offset[0] + shift, d.offset[1] + shift],
      range: {
        start: { line: d.range.start.line + lines, character: d.range.start.character },
        end: { line: d.range.end.line + lines, character: d.range.end.character },
      },
    });
  }
  return out;
}
