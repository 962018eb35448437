// Scoring a run off the extension host's event loop. Exact matching of a long run (thousands of
// messages against interdependent milestones) can take seconds of synchronous work; on the host's
// thread that would freeze every extension until it ended. A run of WORKER_FROM_MESSAGES messages
// or more is scored in a worker thread started for the job (dist/scoring-worker.js, this file as
// its own bundle), so the host keeps answering, and cancelling ends the job by terminating the
// worker. Shorter runs, and a host with no worker bundle (the extension run from its TypeScript
// sources), score in-process: a few milliseconds, not worth a thread.
// Two jobs: a re-score against the scenario's text as edited (rescore.ts), and the first score of
// a saved run that has no evaluation line, against the scenario it embeds (saved-run-scoring.ts).
// The worker shares nothing with the host: it gets the run's header and events (plain data) and
// the scenario's text, and rebuilds the run with the same builder that reads trajectory files. It
// says how far it has come as it goes: the lines of the run read, then the milestones and
// minefields the matcher has placed (engine/evaluation/scoring-progress.ts).
import { existsSync } from "node:fs";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import type { TrajectoryHeader } from "../../engine/episode/types.js";
import { evaluateTrajectory, EvaluationError } from "../../engine/evaluation/evaluate.js";
import { type ScoringStep, scoringStepText } from "../../engine/evaluation/scoring-progress.js";
import { type Trajectory, TrajectoryBuilder } from "../../engine/trajectory/trajectory.js";
import { rescoreAgainstText, type RescoreResult } from "./rescore.js";

/** Runs at least this long are scored in a worker. */
export const WORKER_FROM_MESSAGES = 1000;

/** Marks the worker thread, so the bundle can tell it from the host's thread that imports this file. */
const SCORING_WORKER_ROLE = "toolsandbox-rescore";
/** The worker says how many lines it has read after each this many. */
const READ_REPORT_EVERY = 2000;

interface ScoringJob {
  readonly header: TrajectoryHeader;
  readonly events: Trajectory["events"];
  /** The scenario's text to score against; null: the scenario the run embeds. */
  readonly text: string | null;
  readonly file: string;
}

/** How far a job has come: the run's lines read, then the matcher's placements. */
type ScoringReport =
  | { readonly kind: "reading"; readonly read: number; readonly of: number }
  | { readonly kind: "matching"; readonly step: ScoringStep };

type FromWorker =
  | { readonly kind: "progress"; readonly report: ScoringReport }
  | { readonly kind: "outcome"; readonly outcome: RescoreResult };

/** The job's outcome, or `cancelled` when the signal fired first (the results are dropped). */
type ScoringOutcome = RescoreResult | { readonly ok: false; readonly cancelled: true; readonly problem: string };

const cancelled = (what: string): ScoringOutcome => ({ ok: false, cancelled: true, problem: `${what} was cancelled` });

/** "placed 3 of 12 milestones", "reading the run: 4,000 of 12,004 lines", with the share done when known (0..1). */
function reportText(report: ScoringReport): { readonly text: string; readonly fraction: number | null } {
  if (report.kind === "reading") {
    const count = (n: number): string => n.toLocaleString("en-US");
    return { text: `reading the run: ${count(report.read)} of ${count(report.of)} lines`, fraction: null };
  }
  const { step } = report;
  const placed = scoringStepText(step);
  return { text: step.line === null ? placed : `${placed}; ${step.line}`, fraction: step.of === 0 ? null : step.placed / step.of };
}

/** A job's progress as the host shows it: the last report, and whoever listens for the next. */
export class JobProgress {
  private last: { readonly text: string; readonly fraction: number | null } | null = null;
  private readonly listeners: ((text: string, fraction: number | null) => void)[] = [];

  /** Give this to score(). */
  readonly report = (report: ScoringReport): void => {
    const shown = reportText(report);
    this.last = shown;
    for (const listener of this.listeners) listener(shown.text, shown.fraction);
  };

  /** The last report, or null before the first. */
  get latest(): { readonly text: string; readonly fraction: number | null } | null {
    return this.last;
  }

