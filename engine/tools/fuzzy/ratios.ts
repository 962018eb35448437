/**
 * rapidfuzz's `default_process`, `ratio` and `partial_ratio`, rebuilt from their published
 * definitions so that our search tools keep and drop the same rows as upstream ToolSandbox, which
 * scores with rapidfuzz. Scores are floats in [0, 100], computed with the same arithmetic, so a
 * cutoff compares exactly as upstream's does. Golden values from the rapidfuzz wheel pin them
 * (test/tools/fuzzy-golden.test.ts).
 */
import { type CodePoints, PatternMasks, codePoints } from "./indel.js";

const ALPHANUMERIC = /[\p{L}\p{N}]/u;

/**
 * Every character that is not a letter or digit becomes a space, letters are lower-cased, and the
 * ends are trimmed. Inner runs of spaces stay, as in rapidfuzz.
 */
export function defaultProcess(text: string): string {
  let out = "";
  for (const ch of text) out += ALPHANUMERIC.test(ch) ? simpleLowerCase(ch) : " ";
  return out.replace(/^ +| +$/g, "");
}

/**
 * Lower-cases one character to one character (Unicode's simple mapping), as rapidfuzz does:
 * "İ" becomes "i", where the full mapping would add a combining dot.
 */
function simpleLowerCase(ch: string): string {
  const lower = ch.toLowerCase();
  return String.fromCodePoint(lower.codePointAt(0) as number);
}

/** Normalized Indel similarity in percent: (1 - distance / total length) * 100. */
function similarityPercent(lcs: number, len1: number, len2: number): number {
  const total = len1 + len2;
  const distance = total - 2 * lcs;
  return (1 - (total ? distance / total : 0)) * 100;
}

export function ratio(s1: string, s2: string): number {
  return ratioOf(codePoints(s1), codePoints(s2));
}

export function ratioOf(a: CodePoints, b: CodePoints): number {
  const [pattern, text] = a.length <= b.length ? [a, b] : [b, a];
  return similarityPercent(new PatternMasks(pattern).lcs(text), a.length, b.length);
}

/**
 * The best `ratio` of the shorter string against any alignment in the longer one, counting the
 * partial overlaps at both ends. With equal lengths both directions are tried.
 */
export function partialRatioOf(a: CodePoints, b: CodePoints): number {
  if (a.length === 0 || b.length === 0) return a.length === 0 && b.length === 0 ? 100 : 0;
  const [needle, haystack] = a.length <= b.length ? [a, b] : [b, a];
  let best = bestAlignment(needle, haystack);
  if (best !== 100 && a.length === b.length) best = Math.max(best, bestAlignment(haystack, needle));
  return best;
}

/**
 * Slides the needle over the haystack. A window whose new edge character does not occur in the
 * needle cannot beat its neighbour, so it is skipped, as rapidfuzz does.
 */
function bestAlignment(needle: CodePoints, haystack: CodePoints): number {
  const masks = new PatternMasks(needle);
  const len1 = needle.length;
  const len2 = haystack.length;
  let best = 0;
  const consider = (start: number, end: number): boolean => {
    const score = similarityPercent(masks.lcs(haystack, start, end), len1, end - start);
    if (score > best) best = score;
    return best === 100;
  };
  for (let i = 1; i < len1; i++) {
    if (masks.has(haystack[i - 1] as number) && consider(0, i)) return 100;
  }
  for (let i = 0; i < len2 - len1; i++) {
    if (masks.has(haystack[i + len1 - 1] as number) && consider(i, i + len1)) return 100;
  }
  for (let i = len2 - len1; i < len2; i++) {
    if (masks.has(haystack[i] as number) && consider(i, len2)) return 100;
  }
  return best;
}
