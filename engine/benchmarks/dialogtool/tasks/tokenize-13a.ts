// The '13a' tokenizer that sacrebleu 2.6.0 applies before BLEU (the WMT mteval-v13a rules).
// DialogTool's response-generation BLEU is reported with sacrebleu's defaults, so our tokens must
// be sacrebleu's tokens: one extra or missing split changes every n-gram count after it.

/**
 * What Python's `str.split()` and `str.rstrip()` treat as whitespace. It is not JavaScript's `\s`:
 * Python also counts the information separators U+001C..U+001F and NEL (U+0085), and does not
 * count the byte-order mark U+FEFF.
 */
const PYTHON_WHITESPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const WHITESPACE_RUN = new RegExp(`[${PYTHON_WHITESPACE}]+`, "u");
const TRAILING_WHITESPACE = new RegExp(`[${PYTHON_WHITESPACE}]+$`, "u");

/** Python's `text.split()`: runs of whitespace separate words; no empty words at either end. */
function splitOnPythonWhitespace(text: string): string[] {
  return text.split(WHITESPACE_RUN).filter((word) => word !== "");
}

/** Python's `text.rstrip()`. */
function trimEndPythonWhitespace(text: string): string {
  return text.replace(TRAILING_WHITESPACE, "");
}

// The four HTML entities mteval unescapes, in its order: `&amp;lt;` therefore ends up as `<`,
// because `&amp;` becomes `&` before `&lt;` is looked for.
const ENTITIES: readonly (readonly [string, string])[] = [
  ["&quot;", '"'],
  ["&amp;", "&"],
  ["&lt;", "<"],
  ["&gt;", ">"],
];

// The splitting rules, applied one after the other to the whole line (each a global replace, so
// a later rule sees the spaces an earlier one inserted):
// 1. ASCII symbols stand alone: space through '&', '(' through '+', '/', ':' through '@',
//    '[' through '`' and '{' through '~'. Not '\'' (apostrophes stay inside words), not '-', '.'
//    or ',' (they have rules of their own), and no letter or digit.
// 2. A period or comma after a non-digit is split off on both sides...
// 3. ...and one before a non-digit too, so only a mark between two digits (3.14, 1,000) stays.
// 4. A dash after a digit is split off ("2-3" → "2 - 3"); a dash between letters stays.
// The `u` flag makes "non-digit" one code point, as in Python, rather than half a surrogate pair.
const SPLIT_RULES: readonly (readonly [RegExp, string])[] = [
  [/([{-~[-`\x20-&(-+:-@/])/gu, " $1 "],
  [/([^0-9])([.,])/gu, "$1 $2 "],
  [/([.,])([^0-9])/gu, " $1 $2"],
  [/([0-9])(-)/gu, "$1 $2 "],
];

/**
 * One line as sacrebleu's default BLEU sees it, already split into tokens. `rstrip` comes first
 * (sacrebleu trims the segment before tokenizing), so a trailing "-\n" is not joined away.
 */
export function tokenize13a(segment: string): string[] {
  let line = trimEndPythonWhitespace(segment);
  // mteval's markers and line joins: a hyphen at a line end joins the two halves of a word.
  line = line.replaceAll("<skipped>", "").replaceAll("-\n", "").replaceAll("\n", " ");
  if (line.includes("&")) {
    for (const [entity, character] of ENTITIES) line = line.replaceAll(entity, character);
  }
  // Padding with spaces lets rules 2 and 3 see a neighbour at the line's first and last marks.
  line = ` ${line} `;
  for (const [pattern, replacement] of SPLIT_RULES) line = line.replace(pattern, replacement);
  return splitOnPythonWhitespace(line);
}
