// The run's offline web data as a scenario's `web:` section: nothing when it is the bundled data;
// per kind, the entries put before the bundled ones (`add`, what the checker does with `add`) or,
// when the bundled entries are not all there after them, the whole list (`replace`).
import type { JsonObject, JsonValue } from "../base/json.js";
import type { WebData } from "../tools/web-data.js";

const LISTS = ["places", "weather", "stocks"] as const;

export function webDiff(web: WebData, bundled: WebData): JsonObject | null {
  const out: Record<string, JsonValue> = {};
  for (const kind of LISTS) {
    const run = web[kind] as readonly unknown[];
    const base = bundled[kind] as readonly unknown[];
    if (same(run, base)) continue;
    const extra = run.length - base.length;
    const tail = extra >= 0 && base.every((entry, i) => same(entry, run[extra + i]));
    out[kind] = (tail ? { add: run.slice(0, extra) } : { replace: [...run] }) as JsonObject;
  }
  if (!same(web.exchange_rates, bundled.exchange_rates)) out.exchange_rates = web.exchange_rates as unknown as JsonObject;
  return Object.keys(out).length === 0 ? null : out;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
