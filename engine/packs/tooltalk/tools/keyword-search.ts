// The search SearchInbox and SearchMessages share: at least one filter, keywords matched with
// "any" or "all", an inclusive date range, items dated after the frozen clock ignored, newest
// first, at most five.
import type { NaiveDateTime } from "../../../tools/python-datetime.js";
import type { Row } from "../../../world/types.js";
import { apiException, arg, type Kwargs } from "./api.js";
import { pyContains, pyEquals, pyLower, pySplit, pyTruthy } from "./python-semantics.js";
import { DATETIME_FORMAT, compareNaive, strptime } from "./strptime.js";

const SEARCH_LIMIT = 5;

export const SEARCH_ERRORS = [
  "At least one of query, sender, start_date, end_date must be provided.",
  'match_type must be either "any" or "all".',
  "Start date must be earlier than end date.",
] as const;

interface SearchColumns {
  /** When the item arrived, %Y-%m-%d %H:%M:%S. */
  readonly date: string;
  readonly sender: string;
  /** The texts a keyword may occur in. */
  readonly text: readonly string[];
}

/** The matching items among `rows` (one user's items in stored order), newest first, at most five. */
export function keywordSearch(rows: readonly Row[], args: Kwargs, now: NaiveDateTime, columns: SearchColumns): Row[] {
  const [query, sender, startText, endText] = [arg(args, "query"), arg(args, "sender"), arg(args, "start_date"), arg(args, "end_date")];
  if (query === null && sender === null && startText === null && endText === null) throw apiException(SEARCH_ERRORS[0]);
  const matchType = arg(args, "match_type", "any");
  if (!pyContains(["any", "all"], matchType)) throw apiException(SEARCH_ERRORS[1]);
  const start = startText === null ? null : strptime(startText, DATETIME_FORMAT);
  const end = endText === null ? null : strptime(endText, DATETIME_FORMAT);
  if (start && end && compareNaive(start, end) > 0) throw apiException(SEARCH_ERRORS[2]);
  // An empty query filters nothing; a query of only spaces has no keywords, so "any" finds nothing.
  const keywords = pyTruthy(query) ? pySplit(pyLower(query)) : null;

  const found: { row: Row; date: NaiveDateTime }[] = [];
  for (const row of rows) {
    const date = strptime(row[columns.date] ?? null, DATETIME_FORMAT);
    if (compareNaive(now, date) < 0) continue;
    if (sender !== null && !pyEquals(sender, row[columns.sender])) continue;
    if (start && compareNaive(start, date) > 0) continue;
    if (end && compareNaive(end, date) < 0) continue;
    if (keywords !== null) {
      const texts = columns.text.map((column) => pyLower(row[column] ?? null));
      const hits = keywords.map((keyword) => texts.some((text) => text.includes(keyword)));
      if (!(pyEquals(matchType, "any") ? hits.some(Boolean) : hits.every(Boolean))) continue;
    }
    found.push({ row, date });
  }
  // Python's sort(reverse=True) is stable: items of the same time keep their stored order.
  found.sort((a, b) => compareNaive(b.date, a.date));
  return found.slice(0, SEARCH_LIMIT).map((f) => f.row);
}
