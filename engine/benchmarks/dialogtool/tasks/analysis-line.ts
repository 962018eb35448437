// DialogTool's error analyses in one line, for the panel under its DialogTool totals: awareness
// false negatives and positives, selection recall, parse errors and unnecessary calls, the
// arguments missing, extra and mismatched by kind, and confirmation before transactional calls.
// Pure and import-free (types only), so the webview bundles it cheaply.
import type { DialogToolMetrics, Rate, Tally } from "./types.js";

const percent = (r: Rate): string => (r.rate === null ? "–" : `${Math.round(r.rate * 100)}%`);
const ratio = (t: Tally): string => (t.accuracy === null ? "–" : t.accuracy.toFixed(2));

/** "errors: awareness FN 0% FP 50% · selection recall 1.00, 0 parse errors, 1 unnecessary call · arguments ..." */
export function dialogToolAnalysisLine(m: DialogToolMetrics): string {
  const e = m.errors;
  const x = e.execution;
  const mm = x.mismatched;
  const s = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
  const parts = [
    `awareness FN ${percent(e.awareness.false_negatives)} FP ${percent(e.awareness.false_positives)}`,
    `selection recall ${ratio(e.selection.recall)}, ${s(e.selection.parse_errors, "parse error")}, ${s(e.selection.unnecessary_calls, "unnecessary call")}`,
    `arguments ${x.missing} missing, ${x.extra} extra, mismatched: date/time ${mm.date_time}, location ${mm.location}, number ${mm.number}, other ${mm.other}`,
  ];
  if (m.confirmation.total > 0) parts.push(`confirmation ${ratio(m.confirmation)}`);
  return `errors: ${parts.join(" · ")}`;
}
