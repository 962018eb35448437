// The scenario clock: a frozen "now" and an IANA timezone. Every tool that reads the time or
// converts between timestamps and calendar fields uses this, never the machine's clock or TZ,
// so expected values do not drift with the date or the machine. (Python-exact calendar
// arithmetic for the tools lives in engine/tools/python-datetime.ts.)
import { DateTime } from "luxon";

export interface ScenarioClock {
  /** POSIX seconds (may have a fraction). */
  readonly now: number;
  /** IANA timezone name, e.g. "America/Los_Angeles". */
  readonly timezone: string;
}

export function isValidTimezone(zone: string): boolean {
  return DateTime.fromMillis(0, { zone: "UTC" }).setZone(zone).isValid;
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
