// United States federal holidays as upstream's search_holiday sees them: the Python `holidays`
// package (0.51), country "US", no subdivision, with its names and its "observed" days, because
// the agent reads those names and the fuzzy match runs against them.
//
// The eleven dates are the ones federal law fixes (5 U.S.C. 6103): a fixed day of the month, or
// the nth (or last) given weekday of a month. They are computed here rather than taken from a
// holiday library: the one used before (date-holidays) carried every country's calendar, lunar
// astronomy included, which was 30% of the CLI's bundle for these eleven rules. Its US rules are
// the same as the ones below for every year (checked over years 1 to 9999 when it was replaced).
//
// Observed days: for New Year's Day, Juneteenth, Independence Day, Veterans Day and Christmas Day,
// a Saturday holiday is also observed on the Friday before and a Sunday one on the Monday after,
// named "<name> (observed)". A Saturday New Year's Day is observed on December 31 of the year
// before, and so belongs to that year's list.
//
// Historical rules: Martin Luther King Jr. Day from 1986 and Juneteenth from 2021, as upstream.
// Other rule changes before 1971 (when several holidays moved to Mondays) are not modelled; those
// years get today's rules.
import { ToolError } from "../../../tools/types.js";

export interface Holiday {
  /** YYYY-MM-DD */
  readonly date: string;
  readonly name: string;
}

const MONDAY = 1;
const THURSDAY = 4;

/** How a holiday's date is found in a year: a fixed day, or the nth weekday of a month (n = -1: the last). */
type Rule =
  | { readonly name: string; readonly month: number; readonly day: number; readonly since?: number }
  | { readonly name: string; readonly month: number; readonly weekday: number; readonly nth: number; readonly since?: number };

/** In date order; months are 1-based. */
const FEDERAL: readonly Rule[] = [
  { name: "New Year's Day", month: 1, day: 1 },
  { name: "Martin Luther King Jr. Day", month: 1, weekday: MONDAY, nth: 3, since: 1986 },
  { name: "Washington's Birthday", month: 2, weekday: MONDAY, nth: 3 },
  { name: "Memorial Day", month: 5, weekday: MONDAY, nth: -1 },
  { name: "Juneteenth National Independence Day", month: 6, day: 19, since: 2021 },
  { name: "Independence Day", month: 7, day: 4 },
  { name: "Labor Day", month: 9, weekday: MONDAY, nth: 1 },
  { name: "Columbus Day", month: 10, weekday: MONDAY, nth: 2 },
  { name: "Veterans Day", month: 11, day: 11 },
  { name: "Thanksgiving", month: 11, weekday: THURSDAY, nth: 4 },
  { name: "Christmas Day", month: 12, day: 25 },
];

const OBSERVED: ReadonlySet<string> = new Set([
  "New Year's Day",
  "Juneteenth National Independence Day",
  "Independence Day",
  "Veterans Day",
  "Christmas Day",
]);

/** A UTC date; setUTCFullYear, because Date.UTC reads years 0 to 99 as 1900 to 1999. */
function dayOf(year: number, month: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

function dateOf(year: number, rule: Rule): Date {
  if ("day" in rule) return dayOf(year, rule.month, rule.day);
  if (rule.nth > 0) {
    const first = dayOf(year, rule.month, 1);
    const offset = (rule.weekday - first.getUTCDay() + 7) % 7;
    return dayOf(year, rule.month, 1 + offset + 7 * (rule.nth - 1));
  }
  const last = dayOf(year, rule.month + 1, 0);
  const back = (last.getUTCDay() - rule.weekday + 7) % 7;
  return dayOf(year, rule.month, last.getUTCDate() - back);
}

function federalHolidays(year: number): readonly Holiday[] {
  return FEDERAL.filter((rule) => year >= (rule.since ?? year)).map((rule) => ({ date: isoDate(dateOf(year, rule)), name: rule.name }));
}

function utcDate(iso: string): Date {
  return new Date(`${iso}T00:00:00Z`);
}

function isoDate(d: Date): string {
  const pad = (n: number, width: number) => String(n).padStart(width, "0");
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
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
