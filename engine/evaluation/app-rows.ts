// Mean score and turn count per app (packs/<pack>/apps.ts), the way the category table is made:
// a scenario counts once under each app its reference uses. DialogTool breaks its figures down by
// app; this is that view of a milestone run. Each row has a 95% bootstrap interval of its mean.
import { scenarioMeanInterval, type Interval } from "./statistics/intervals.js";
export interface AppScored {
  readonly apps: readonly string[];
  readonly score: number;
  readonly turn_count: number;
}

export interface AppRow {
  readonly app: string;
  readonly scenarios: number;
  readonly score: number;
  /** 95% bootstrap interval of the mean score over the app's scenarios. */
  readonly interval: Interval | null;
  readonly turn_count: number;
}

/** One row per app that some scenario uses, by name. */
export function aggregateByApp(results: readonly AppScored[]): AppRow[] {
  const members = new Map<string, AppScored[]>();
  for (const r of results) {
    for (const app of new Set(r.apps)) {
      const list = members.get(app) ?? [];
      list.push(r);
      members.set(app, list);
    }
  }
  return [...members.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([app, rows]) => {
      const scores = rows.map((r) => r.score);
      return {
        app,
        scenarios: rows.length,
        score: scores.reduce((a, b) => a + b, 0) / rows.length,
        interval: scenarioMeanInterval(scores),
        turn_count: rows.reduce((n, r) => n + r.turn_count, 0) / rows.length,
      };
    });
}
