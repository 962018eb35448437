// Re-scoring a run off the extension host's event loop. Exact matching of a long run (thousands of
// messages against interdependent milestones) can take seconds of synchronous work; on the host's
// thread that would freeze every extension until it ended. A run of WORKER_FROM_MESSAGES messages
// or more is scored in a worker thread started for the job (dist/scoring-worker.js, this file as
// its own bundle), so the host keeps answering, and cancelling ends the job by terminating the
// worker. Shorter runs, and a host with no worker bundle (the extension run from its TypeScript
// sources), score in-process: a few milliseconds, not worth a thread.
// The worker shares nothing with the host: it gets the run's header and events (plain data) and
// the scenario's text, and rebuilds the run with the same builder that reads trajectory files.
import { existsSync } from "node:fs";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import type { TrajectoryHeader } from "../../engine/episode/types.js";
import { type Trajectory, TrajectoryBuilder } from "../../engine/trajectory/trajectory.js";
import { rescoreAgainstText, type RescoreResult } from "./rescore.js";

/** Runs at least this long are scored in a worker. */
export const WORKER_FROM_MESSAGES = 1000;

/** Marks the worker thread, so the bundle can tell it from the host's thread that imports this file. */
const SCORING_WORKER_ROLE = "toolsandbox-rescore";

interface RescoreJob {
  readonly header: TrajectoryHeader;
  readonly events: Trajectory["events"];
  readonly text: string;
  readonly file: string;
}

/** The job's outcome, or `cancelled` when the signal fired first (the results are dropped). */
type ScoringOutcome = RescoreResult | { readonly ok: false; readonly cancelled: true; readonly problem: string };

const CANCELLED: ScoringOutcome = { ok: false, cancelled: true, problem: "re-scoring was cancelled" };

function scoreJob(job: RescoreJob): RescoreResult {
  const builder = new TrajectoryBuilder(job.header);
  for (const event of job.events) builder.add(event);
  return rescoreAgainstText(builder.build([]), job.text, job.file);
}

export class BackgroundScorer {
  /** `script`: the worker bundle; null or a missing file scores every run in-process. */
  constructor(private readonly script: string | null) {}

  /** Whether a run of `messages` messages is scored in a worker. */
  inWorker(messages: number): boolean {
    return messages >= WORKER_FROM_MESSAGES && this.script !== null && existsSync(this.script);
  }

  /** Scores `trajectory` against the scenario `text`; `signal` cancels (the worker is stopped at once). */
  score(trajectory: Trajectory, text: string, file: string, signal: AbortSignal): Promise<ScoringOutcome> {
    if (signal.aborted) return Promise.resolve(CANCELLED);
    if (!this.inWorker(trajectory.messages.length) || this.script === null)
      return Promise.resolve(rescoreAgainstText(trajectory, text, file));
    const job: RescoreJob = { header: trajectory.header, events: trajectory.events, text, file };
    const worker = new Worker(this.script, { workerData: { role: SCORING_WORKER_ROLE, job } });
    return new Promise<ScoringOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: ScoringOutcome): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener("abort", cancel);
        void worker.terminate();
        resolve(outcome);
      };
      const cancel = (): void => settle(CANCELLED);
      signal.addEventListener("abort", cancel);
      worker.once("message", (outcome: RescoreResult) => settle(outcome));
      worker.once("error", (e) => settle({ ok: false, problem: `scoring failed: ${e.message}` }));
      worker.once("exit", (code) => settle({ ok: false, problem: `scoring stopped (worker exit code ${code})` }));
    });
  }
}

// The worker's side: score the one job it was started with, post the outcome, and end.
const started = isMainThread ? null : (workerData as { role?: unknown; job?: RescoreJob } | null);
if (started?.role === SCORING_WORKER_ROLE && started.job !== undefined) parentPort?.postMessage(scoreJob(started.job));
