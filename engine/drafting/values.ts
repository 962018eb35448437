// The values that carry meaning between a run's turns: an id, a name, a phone number, a
// timestamp, a temperature. Short strings and small numbers ("ok", 1, true) are left out, since
// they turn up everywhere and would tie unrelated steps together.
import type { JsonValue } from "../base/json.js";

export type Telling = string | number;

/** Whether a leaf is specific enough to follow from one step to another. */
function isTelling(value: JsonValue): value is Telling {
  if (typeof value === "string") return value.trim().length >= 3;
  return typeof value === "number" && (Math.abs(value) >= 10 || !Number.isInteger(value));
}

/** The telling leaves of a value, each once, in the order met. */
export function tellingLeaves(value: JsonValue | undefined): Telling[] {
  const out: Telling[] = [];
  const walk = (v: JsonValue | undefined): void => {
    if (v === undefined || v === null) return;
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object") Object.values(v).forEach(walk);
    else if (isTelling(v) && !out.includes(v)) out.push(v);
  };
  walk(value);
  return out;
}

/** Whether the user's own words hold the value (then it is the user's, not a tool's). */
export function saidBy(texts: readonly string[], value: Telling): boolean {
  const needle = String(value).toLowerCase();
  return texts.some((t) => t.toLowerCase().includes(needle));
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * How a text states the value, as a whole token (not inside a longer word or number): the value
 * itself, or a number rounded to two or one decimals as people write them. Null when it does not.
 */
export function statedAs(text: string, value: Telling): string | null {
  const forms =
    typeof value === "number" && !Number.isInteger(value) ? [String(value), value.toFixed(2), value.toFixed(1)] : [String(value)];
  for (const form of forms) {
    const re = new RegExp(`(?:^|[^\\p{L}\\p{N}])(${escapeRegExp(form)})(?:$|[^\\p{L}\\p{N}])`, "iu");
    const found = re.exec(text);
    // The text's own spelling, so a case-sensitive `contains` finds it again.
    if (found) return found[1]!;
  }
  return null;
}
