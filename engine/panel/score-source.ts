// Where a shown score comes from: the run's own record, or a re-score against the scenario as it is
// written now, a version the run was not played with (their digests differ,
// engine/trajectory/scenario-digest.ts). A re-scored figure always says so beside it, with what the
// file recorded, so one run never shows two scores without saying why.

/** The evaluation shown is a re-score against another version of the scenario than the run played. */
export interface Rescored {
  /** The score the trajectory file records; null when it records none. */
  readonly recorded: number | null;
}

/** "re-scored against the scenario as it is now: 1.00; recorded 0.93" */
export function rescoredLabel(score: number, rescored: Rescored): string {
  const recorded = rescored.recorded === null ? "the file records no score" : `recorded ${rescored.recorded.toFixed(2)}`;
  return `re-scored against the scenario as it is now: ${score.toFixed(2)}; ${recorded}`;
}
