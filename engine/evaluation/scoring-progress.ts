// How far the scoring of one run has come, for a progress bar: the matcher fixes the milestones,
// then the minefields, one node at a time in list order (matching/index.ts, the tie-break), so
// "placed k of n" is a true fraction of the work left to the matcher's last phase. A match that
// runs two seconds or more also says what it is doing in its own words (matching/search.ts).
// The extension's scoring worker and the debugger's scoring thread both report through this.

export interface ScoringStep {
  /** Milestones and minefields placed so far: the milestones first, then the minefields. */
  readonly placed: number;
  /** How many there are in all. */
  readonly of: number;
  /** The milestones in `of`; the rest are minefields. */
  readonly milestones: number;
  /** The matcher's own line for a long match ("… 12 s so far, 3 of 5 placed"), else null. */
  readonly line: string | null;
}

export type ScoringProgressSink = (step: ScoringStep) => void;

/** "placed 3 of 12 milestones", "placed 14 of 15 milestones and minefields". */
export function scoringStepText(step: ScoringStep): string {
  const what = step.milestones === step.of ? "milestones" : step.milestones === 0 ? "minefields" : "milestones and minefields";
  return `placed ${step.placed} of ${step.of} ${what}`;
}
