// JSON values as they cross every boundary (files, HTTP, tool arguments and results).
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * How deeply `value` nests arrays and objects (a scalar is 0, `[]` is 1), counted without
 * recursion and given up on past `stopAt`: a value nested thousands of levels deep (which
 * JSON.parse accepts) overflows the stack of every recursive walk, JSON.stringify included.
 */
export function jsonDepth(value: unknown, stopAt = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [v, depth] = next;
    if (typeof v !== "object" || v === null) continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (deepest > stopAt) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, here]);
  }
  return deepest;
}

/** JSON text of a JSON value however deeply it nests (JSON.stringify overflows the stack first). */
export function jsonTextOfDeep(value: unknown): string {
  let out = "";
  // Work items: a value to write, or a literal piece of text (a comma, a key, a closing bracket).
  const work: ({ readonly text: string } | { readonly value: unknown })[] = [{ value }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    if ("text" in item) {
      out += item.text;
      continue;
    }
    const v = item.value;
    if (Array.isArray(v)) {
      out += "[";
      work.push({ text: "]" });
      for (let i = v.length - 1; i >= 0; i--) {
        work.push({ value: v[i] });
        if (i > 0) work.push({ text: "," });
      }
    } else if (typeof v === "object" && v !== null) {
      const entries = Object.entries(v);
      out += "{";
      work.push({ text: "}" });
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        work.push({ value: child });
        work.push({ text: `${i > 0 ? "," : ""}${JSON.stringify(key)}:` });
      }
    } else out += JSON.stringify(v) ?? "null";
  }
  return out;
}
