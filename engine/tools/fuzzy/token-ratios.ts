/**
 * The token-based ratios of rapidfuzz that WRatio combines: the sorted-token ratio, the set ratio
 * (shared words against each side's remainder), and the partial token ratio. Tokens are split on
 * whitespace and compared by code point, as Python sorts strings.
 */
import { type CodePoints, codePoints, indelDistance } from "./indel.js";
import { partialRatioOf, ratioOf } from "./ratios.js";

/** Python's str.isspace set, which is what `split()` splits on. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: Python's isspace counts the separators U+001C-U+001F as whitespace
const WHITESPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

function tokens(text: string): string[] {
  return text.split(WHITESPACE).filter((t) => t.length > 0);
}

function compareCodePoints(a: string, b: string): number {
  const x = codePoints(a);
  const y = codePoints(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return x.length - y.length;
}

function sortedJoin(words: Iterable<string>): CodePoints {
  return codePoints([...words].sort(compareCodePoints).join(" "));
}

/** 100 - 100 * distance / total, the form rapidfuzz uses for the set ratios. */
function percentFromDistance(distance: number, total: number): number {
  return total ? 100 - (100 * distance) / total : 100;
}

interface TokenSets {
  split1: string[];
  split2: string[];
  shared: string[];
  only1: string[];
  only2: string[];
}

function tokenSets(s1: string, s2: string): TokenSets {
  const split1 = tokens(s1);
  const split2 = tokens(s2);
  const set1 = new Set(split1);
  const set2 = new Set(split2);
  return {
    split1,
    split2,
    shared: [...set1].filter((t) => set2.has(t)),
    only1: [...set1].filter((t) => !set2.has(t)),
    only2: [...set2].filter((t) => !set1.has(t)),
  };
}

export function tokenSortRatio(s1: string, s2: string): number {
  return ratioOf(sortedJoin(tokens(s1)), sortedJoin(tokens(s2)));
}

/** The set part of the token ratios; `null` when one side has no tokens. */
function setRatio(t: TokenSets): number | null {
  if (t.split1.length === 0 || t.split2.length === 0) return null;
  if (t.shared.length > 0 && (t.only1.length === 0 || t.only2.length === 0)) return 100;
  const diff1 = sortedJoin(t.only1);
  const diff2 = sortedJoin(t.only2);
  const sharedLength = codePoints(t.shared.join(" ")).length;
  const separator = sharedLength > 0 ? 1 : 0;
  const withDiff1 = sharedLength + separator + diff1.length;
  const withDiff2 = sharedLength + separator + diff2.length;
  let result = percentFromDistance(indelDistance(diff1, diff2), withDiff1 + withDiff2);
  if (sharedLength === 0) return result;
  // The shared words against shared-plus-remainder differ only by the remainder's length.
  result = Math.max(
    result,
    percentFromDistance(separator + diff1.length, sharedLength + withDiff1),
    percentFromDistance(separator + diff2.length, sharedLength + withDiff2),
  );
  return result;
}

export function tokenSetRatio(s1: string, s2: string): number {
  return setRatio(tokenSets(s1, s2)) ?? 0;
}

/** The larger of the sorted-token ratio and the set ratio. */
export function tokenRatio(s1: string, s2: string): number {
  const t = tokenSets(s1, s2);
  const set = setRatio(t);
  if (set === 100) return 100;
  return Math.max(ratioOf(sortedJoin(t.split1), sortedJoin(t.split2)), set ?? 0);
}

/** partial_ratio of the sorted tokens, and of the words each side has alone; any shared word is 100. */
export function partialTokenRatio(s1: string, s2: string): number {
  const t = tokenSets(s1, s2);
  if (t.shared.length > 0) return 100;
  const result = partialRatioOf(sortedJoin(t.split1), sortedJoin(t.split2));
  // With no duplicate words the remainders are the sorted tokens again: same score.
  if (t.split1.length === t.only1.length && t.split2.length === t.only2.length) return result;
  return Math.max(result, partialRatioOf(sortedJoin(t.only1), sortedJoin(t.only2)));
}
