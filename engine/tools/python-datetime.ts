// Python's naive local datetime semantics, with the scenario timezone standing in for the
// machine's. Upstream's time tools call `datetime.fromtimestamp`, do arithmetic on the naive
// result and call `.timestamp()` on it; across a DST change that arithmetic is wall-clock
// arithmetic, and an ambiguous or missing wall time is resolved the way CPython does (fold=0).
// Reproducing that here keeps tool answers identical to upstream for the same timezone, and
// independent of the machine's TZ.
import { DateTime } from "luxon";
import { ToolError } from "./types.js";

const SECONDS_PER_DAY = 86400;
const MICROS = 1_000_000;
const MIN_YEAR = 1;
const MAX_YEAR = 9999;
const TIME_T_LIMIT = 2 ** 63;

/** A naive (timezone-less) datetime as whole seconds since 1970-01-01T00:00 plus microseconds. */
export interface NaiveDateTime {
  readonly seconds: number;
  /** 0 <= micros < 1_000_000 */
  readonly micros: number;
}

/** UTC offset in seconds of `timezone` at the POSIX instant `seconds` (0 beyond luxon's range). */
function utcOffset(seconds: number, timezone: string): number {
  const dt = DateTime.fromMillis(seconds * 1000, { zone: timezone });
  return dt.isValid ? dt.offset * 60 : 0;
}

// Proleptic Gregorian day counts (H. Hinnant's civil calendar algorithms): exact for any year,
// where a date library would give up far outside the range tools normally see.
function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Python's round(): halves go to the even neighbour. */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** The six fields of a Python datetime, in its constructor's order. */
interface CalendarFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Calendar fields of a naive datetime (read as if it were UTC, which is what "naive" means). */
export function naiveFields(n: NaiveDateTime): CalendarFields & { isoweekday: number } {
  const days = Math.floor(n.seconds / SECONDS_PER_DAY);
  const rest = n.seconds - days * SECONDS_PER_DAY;
  return {
    ...civilFromDays(days),
    hour: Math.floor(rest / 3600),
    minute: Math.floor((rest % 3600) / 60),
    second: rest % 60,
    // 1970-01-01 was a Thursday (isoweekday 4).
    isoweekday: ((((days + 3) % 7) + 7) % 7) + 1,
  };
}

function yearOf(n: NaiveDateTime): number {
  return civilFromDays(Math.floor(n.seconds / SECONDS_PER_DAY)).year;
}

function checkYear(n: NaiveDateTime): NaiveDateTime {
  const year = yearOf(n);
  if (year < MIN_YEAR || year > MAX_YEAR) throw new ToolError("ValueError", `year ${year} is out of range`);
  return n;
}

/**
 * `datetime.fromtimestamp(timestamp)`: the local wall time in `timezone`. Like CPython, the
 * fraction is rounded to whole microseconds (half to even) before the calendar fields are taken.
 */
export function fromTimestamp(timestamp: number, timezone: string): NaiveDateTime {
  if (!(Math.abs(timestamp) < TIME_T_LIMIT)) throw new ToolError("OverflowError", "timestamp out of range for platform time_t");
  let whole = Math.trunc(timestamp);
  let micros = roundHalfEven((timestamp - whole) * MICROS);
  if (micros >= MICROS) {
    whole += 1;
    micros -= MICROS;
  } else if (micros < 0) {
    whole -= 1;
    micros += MICROS;
  }
  return checkYear({ seconds: whole + utcOffset(whole, timezone), micros });
}

/**
 * `naive.timestamp()` for fold=0: CPython's local_to_seconds. A wall time that occurs twice
 * (DST ends) maps to the earlier instant; one that does not exist (DST starts) is read with the
 * offset in force before the change.
 */
export function toTimestamp(n: NaiveDateTime, timezone: string): number {
  const t = n.seconds;
  const local = (u: number): number => u + utcOffset(u, timezone);
  const a = local(t) - t;
  const u1 = t - a;
  const t1 = local(u1);
  let b: number;
  if (t1 === t) {
    // One solution found; an earlier one exists when the offset a day before differs.
    const u2 = u1 - SECONDS_PER_DAY;
    b = local(u2) - u2;
    if (a === b) return u1 + n.micros / MICROS;
  } else {
    b = t1 - u1;
  }
  const u2 = t - b;
  if (local(u2) === t) return u2 + n.micros / MICROS;
  if (t1 === t) return u1 + n.micros / MICROS;
  // In the gap: neither offset reproduces t; fold=0 takes the later instant.
  return Math.max(u1, u2) + n.micros / MICROS;
}

/** `naive + timedelta(seconds=delta)`; the result must stay within Python's year range. */
export function addSeconds(n: NaiveDateTime, delta: number): NaiveDateTime {
  const shifted = { seconds: n.seconds + delta, micros: n.micros };
  const year = yearOf(shifted);
  if (year < MIN_YEAR || year > MAX_YEAR) throw new ToolError("OverflowError", "date value out of range");
  return shifted;
}

/** `later - earlier` as Python's normalised timedelta: days may be negative, 0 <= seconds < 86400. */
export function difference(later: NaiveDateTime, earlier: NaiveDateTime): { days: number; seconds: number; micros: number } {
  let seconds = later.seconds - earlier.seconds;
  let micros = later.micros - earlier.micros;
  if (micros < 0) {
    micros += MICROS;
    seconds -= 1;
  }
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  return { days, seconds: seconds - days * SECONDS_PER_DAY, micros };
}

const INT_MAX = 2 ** 31 - 1;
const INT_MIN = -(2 ** 31);
const LONG_LIMIT = 2 ** 63;

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/**
 * `datetime(year, month, day, hour, minute, second)` as a naive datetime, raising CPython's errors
 * in CPython's order (C int conversion first, then year, month, day, hour, minute, second).
 */
export function naiveFromFields(f: CalendarFields): NaiveDateTime {
  for (const value of [f.year, f.month, f.day, f.hour, f.minute, f.second]) {
    if (Math.abs(value) >= LONG_LIMIT) throw new ToolError("OverflowError", "Python int too large to convert to C long");
    if (value > INT_MAX) throw new ToolError("OverflowError", "signed integer is greater than maximum");
    if (value < INT_MIN) throw new ToolError("OverflowError", "signed integer is less than minimum");
  }
  if (f.year < MIN_YEAR || f.year > MAX_YEAR) throw new ToolError("ValueError", `year ${f.year} is out of range`);
  if (f.month < 1 || f.month > 12) throw new ToolError("ValueError", "month must be in 1..12");
  if (f.day < 1 || f.day > daysInMonth(f.year, f.month)) throw new ToolError("ValueError", "day is out of range for month");
  if (f.hour < 0 || f.hour > 23) throw new ToolError("ValueError", "hour must be in 0..23");
  if (f.minute < 0 || f.minute > 59) throw new ToolError("ValueError", "minute must be in 0..59");
  if (f.second < 0 || f.second > 59) throw new ToolError("ValueError", "second must be in 0..59");
  const days = daysFromCivil(f.year, f.month, f.day);
  return { seconds: days * SECONDS_PER_DAY + f.hour * 3600 + f.minute * 60 + f.second, micros: 0 };
}
