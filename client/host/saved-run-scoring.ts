// The first score of a saved run that was written without an evaluation line (a run cut off, a
// file from another tool): it is scored against the scenario it embeds when it is opened. A short
// run is scored at once, in-process; a long one (WORKER_FROM_MESSAGES or more) in the scoring
// worker, so opening it never holds up the extension host: the panel shows the run at once and
// the score follows, and until then the job can be cancelled and says how far it has come. No VS
// Code here: the host passes how to show a job (a notification) and where to log.
import type { EvaluationResult } from "../../engine/evaluation/result.js";
import type { Trajectory } from "../../engine/trajectory/trajectory.js";
import type { RunStore } from "./run-store.js";
import { type BackgroundScorer, JobProgress, scoreSavedRun } from "./scoring-worker.js";

/** A saved run being scored in the worker, as the host shows it. */
export interface BackgroundScoring {
  readonly trajectoryPath: string;
  readonly messages: number;
  /** Settles when the job has ended: scored, failed or cancelled. */
  readonly done: Promise<void>;
  cancel(): void;
  readonly progress: JobProgress;
}

export class SavedRunScoring {
  /** The job in flight for each trajectory path; a newer read of the file cancels it. */
  private readonly jobs = new Map<string, AbortController>();

  constructor(
    private readonly store: RunStore,
    private readonly scorer: BackgroundScorer,
    private readonly warn: (line: string) => void,
    /** Called once for each job that goes to the worker (the host shows its progress with Cancel). */
    private readonly show: (job: BackgroundScoring) => void = () => {},
  ) {}

  /**
   * The evaluation to open the run with: the recorded one, a score computed now (a short run), or
   * null for a long run, which is scored in the worker and given to the store when done (if the
   * store still holds this same read of the file then). Call it before the store has the run.
   */
  evaluationOf(path: string, trajectory: Trajectory): EvaluationResult | null {
    this.jobs.get(path)?.abort();
    this.jobs.delete(path);
    if (trajectory.evaluation !== null) return trajectory.evaluation;
    if (!this.scorer.inWorker(trajectory.messages.length)) {
      const outcome = scoreSavedRun(trajectory);
      if (outcome.ok) return outcome.result;
      this.warn(`${path}: ${outcome.problem}`);
      return null;
    }
    this.inBackground(path, trajectory);
    return null;
  }

  /** Cancels every job in flight (the extension is deactivated). */
  dispose(): void {
    for (const job of this.jobs.values()) job.abort();
    this.jobs.clear();
  }

  private inBackground(path: string, trajectory: Trajectory): void {
    const control = new AbortController();
    this.jobs.set(path, control);
    const progress = new JobProgress();
    const scoring = this.scorer.score(trajectory, null, path, control.signal, progress.report);
    const done = scoring.then((outcome) => {
      if (this.jobs.get(path) === control) this.jobs.delete(path);
      if ("cancelled" in outcome) return;
      if (!outcome.ok) return this.warn(`${path}: ${outcome.problem}`);
      // The file was read again meanwhile: that read has its own score.
      if (this.store.trajectory(path) === trajectory) this.store.setEvaluation(path, outcome.result);
    });
    this.show({
      trajectoryPath: path,
      messages: trajectory.messages.length,
      done,
      cancel: () => control.abort(),
      progress,
    });
  }
}
