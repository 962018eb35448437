// The scenario clock: a frozen "now" and an IANA timezone. Every tool that reads the time or
// converts between timestamps and calendar fields uses this, never the machine's clock or TZ,
// so expected values do not drift with the date or the machine.
import { DateTime } from "luxon";

export interface ScenarioClock {
  /** POSIX seconds (may have a fraction). */
  readonly now: number;
  /** IANA timezone name, e.g. "America/Los_Angeles". */
  readonly timezone: string;
}

export interface CalendarFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Monday = 1 ... Sunday = 7. */
  isoweekday: number;
}

export function isValidTimezone(zone: string): boolean {
  return DateTime.now().setZone(zone).isValid;
}

/** Calendar fields of a timestamp in the clock's timezone (seconds truncated like Python's fromtimestamp). */
export function toCalendar(timestamp: number, timezone: string): CalendarFields {
  const dt = DateTime.fromMillis(Math.floor(timestamp) * 1000, { zone: timezone });
  return { year: dt.year, month: dt.month, day: dt.day, hour: dt.hour, minute: dt.minute, second: dt.second, isoweekday: dt.weekday };
}

/** The timestamp of local calendar fields in a timezone, or an error text like Python's datetime. */
export function fromCalendar(
  f: { year: number; month: number; day: number; hour: number; minute: number; second: number },
  timezone: string,
): number {
  const dt = DateTime.fromObject(
    { year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: f.second },
    { zone: timezone },
  );
  if (!dt.isValid) throw new Error(dt.invalidExplanation ?? "invalid date");
  return dt.toMillis() / 1000;
}

/** ISO 8601 rendering of a timestamp in the clock's timezone, with its offset. */
export function toIso(timestamp: number, timezone: string): string {
  return DateTime.fromMillis(Math.round(timestamp * 1000), { zone: timezone }).toISO({ suppressMilliseconds: true }) ?? "";
}

/** Parses an ISO date-time; one without an offset is read in `timezone`. Returns null when invalid. */
export function parseIso(text: string, timezone: string): number | null {
  const dt = DateTime.fromISO(text, { zone: timezone, setZone: false });
  return dt.isValid ? dt.toMillis() / 1000 : null;
}
