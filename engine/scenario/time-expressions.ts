// Time expressions: how a scenario writes a timestamp relative to its frozen clock, so expected
// values never drift with the date or the machine. Resolved to POSIX seconds when loading.
//
//   1767000000            POSIX seconds
//   now, now + 1d 2h, now - 3d4h5m6s         (units w d h m s)
//   today, today 17:00, tomorrow 17:00:30, yesterday 09:30   (local time in the clock's zone)
//   next friday, next friday 17:00           (the coming Friday: today when today is a Friday)
//   2026-11-22T17:00:00, 2026-11-22 17:00, 2026-11-22T17:00:00Z, 2026-11-22T17:00:00+01:00, 2026-11-22
import { DateTime } from "luxon";
import { parseIso, type ScenarioClock } from "../world/clock.js";
import { closestMatch } from "./suggest.js";

type TimeResult =
  | { readonly ok: true; readonly value: number }
  | { readonly ok: false; readonly message: string; readonly suggestion?: string };

const UNIT_SECONDS: Readonly<Record<string, number>> = { w: 604800, d: 86400, h: 3600, m: 60, s: 1 };
const RELATIVE = /^now(?:\s*([+-])\s*((?:\d+\s*[wdhms]\s*)+))?$/i;
const DURATION_PART = /(\d+)\s*([wdhms])/gi;
const DAY_RELATIVE = /^(today|tomorrow|yesterday)(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/i;
const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;
const WEEKDAY_RELATIVE = /^next\s+([a-z]+)(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/i;
const DAY_OFFSETS: Readonly<Record<string, number>> = { today: 0, tomorrow: 1, yesterday: -1 };
/** Luxon's ISO weekday numbers (Monday = 1), as upstream's `isoweekday()`. */
const WEEKDAYS: Readonly<Record<string, number>> = { monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6, sunday: 7 };
const KEYWORDS = ["now", "today", "tomorrow", "yesterday", "next"];

const HELP = 'Write POSIX seconds, "now - 2h", "tomorrow 17:00", "next friday 17:00" or an ISO date-time like "2026-11-22T17:00:00".';

export function parseTimeExpression(input: string | number, clock: ScenarioClock): TimeResult {
  if (typeof input === "number") {
    return Number.isFinite(input) ? { ok: true, value: input } : { ok: false, message: "A timestamp must be a finite number." };
  }
  const text = input.trim().replace(/\s+/g, " ");
  const relative = RELATIVE.exec(text);
  if (relative) {
    const [, sign, duration] = relative;
    if (sign === undefined || duration === undefined) return { ok: true, value: clock.now };
    let seconds = 0;
    for (const part of duration.matchAll(DURATION_PART)) {
      seconds += Number(part[1]) * (UNIT_SECONDS[(part[2] ?? "s").toLowerCase()] ?? 0);
    }
    return { ok: true, value: sign === "-" ? clock.now - seconds : clock.now + seconds };
  }
  const dayRelative = DAY_RELATIVE.exec(text);
  if (dayRelative) return dayRelativeTime(dayRelative, clock);
  const weekdayRelative = WEEKDAY_RELATIVE.exec(text);
  if (weekdayRelative) return dayRelativeTime(weekdayRelative, clock);
  if (ISO.test(text)) return parseAbsoluteTime(text, clock.timezone);
  return unknownForm(text);
}

/** An absolute time (ISO date-time or date, or POSIX seconds): what `clock.now` accepts. */
export function parseAbsoluteTime(input: string | number, timezone: string): TimeResult {
  if (typeof input === "number") return parseTimeExpression(input, { now: 0, timezone });
  const text = input.trim();
  if (!ISO.test(text)) {
    return {
      ok: false,
      message: `"${text}" is not an ISO date-time. Write e.g. "2026-11-22T17:00:00" (read in the clock's timezone) or "2026-11-22T17:00:00Z".`,
    };
  }
  const value = parseIso(text.replace(" ", "T"), timezone);
  if (value === null) {
    const explanation = DateTime.fromISO(text.replace(" ", "T"), { zone: timezone }).invalidExplanation;
    return { ok: false, message: `"${text}" is not a valid date-time${explanation ? `: ${explanation}` : ""}.` };
  }
  return { ok: true, value };
}

/**
 * Resolved day-relative times, by clock and text. Each one costs several time-zone lookups in
 * luxon (about 20 µs), and a world of many rows repeats the same few ("tomorrow 17:00"); the
 * language server re-checks the whole file on every edit. Bounded: cleared when full.
 */
const dayRelativeCache = new Map<string, TimeResult>();
const DAY_RELATIVE_CACHE_SIZE = 1024;

function dayRelativeTime(match: RegExpExecArray, clock: ScenarioClock): TimeResult {
  const key = `${clock.now}|${clock.timezone}|${match[0]}`;
  const known = dayRelativeCache.get(key);
  if (known) return known;
  const result = resolveDayRelativeTime(match, clock);
  if (dayRelativeCache.size >= DAY_RELATIVE_CACHE_SIZE) dayRelativeCache.clear();
  dayRelativeCache.set(key, result);
  return result;
}

/**
 * Handles both day-relative forms: `today|tomorrow|yesterday [time]` and `next <weekday> [time]`.
 * "next friday" is the coming Friday counting today (0 to 6 days ahead), the way upstream's
 * scenarios compute "next Friday" from the current weekday.
 */
function resolveDayRelativeTime(match: RegExpExecArray, clock: ScenarioClock): TimeResult {
  const [text, word = "today", h, m, s] = match;
  const hour = h === undefined ? 0 : Number(h);
  const minute = m === undefined ? 0 : Number(m);
  const second = s === undefined ? 0 : Number(s);
  if (hour > 23 || minute > 59 || second > 59) {
    return { ok: false, message: `"${match[0]}" has no valid time of day; use HH:MM or HH:MM:SS from 00:00 to 23:59:59.` };
  }
  const today = DateTime.fromMillis(Math.floor(clock.now * 1000), { zone: clock.timezone }).startOf("day");
  let offset = DAY_OFFSETS[word.toLowerCase()] ?? 0;
  if (/^next\s/i.test(text)) {
    const weekday = WEEKDAYS[word.toLowerCase()];
    if (weekday === undefined) {
      const suggestion = closestMatch(word.toLowerCase(), Object.keys(WEEKDAYS));
      const fixed = suggestion === null ? undefined : text.replace(word, suggestion);
      return {
        ok: false,
        message: `"${word}" is not a weekday.${fixed === undefined ? ' Write e.g. "next friday 17:00".' : ` Did you mean "${fixed}"?`}`,
        ...(fixed === undefined ? {} : { suggestion: fixed }),
      };
    }
    offset = (((weekday - today.weekday) % 7) + 7) % 7;
  }
  const day = today.plus({ days: offset });
  const at = day.set({ hour, minute, second, millisecond: 0 });
  return { ok: true, value: at.toMillis() / 1000 };
}

/** Not any known form: suggest the keyword when the leading word is a near miss ("tomorow 17:00"). */
function unknownForm(text: string): TimeResult {
  const [, word = "", rest = ""] = /^([a-z]*)(.*)$/i.exec(text) ?? [];
  const keyword = word.length > 0 ? closestMatch(word, KEYWORDS) : null;
  if (keyword !== null && keyword !== word.toLowerCase()) {
    const suggestion = `${keyword}${rest}`;
    if (parseTimeExpression(suggestion, { now: 0, timezone: "UTC" }).ok) {
      return { ok: false, message: `"${text}" is not a time expression. Did you mean "${suggestion}"?`, suggestion };
    }
  }
  return { ok: false, message: `"${text}" is not a time expression. ${HELP}` };
}
