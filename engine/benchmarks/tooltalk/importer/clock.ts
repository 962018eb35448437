// The scenario clock of an imported conversation. ToolTalk's clock is a naive local time
// (`metadata.timestamp`), and its tools read "now" as the scenario clock's wall time in the
// scenario's timezone (engine/packs/tooltalk), so any timezone gives the tools the same now. The
// timezone of the user's location is chosen so the clock also reads right to people (in the
// panel, in trajectories); a location not listed here, or a wall time the zone skips (a
// daylight-saving gap), falls back to UTC, which has no gaps.
import { DateTime } from "luxon";

const ZONES: Readonly<Record<string, string>> = {
  "san francisco": "America/Los_Angeles",
  seattle: "America/Los_Angeles",
  "new york": "America/New_York",
  london: "Europe/London",
  paris: "Europe/Paris",
  tokyo: "Asia/Tokyo",
};

interface ImportedClock {
  /** ISO local date-time, "2023-09-11T09:00:00". */
  readonly now: string;
  readonly timezone: string;
}

/** `timestamp` is ToolTalk's `YYYY-MM-DD HH:MM:SS` (the reader checked the form). */
export function clockFor(timestamp: string, location: string): ImportedClock {
  const now = timestamp.replace(" ", "T");
  const zone = ZONES[location.trim().toLowerCase()];
  if (zone === undefined) return { now, timezone: "UTC" };
  const local = DateTime.fromISO(now, { zone });
  const keepsWallTime = local.isValid && local.toFormat("yyyy-MM-dd'T'HH:mm:ss") === now;
  return { now, timezone: keepsWallTime ? zone : "UTC" };
}