  /** `listener` hears each report from now on. */
  onReport(listener: (text: string, fraction: number | null) => void): void {
    this.listeners.push(listener);
  }
}

/** The score of a run against the scenario it embeds, as a re-score's outcome (no warning: it is the run's own scenario). */
export function scoreSavedRun(trajectory: Trajectory, onStep?: (step: ScoringStep) => void): RescoreResult {
  try {
    return { ok: true, result: evaluateTrajectory(trajectory, trajectory.header.scenario, onStep), warning: null, rescored: null };
  } catch (e) {
    if (!(e instanceof EvaluationError)) throw e;
    return { ok: false, problem: `cannot score the run against its embedded scenario: ${e.message}` };
  }
}

function runJob(job: ScoringJob, report: (r: ScoringReport) => void): RescoreResult {
  const builder = new TrajectoryBuilder(job.header);
  const of = job.events.length;
  job.events.forEach((event, i) => {
    builder.add(event);
    if ((i + 1) % READ_REPORT_EVERY === 0 || i + 1 === of) report({ kind: "reading", read: i + 1, of });
  });
  const trajectory = builder.build([]);
  const onStep = (step: ScoringStep): void => report({ kind: "matching", step });
  return job.text === null ? scoreSavedRun(trajectory, onStep) : rescoreAgainstText(trajectory, job.text, job.file, onStep);
}

export class BackgroundScorer {
  /** `script`: the worker bundle; null or a missing file scores every run in-process. */
  constructor(private readonly script: string | null) {}

  /** Whether a run of `messages` messages is scored in a worker. */
  inWorker(messages: number): boolean {
    return messages >= WORKER_FROM_MESSAGES && this.script !== null && existsSync(this.script);
  }

  /**
   * Scores `trajectory` against the scenario `text` (a re-score), or with `text` null against the
   * scenario the run embeds (a saved run with no evaluation); `signal` cancels (the worker is
   * stopped at once); `onProgress` hears how far a job in the worker has come.
   */
  score(
    trajectory: Trajectory,
    text: string | null,
    file: string,
    signal: AbortSignal,
    onProgress: (report: ScoringReport) => void = () => {},
  ): Promise<ScoringOutcome> {
    const what = text === null ? "scoring" : "re-scoring";
    if (signal.aborted) return Promise.resolve(cancelled(what));
    if (!this.inWorker(trajectory.messages.length))
      return Promise.resolve(text === null ? scoreSavedRun(trajectory) : rescoreAgainstText(trajectory, text, file));
    return this.inThread({ header: trajectory.header, events: trajectory.events, text, file }, signal, onProgress, what);
  }

  private inThread(
    job: ScoringJob,
    signal: AbortSignal,
    onProgress: (report: ScoringReport) => void,
    what: string,
  ): Promise<ScoringOutcome> {
    const worker = new Worker(this.script!, { workerData: { role: SCORING_WORKER_ROLE, job } });
    return new Promise<ScoringOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: ScoringOutcome): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener("abort", cancel);
        void worker.terminate();
        resolve(outcome);
      };
      const cancel = (): void => settle(cancelled(what));
      signal.addEventListener("abort", cancel);
      worker.on("message", (message: FromWorker) => {
        if (settled) return;
        if (message.kind === "progress") onProgress(message.report);
        else settle(message.outcome);
      });
      worker.once("error", (e) => settle({ ok: false, problem: `scoring failed: ${e.message}` }));
      worker.once("exit", (code) => settle({ ok: false, problem: `scoring stopped (worker exit code ${code})` }));
    });
  }
}

// The worker's side: score the one job it was started with, saying how far it has come, post the outcome, and end.
const started = isMainThread ? null : (workerData as { role?: unknown; job?: ScoringJob } | null);
if (started?.role === SCORING_WORKER_ROLE && started.job !== undefined) {
  const post = (message: FromWorker): void => parentPort?.postMessage(message);
  post({ kind: "outcome", outcome: runJob(started.job, (report) => post({ kind: "progress", report })) });
}
