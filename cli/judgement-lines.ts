// The role-play judge's verdict as `eval` and `replay` print it: the judge, the overall score, and
// one row per criterion with its score and the judge's reason (or the one-line failure).
import type { JudgementEvent } from "../engine/trajectory/events.js";

/** What `eval --json` gives per trajectory: the verdict without its telemetry (the run's files keep that). */
export type JudgementReport = Omit<JudgementEvent, "type" | "call">;

export function judgementReport(judgement: JudgementEvent): JudgementReport {
  const { type: _type, call: _call, ...report } = judgement;
  return report;
}

/** "role play  judged by openai:gpt-4o: 4.25 of 5" and the criteria table under it. */
export function judgementLines(judgement: JudgementEvent): string[] {
  const head = `role play  judged by ${judgement.judge}`;
  if (judgement.failure !== undefined || judgement.overall === null) return [`${head}: no verdict: ${judgement.failure ?? "no scores"}`];
  const width = Math.max("CRITERION".length, ...judgement.criteria.map((c) => c.id.length));
  return [
    `${head}: ${judgement.overall.toFixed(2)} of 5`,
    `${"CRITERION".padEnd(width)}  SCORE  REASON`,
    ...judgement.criteria.map((c) => `${c.id.padEnd(width)}  ${String(c.score).padEnd(5)}  ${oneLine(c.reason)}`),
  ];
}

/** A reason is the model's text: kept on one line so the table stays a table. */
const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();
