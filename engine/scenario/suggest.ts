// "Did you mean ...?" for misspelt keys, enum values, tool names, columns and ids.
import { distance } from "fastest-levenshtein";

/**
 * The candidate the author most likely meant, or null when nothing is close enough.
 * Close = a case-insensitive match, an edit distance small for the word's length, or (for
 * inputs of 4+ characters) a candidate that contains the input or is contained in it, e.g.
 * "send_message_with_phone_number" for "send_message", "Homer S" for "Homer Simpson".
 */
export function closestMatch(input: string, candidates: Iterable<string>): string | null {
  const needle = input.toLowerCase();
  let best: string | null = null;
  let bestDistance = Infinity;
  let bestContaining: string | null = null;
  let bestContainingDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === input) continue;
    const lower = candidate.toLowerCase();
    const d = lower === needle ? 0 : distance(needle, lower);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
    const contains = (needle.length >= 4 && lower.includes(needle)) || (lower.length >= 4 && needle.includes(lower));
    if (contains && d < bestContainingDistance) {
      bestContaining = candidate;
      bestContainingDistance = d;
    }
  }
  const allowed = Math.max(2, Math.floor(Math.max(needle.length, 1) / 3));
  if (best !== null && bestDistance <= allowed) return best;
  return bestContaining;
}

/** " Did you mean "x"?" or "", for the end of a message. */
export function didYouMean(suggestion: string | null): string {
  return suggestion === null ? "" : ` Did you mean "${suggestion}"?`;
}

/** A short human list: `a, b or c`, cut after `max` items. */
export function listOf(items: readonly string[], max = 8): string {
  const quoted = items.map((i) => `"${i}"`);
  if (quoted.length > max) return `${quoted.slice(0, max).join(", ")}, …`;
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}
