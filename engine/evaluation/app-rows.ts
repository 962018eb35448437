// Mean score and turn count per app (packs/<pack>/apps.ts), the way the category table is made:
// a scenario counts once under each app its reference uses. DialogTool breaks its figures down by
// app; this is that view of a milestone run.
export interface AppScored {
  readonly apps: readonly string[];
  readonly score: number;
  readonly turn_count: number;
}

export interface AppRow {
  readonly app: string;
  readonly scenarios: number;
  readonly score: number;
  readonly turn_count: number;
}

/** One row per app that some scenario uses, by name. */
export function aggregateByApp(results: readonly AppScored[]): AppRow[] {
  const sums = new Map<string, { n: number; score: number; turns: number }>();
  for (const r of results) {
    for (const app of new Set(r.apps)) {
      const s = sums.get(app) ?? { n: 0, score: 0, turns: 0 };
      sums.set(app, { n: s.n + 1, score: s.score + r.score, turns: s.turns + r.turn_count });
    }
  }
  return [...sums.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([app, s]) => ({ app, scenarios: s.n, score: s.score / s.n, turn_count: s.turns / s.n }));
}
