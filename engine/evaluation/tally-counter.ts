// Counting and ordering for `scenarioStats`: how often a key (a table, a column, a measure...) is
// checked by milestones and minefields, and the rankings that put rows in a fixed order.

/**
 * How often one thing (a table, a column, a measure...) is checked. A milestone or minefield
 * counts once however many of its constraints involve the thing; `constraints` counts every
 * constraint that does, in milestones and minefields alike (upstream's per-namespace and
 * per-function totals are constraint counts).
 */
export interface Tally {
  readonly scenarios: number;
  readonly milestones: number;
  readonly minefields: number;
  readonly constraints: number;
}

type Section = "milestones" | "minefields";

interface MutableTally {
  readonly scenarios: Set<number>;
  milestones: number;
  minefields: number;
  constraints: number;
}

const ZERO: Tally = { scenarios: 0, milestones: 0, minefields: 0, constraints: 0 };

/** Tallies keyed by a string; every add names the scenario and section it comes from. */
export class TallyCounter {
  private readonly tallies = new Map<string, MutableTally>();

  /** One node (milestone or minefield): each key once for the node, once per constraint naming it. */
  addNode(scenario: number, section: Section, keysPerConstraint: readonly (readonly string[])[]): void {
    for (const keys of keysPerConstraint) for (const key of new Set(keys)) this.tally(key).constraints += 1;
    for (const key of new Set(keysPerConstraint.flat())) {
      const t = this.tally(key);
      t[section] += 1;
      t.scenarios.add(scenario);
    }
  }

  get(key: string): Tally {
    const t = this.tallies.get(key);
    return t ? { scenarios: t.scenarios.size, milestones: t.milestones, minefields: t.minefields, constraints: t.constraints } : ZERO;
  }

  keys(): string[] {
    return [...this.tallies.keys()];
  }

  private tally(key: string): MutableTally {
    let t = this.tallies.get(key);
    if (!t) {
      t = { scenarios: new Set(), milestones: 0, minefields: 0, constraints: 0 };
      this.tallies.set(key, t);
    }
    return t;
  }
}

export type Ranking<T> = (a: T, b: T) => number;

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const most =
  <T>(count: (row: T) => number): Ranking<T> =>
  (a, b) =>
    count(b) - count(a);
export const least =
  <T>(rank: (row: T) => number): Ranking<T> =>
  (a, b) =>
    rank(a) - rank(b);
export const alphabetical =
  <T>(key: (row: T) => string): Ranking<T> =>
  (a, b) =>
    byCodeUnit(key(a), key(b));

/** The first ranking that tells two rows apart decides. */
export function ranked<T>(...rankings: readonly Ranking<T>[]): Ranking<T> {
  return (a, b) => {
    for (const ranking of rankings) {
      const d = ranking(a, b);
      if (d !== 0) return d;
    }
    return 0;
  };
}
