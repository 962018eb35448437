// Turns a timestamp of an exported scenario back into the time expression it stands for. The
// exporter runs twice, under two clocks that differ in weekday and time of day; how a value moves
// between the runs says what upstream computed: a fixed distance from now ("now - 3d4h5m6s"), a
// time of day on a day relative to today ("tomorrow 17:00"), or on the coming weekday ("next
// friday 17:00"). A value that moves in none of these ways is written as an absolute date-time of
// the scenario clock and reported, since it would go stale if the clock changed.
import { DateTime } from "luxon";
import { toIso } from "../../../world/clock.js";

export interface Clock {
  readonly now: number;
  readonly timezone: string;
}

type TimeValue = { readonly expression: string | number; readonly exact: boolean };

const DAY_WORDS: Readonly<Record<number, string>> = { [-1]: "yesterday", 0: "today", 1: "tomorrow" };
const WEEKDAY_NAMES = ["", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** "3d4h5m6s" for 273906 seconds. */
function durationText(seconds: number): string {
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of [
    ["d", 86400],
    ["h", 3600],
    ["m", 60],
    ["s", 1],
  ] as const) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
  }
  return parts.join("");
}

function local(timestamp: number, timezone: string): DateTime {
  return DateTime.fromMillis(timestamp * 1000, { zone: timezone });
}

function timeOfDay(t: DateTime): string {
  const hm = `${String(t.hour).padStart(2, "0")}:${String(t.minute).padStart(2, "0")}`;
  return t.second === 0 ? hm : `${hm}:${String(t.second).padStart(2, "0")}`;
}

function dayOffset(t: DateTime, now: DateTime): number {
  return Math.round(t.startOf("day").diff(now.startOf("day"), "days").days);
}

/** The expression for a value `a` under clock `ca` that was `b` under clock `cb`. */
export function timeExpression(a: number, b: number, ca: Clock, cb: Clock): TimeValue {
  if (a === b) return { expression: a, exact: true };
  const delta = a - ca.now;
  if (delta === b - cb.now && Number.isInteger(delta)) {
    if (delta === 0) return { expression: "now", exact: true };
    return { expression: `now ${delta < 0 ? "-" : "+"} ${durationText(Math.abs(delta))}`, exact: true };
  }
  const la = local(a, ca.timezone);
  const lb = local(b, cb.timezone);
  const nowA = local(ca.now, ca.timezone);
  const nowB = local(cb.now, cb.timezone);
  const sameTime = Number.isInteger(a) && timeOfDay(la) === timeOfDay(lb) && la.millisecond === 0;
  if (sameTime) {
    const offset = dayOffset(la, nowA);
    const word = DAY_WORDS[offset];
    if (word !== undefined && offset === dayOffset(lb, nowB)) return { expression: `${word} ${timeOfDay(la)}`, exact: true };
    const aheadA = dayOffset(la, nowA);
    const aheadB = dayOffset(lb, nowB);
    if (la.weekday === lb.weekday && aheadA >= 0 && aheadA < 7 && aheadB >= 0 && aheadB < 7) {
      return { expression: `next ${WEEKDAY_NAMES[la.weekday]} ${timeOfDay(la)}`, exact: true };
    }
  }
  return { expression: toIso(a, ca.timezone), exact: false };
}
