// Short renderings of values for explanation notes: the panel shows them inline, so long text is cut.
const MAX_SHOWN = 40;

/** The value as JSON, cut to a readable length ("\"How's the new alb…\""). */
export function showValue(value: unknown): string {
  const text = value === undefined ? "nothing" : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** "1 new row", "2 new rows". */
export function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
