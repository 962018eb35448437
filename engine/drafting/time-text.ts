// Timestamps as an author writes them in a scenario: relative to the clock's frozen now
// ("now - 3d 4h", "now + 1h 30m"), so the draft reads like the samples and keeps meaning the same
// thing if the author moves the clock. Only whole seconds have such a form; any other value stays
// a number, so the draft resolves to exactly the run's value.

const UNITS: readonly [string, number][] = [
  ["d", 86400],
  ["h", 3600],
  ["m", 60],
  ["s", 1],
];

/** `value` as a time expression relative to `now`, or the number itself when the gap is not whole seconds. */
export function timeText(value: number, now: number): string | number {
  const gap = value - now;
  if (!Number.isInteger(gap)) return value;
  let rest = Math.abs(gap);
  if (rest === 0) return "now";
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
  }
  return `now ${gap < 0 ? "-" : "+"} ${parts.join(" ")}`;
}
