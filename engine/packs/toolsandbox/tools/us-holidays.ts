// United States federal holidays as upstream's search_holiday sees them: the Python `holidays`
// package (0.51), country "US", no subdivision. The dates come from date-holidays; names and the
// "observed" days follow the Python package, because the agent reads those names and the fuzzy
// match runs against them.
//
// Name mapping (date-holidays -> Python holidays):
//   "Juneteenth"                      -> "Juneteenth National Independence Day"
//   "Thanksgiving Day"                -> "Thanksgiving"
//   "Labour Day" (its "en" spelling)  -> "Labor Day"
//   New Year's Day, Martin Luther King Jr. Day, Washington's Birthday, Memorial Day,
//   Independence Day, Columbus Day, Veterans Day, Christmas Day: same name.
// Anything else date-holidays lists as public for the US is not a federal holiday upstream and is
// dropped.
//
// Observed days: for New Year's Day, Juneteenth, Independence Day, Veterans Day and Christmas Day,
// a Saturday holiday is also observed on the Friday before and a Sunday one on the Monday after,
// named "<name> (observed)". A Saturday New Year's Day is observed on December 31 of the year
// before, and so belongs to that year's list. (date-holidays' own substitute days are ignored: it
// has none for Veterans Day.)
//
// Historical rules: Martin Luther King Jr. Day from 1986 and Juneteenth from 2021, as upstream.
// Other rule changes before 1971 (when several holidays moved to Mondays) are not modelled; those
// years get today's rules.
import Holidays from "date-holidays";
import { ToolError } from "../../../tools/types.js";

export interface Holiday {
  /** YYYY-MM-DD */
  readonly date: string;
  readonly name: string;
}

const PYTHON_NAMES: Readonly<Record<string, string>> = {
  "New Year's Day": "New Year's Day",
  "Martin Luther King Jr. Day": "Martin Luther King Jr. Day",
  "Washington's Birthday": "Washington's Birthday",
  "Memorial Day": "Memorial Day",
  Juneteenth: "Juneteenth National Independence Day",
  "Independence Day": "Independence Day",
  "Labor Day": "Labor Day",
  "Labour Day": "Labor Day",
  "Columbus Day": "Columbus Day",
  "Veterans Day": "Veterans Day",
  "Thanksgiving Day": "Thanksgiving",
  "Christmas Day": "Christmas Day",
};

const FIRST_YEAR: Readonly<Record<string, number>> = {
  "Martin Luther King Jr. Day": 1986,
  "Juneteenth National Independence Day": 2021,
};

const OBSERVED: ReadonlySet<string> = new Set([
  "New Year's Day",
  "Juneteenth National Independence Day",
  "Independence Day",
  "Veterans Day",
  "Christmas Day",
]);

const calendar = new Holidays("US", { types: ["public"] });

/** date-holidays takes milliseconds to work a year out, and a year's holidays never change. */
const federalByYear = new Map<number, readonly Holiday[]>();

function federalHolidays(year: number): readonly Holiday[] {
  const known = federalByYear.get(year);
  if (known) return known;
  const out: Holiday[] = [];
  for (const h of calendar.getHolidays(year)) {
    if (h.substitute) continue;
    const name = PYTHON_NAMES[h.name];
    if (name === undefined || year < (FIRST_YEAR[name] ?? year)) continue;
    out.push({ date: h.date.slice(0, 10), name });
  }
  federalByYear.set(year, out);
  return out;
}

function utcDate(iso: string): Date {
  return new Date(`${iso}T00:00:00Z`);
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The weekday-adjusted day off for a holiday on a weekend, or undefined on a weekday. */
function observedDate(iso: string): string | undefined {
  const day = utcDate(iso);
  const weekday = day.getUTCDay();
  if (weekday === 6) day.setUTCDate(day.getUTCDate() - 1);
  else if (weekday === 0) day.setUTCDate(day.getUTCDate() + 1);
  else return undefined;
  return isoDate(day);
}

/** The US holidays of `year` with upstream's names, observed days included, in date order. */
export function usHolidays(year: number): Holiday[] {
  // The Python package builds date(year, ...) and fails outside datetime's range.
  if (year < 1 || year > 9999) throw new ToolError("ValueError", `year ${year} is out of range`);
  const holidays = federalHolidays(year);
  const observed: Holiday[] = [];
  for (const h of holidays) {
    const date = OBSERVED.has(h.name) ? observedDate(h.date) : undefined;
    if (date?.startsWith(String(year).padStart(4, "0"))) observed.push({ date, name: `${h.name} (observed)` });
  }
  if (year < 9999) {
    const nextNewYear = federalHolidays(year + 1).find((h) => h.name === "New Year's Day");
    const date = nextNewYear ? observedDate(nextNewYear.date) : undefined;
    if (date?.startsWith(String(year).padStart(4, "0"))) observed.push({ date, name: "New Year's Day (observed)" });
  }
  return [...holidays, ...observed].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
