// The `clock:` section: a frozen "now" and an IANA timezone, with the documented defaults.
import { isValidTimezone, toIso, type ScenarioClock } from "../world/clock.js";
import type { Reporter } from "./check-context.js";
import { obj, str } from "./raw.js";
import { closestMatch, didYouMean } from "./suggest.js";
import { parseAbsoluteTime } from "./time-expressions.js";

export const DEFAULT_TIMEZONE = "America/Los_Angeles";
export const DEFAULT_NOW = "2026-01-15T09:00:00";

/**
 * The clock stays within the years 1 to 9999 (UTC), the range of Python's datetime that upstream's
 * tools compute with; past it there is no date to show (`now_iso` would be empty) or compute on.
 */
const EARLIEST_NOW = -62_135_596_800; // 0001-01-01T00:00:00Z
const LATEST_NOW = 253_402_300_799; // 9999-12-31T23:59:59Z
const OUT_OF_RANGE =
  "The clock must be between the years 1 and 9999: write a date such as 2026-01-15T09:00:00, or a timestamp in that range.";

interface ResolvedClock extends ScenarioClock {
  readonly now_iso: string;
}

/** The clock; an invalid part is reported and replaced by its default so checking can go on. */
export function resolveClock(reporter: Reporter, raw: unknown): ResolvedClock {
  const clock = obj(raw);
  let timezone = DEFAULT_TIMEZONE;
  const zone = str(clock?.timezone);
  if (zone !== null) {
    if (isValidTimezone(zone)) {
      timezone = zone;
    } else {
      const suggestion = closestMatch(zone, knownTimezones());
      reporter.report(["clock", "timezone"], "unknown-timezone", `Unknown timezone "${zone}".${didYouMean(suggestion)}`, {
        data: suggestion === null ? undefined : { suggestion },
      });
    }
  }
  let now = parseAbsoluteTime(DEFAULT_NOW, timezone);
  const rawNow = clock?.now;
  if (typeof rawNow === "string" || typeof rawNow === "number") {
    const parsed = parseAbsoluteTime(rawNow, timezone);
    if (!parsed.ok) reporter.report(["clock", "now"], "bad-time-expression", parsed.message);
    else if (parsed.value < EARLIEST_NOW || parsed.value > LATEST_NOW)
      reporter.report(["clock", "now"], "clock-out-of-range", OUT_OF_RANGE);
    else now = parsed;
  }
  const seconds = now.ok ? now.value : 0;
  return { now: seconds, timezone, now_iso: toIso(seconds, timezone) };
}

let timezones: readonly string[] | null = null;

function knownTimezones(): readonly string[] {
  timezones ??= [...Intl.supportedValuesOf("timeZone"), "UTC"];
  return timezones;
}
