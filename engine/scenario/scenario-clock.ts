// The `clock:` section: a frozen "now" and an IANA timezone, with the documented defaults.
import { isValidTimezone, toIso, type ScenarioClock } from "../world/clock.js";
import type { Reporter } from "./check-context.js";
import { obj, str } from "./raw.js";
import { closestMatch, didYouMean } from "./suggest.js";
import { parseAbsoluteTime } from "./time-expressions.js";

export const DEFAULT_TIMEZONE = "America/Los_Angeles";
export const DEFAULT_NOW = "2026-01-15T09:00:00";

export interface ResolvedClock extends ScenarioClock {
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
    if (parsed.ok) now = parsed;
    else reporter.report(["clock", "now"], "bad-time-expression", parsed.message);
  }
  const seconds = now.ok ? now.value : 0;
  return { now: seconds, timezone, now_iso: toIso(seconds, timezone) };
}

let timezones: readonly string[] | null = null;

function knownTimezones(): readonly string[] {
  timezones ??= [...Intl.supportedValuesOf("timeZone"), "UTC"];
  return timezones;
}
