// United States federal holidays as upstream's search_holiday sees them: the Python `holidays`
// package at the version upstream pins (0.51), country "US", no subdivision, with its names, its
// "observed" days and its history, because the agent reads those names and the fuzzy match runs
// against them.
//
// Each holiday is a fixed day or the nth (or last) weekday of a month, from the year it began;
// several moved to Mondays in 1971. The rules, as that version of the package has them:
//   New Year's Day, Independence Day, Christmas Day  Jan 1, Jul 4, Dec 25, from 1871; observed
//   Martin Luther King Jr. Day                       3rd Monday of January, from 1986
//   Washington's Birthday                            Feb 22 from 1879; 3rd Monday of February from 1971
//   Memorial Day                                     May 30 from 1888; last Monday of May from 1971
//   Juneteenth National Independence Day             Jun 19, from 2021; observed
//   Labor Day                                        1st Monday of September, from 1894
//   Columbus Day                                     Oct 12 from 1937; 2nd Monday of October from 1971
//   Armistice Day, Veterans Day from 1954            Nov 11 from 1938, observed; 4th Monday of
//                                                    October (not observed) in 1971-1977
//   Thanksgiving                                     4th Thursday of November, from 1871
// They are computed here rather than taken from a holiday library: the one used before
// (date-holidays) carried every country's calendar, lunar astronomy included, which was 30% of
// the CLI's bundle, and had none of this history.
//
// Observed days: a holiday marked observed that falls on a Saturday is also observed on the Friday
// before, and on a Sunday on the Monday after, named "<name> (observed)", when that day is in the
// same year. A Saturday New Year's Day is observed on December 31 of the year before, and so
// belongs to that year's list (from 1871); which is also why the package fails for year 9999: it
// builds January 1 of the year 10000.
import { ToolError } from "../../../tools/types.js";

interface Holiday {
  /** YYYY-MM-DD */
  readonly date: string;
  readonly name: string;
}

interface FederalDay extends Holiday {
  /** The nearest weekday, for a holiday that is observed and falls on a weekend. */
  readonly observed: string | undefined;
}

const MONDAY = 1;
const THURSDAY = 4;

/** A UTC date; setUTCFullYear, because Date.UTC reads years 0 to 99 as 1900 to 1999. */
function dayOf(year: number, month: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

/** The nth given weekday of a month (months 1-based; n = -1: the last). */
function nthWeekday(year: number, month: number, weekday: number, n: number): Date {
  if (n > 0) {
    const first = dayOf(year, month, 1);
    return dayOf(year, month, 1 + ((weekday - first.getUTCDay() + 7) % 7) + 7 * (n - 1));
  }
  const last = dayOf(year, month + 1, 0);
  return dayOf(year, month, last.getUTCDate() - ((last.getUTCDay() - weekday + 7) % 7));
}

function federalHolidays(year: number): readonly FederalDay[] {
  const days: FederalDay[] = [];
  const add = (name: string, date: Date, observed = false): void =>
    void days.push({ date: isoDate(date), name, observed: observed ? observedDate(date) : undefined });
  const modern = year >= 1971;
  if (year >= 1871) add("New Year's Day", dayOf(year, 1, 1), true);
  if (year >= 1986) add("Martin Luther King Jr. Day", nthWeekday(year, 1, MONDAY, 3));
  if (year >= 1879) add("Washington's Birthday", modern ? nthWeekday(year, 2, MONDAY, 3) : dayOf(year, 2, 22));
  if (year >= 1888) add("Memorial Day", modern ? nthWeekday(year, 5, MONDAY, -1) : dayOf(year, 5, 30));
  if (year >= 2021) add("Juneteenth National Independence Day", dayOf(year, 6, 19), true);
  if (year >= 1871) add("Independence Day", dayOf(year, 7, 4), true);
  if (year >= 1894) add("Labor Day", nthWeekday(year, 9, MONDAY, 1));
  if (year >= 1937) add("Columbus Day", modern ? nthWeekday(year, 10, MONDAY, 2) : dayOf(year, 10, 12));
  if (year >= 1938) {
    const name = year >= 1954 ? "Veterans Day" : "Armistice Day";
    if (year >= 1971 && year <= 1977) add(name, nthWeekday(year, 10, MONDAY, 4));
    else add(name, dayOf(year, 11, 11), true);
  }
  if (year >= 1871) add("Thanksgiving", nthWeekday(year, 11, THURSDAY, 4));
  if (year >= 1871) add("Christmas Day", dayOf(year, 12, 25), true);
  return days;
}

function isoDate(d: Date): string {
  const pad = (n: number, width: number) => String(n).padStart(width, "0");
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
}

/** The weekday-adjusted day off for a holiday on a weekend, or undefined on a weekday. */
function observedDate(date: Date): string | undefined {
  const day = new Date(date);
  const weekday = day.getUTCDay();
  if (weekday === 6) day.setUTCDate(day.getUTCDate() - 1);
  else if (weekday === 0) day.setUTCDate(day.getUTCDate() + 1);
  else return undefined;
  return isoDate(day);
}

/** The US holidays of `year` with upstream's names, observed days included, in date order. */
export function usHolidays(year: number): Holiday[] {
  // The Python package builds date(year, ...), and from 1871 date(year + 1, 1, 1) for the next
  // New Year's Day: outside datetime's years it fails.
  if (year < 1 || year > 9999) throw new ToolError("ValueError", `year ${year} is out of range`);
  if (year === 9999) throw new ToolError("ValueError", "year 10000 is out of range");
  const holidays = federalHolidays(year);
  const inYear = (date: string | undefined): date is string => date?.startsWith(String(year).padStart(4, "0")) === true;
  const observed: Holiday[] = [];
  for (const h of holidays) if (inYear(h.observed)) observed.push({ date: h.observed, name: `${h.name} (observed)` });
  if (year >= 1871) {
    const date = observedDate(dayOf(year + 1, 1, 1));
    if (inYear(date)) observed.push({ date, name: "New Year's Day (observed)" });
  }
  return [...holidays.map(({ date, name }) => ({ date, name })), ...observed].sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : 0,
  );
}
