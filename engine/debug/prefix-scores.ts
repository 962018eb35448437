// What had matched by message i, for the debugger, without ever holding up the adapter. The
// matcher is synchronous and a long prefix can take seconds, so a replay is scored in a worker
// thread (prefix-worker.ts) that reads the trajectory itself; a live episode (short, and growing
// while it plays) or a build without the thread's bundle is scored here, one prefix per turn of
// the event loop. Either way prefixes are scored by one PrefixEvaluation, which keeps the work of
// earlier prefixes for later ones, and their answers are kept here per message.
//
// One job at a time: the indices a stop needs next (a forward move asks a few ahead, so the
// thread scores message i + 1 while the session looks at message i). A caller that stops waiting
// (a pause, a newer stop) cancels the job; the thread stops after the prefix it is on, and a thread
// still busy a second later is terminated and started again on the next job.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { errorMessage } from "../base/text.js";
import { EvaluationError, type EvaluationResult } from "../evaluation/evaluate.js";
import { type MatchedHere, PrefixEvaluation } from "../evaluation/prefix-evaluation.js";
import { type ScoringStep, scoringStepText } from "../evaluation/scoring-progress.js";
import type { Timeline } from "./timeline.js";

/** What the scoring thread is started with. */
export interface ScoringThreadData {
  readonly role: "toolsandbox-prefix-scoring";
  readonly trajectoryPath: string;
  /** One Int32 cell: the highest job number cancelled. */
  readonly cancel: SharedArrayBuffer;
}

/** A job: score these prefixes (their last message indices), in this order; whole results for `full`. */
export interface ScoringJob {
  readonly id: number;
  readonly indices: readonly number[];
  readonly full: readonly number[];
}

export type FromScoringThread =
  | {
      readonly kind: "scored";
      readonly job: number;
      readonly index: number;
      readonly here: MatchedHere;
      readonly result: EvaluationResult | null;
    }
  | { readonly kind: "unscorable"; readonly job: number; readonly index: number; readonly problem: string }
  /** How far the matcher has come on the prefix ending at `index` (the thread's only). */
  | { readonly kind: "progress"; readonly job: number; readonly index: number; readonly step: ScoringStep }
  | { readonly kind: "done"; readonly job: number };

/** How long a cancelled job may keep the thread before it is terminated. */
const STALE_JOB_LIMIT_MS = 1000;
/** A wait shorter than this shows no progress. */
const PROGRESS_AFTER_MS = 250;
/** Whole results kept here (the last stops' Milestones scopes); MatchedHere is kept for every message. */
const RESULTS_KEPT = 64;

/** Progress of a long scoring, for the client (DAP progress events, or an output line). */
export interface ScoringProgress {
  start(title: string, message: string): void;
  update(message: string, percent: number): void;
  end(): void;
}

/** The caller stopped waiting (a pause, a newer stop, the session's end). */
export class ScoringCancelled extends Error {
  override readonly name = "ScoringCancelled";
}

interface Backend {
  /** Runs a job; `deliver` gets each prefix's answer; resolves when the job has ended (finished or cancelled). */
  run(job: ScoringJob, deliver: (message: FromScoringThread) => void): Promise<void>;
  cancel(job: number): void;
  close(): Promise<void>;
}

/** The thread's bundle beside the running one (dist/), or null (running from sources: score in-process). */
function scoringThreadScript(): string | null {
  const script = join(__dirname, "prefix-scoring-worker.js");
  return existsSync(script) ? script : null;
}

export class PrefixScores {
  private readonly here = new Map<number, MatchedHere | null>();
  /** Prefixes scored at the last message of a live episode still playing, with how far it had come. */
  private readonly provisional = new Map<number, string>();
  private readonly results = new Map<number, EvaluationResult | null>();
  private readonly backend: Backend;
  /** Scored in a thread (a replay): stops are prefetched. */
  private readonly prefetches: boolean;
  /** The job in the thread; `prefetch`: started by no one waiting (see prefetch()), so never cancelled for another. */
  private running: { job: ScoringJob; done: Promise<void>; prefetch: boolean } | null = null;
  private nextJob = 1;
  private changed = signal();
  /** Settles when the session ends: nothing is scored any more. */
  private readonly closed = signal();
  private waiting = 0;
  private progressShown = false;
  /** Problems of milestones that cannot be scored, each once, for the console (which takes them out). */
  readonly warnings: string[] = [];
  private readonly warned = new Set<string>();
  progress: ScoringProgress | null = null;

  constructor(
    private readonly timeline: Timeline,
    threadScript: string | null = scoringThreadScript(),
  ) {
    this.prefetches = timeline.replay && threadScript !== null;
    this.backend = this.prefetches ? new ThreadBackend(threadScript!, timeline.trajectoryPath) : new InProcessBackend(timeline);
  }

  /** What the prefix 0..index matches at index, if scored already (null: the milestones cannot be scored). */
  matchedHereNow(index: number): MatchedHere | null | undefined {
    return this.here.get(index);
  }

  /** The whole evaluation of the prefix 0..index, if scored already. */
  resultNow(index: number): EvaluationResult | null | undefined {
    return this.results.get(index);
  }

  /**
   * What the prefix 0..index matches at index; `ahead` more prefixes are scored after it meanwhile
   * (a forward move will ask for them; negative: the ones before, for a reverse move). Rejects with ScoringCancelled once `cancelled` settles.
   */
  async matchedHere(index: number, cancelled: Promise<void>, ahead = 0): Promise<MatchedHere | null> {
    await this.need(index, false, ahead, cancelled);
    return this.here.get(index) ?? null;
  }

  async result(index: number, cancelled: Promise<void>): Promise<EvaluationResult | null> {
    await this.need(index, true, 0, cancelled);
    return this.results.get(index) ?? null;
  }

  /**
   * A replay's stop: its whole evaluation is computed in the thread while the user looks at the
   * stop, so that the Milestones scope (or a condition reading the milestones) is answered at
   * once, and the similarities and closest misses it leaves behind make the next stops' work
   * incremental. Only when the thread is idle; a job that then needs the thread waits for this one
   * rather than cancelling it, since cancelling a long prefix terminates the thread and loses
   * that work. A live episode is scored on the event loop, so nothing is prefetched there.
   */
  prefetch(index: number): void {
    if (!this.prefetches || this.running || index < 0 || this.has(index, true)) return;
    this.start(index, true, 0, true);
  }

  /** Stops the job running (nobody waits for it any more); a prefetch runs on, as nobody waited for it. */
  cancel(): void {
    if (this.running && !this.running.prefetch) this.backend.cancel(this.running.job.id);
  }

  async close(): Promise<void> {
    this.closed.resolve();
    if (this.running) this.backend.cancel(this.running.job.id);
    await this.backend.close();
  }

  private has(index: number, full: boolean): boolean {
    const stamp = this.provisional.get(index);
    if (stamp !== undefined && stamp !== this.stamp()) {
      // Scored as the last message of a live episode that has grown or ended since.
      this.provisional.delete(index);
      this.here.delete(index);
      this.results.delete(index);
    }
    return full ? this.results.has(index) : this.here.has(index);
  }

  /** How far a live episode has come: a prefix ending at its last message is scored again once this changes. */
  private stamp(): string {
    return `${this.timeline.messages.length}:${this.timeline.finished}`;
  }

  private async need(index: number, full: boolean, ahead: number, cancelled: Promise<void>): Promise<void> {
    if (this.has(index, full)) return;
    let stop = false;
    const abort = Promise.race([cancelled, this.closed.promise]).then(() => {
      stop = true;
    });
    this.waiting++;
    const timer = setTimeout(() => this.showProgress(index), PROGRESS_AFTER_MS);
    try {
      while (!this.has(index, full)) {
        if (stop) throw new ScoringCancelled("the scoring was cancelled");
        const running = this.running;
        if (running && !covers(running.job, index, full)) {
          if (!running.prefetch) this.backend.cancel(running.job.id);
          await Promise.race([running.done, abort]);
          continue;
        }
        if (!running) this.start(index, full, ahead);
        await Promise.race([this.changed.promise, abort]);
      }
    } finally {
      clearTimeout(timer);
      if (--this.waiting === 0 && this.progressShown) {
        this.progressShown = false;
        this.progress?.end();
      }
    }
  }

  private start(index: number, full: boolean, ahead: number, prefetch = false): void {
    const last = this.timeline.messages.length - 1;
    const indices: number[] = [index];
    const step = Math.sign(ahead);
    for (let k = 1; k <= Math.abs(ahead); k++) {
      const i = index + k * step;
      if (i < 0 || i > last) break;
      if (!this.here.has(i)) indices.push(i);
    }
    const job: ScoringJob = { id: this.nextJob++, indices, full: full ? [index] : [] };
    const done = this.backend
      .run(job, (message) => this.deliver(message))
      .catch((e: unknown) => this.failed(job, errorMessage(e)))
      .finally(() => {
        if (this.running?.job === job) this.running = null;
        this.wake();
      });
    this.running = { job, done, prefetch };
  }

  private deliver(message: FromScoringThread): void {
    if (message.kind === "progress") {
      this.updateProgress(message.index, message.step);
      return;
    }
    if (message.kind !== "done" && !this.timeline.finished && message.index >= this.timeline.messages.length - 1)
      this.provisional.set(message.index, this.stamp());
    if (message.kind === "scored") {
      this.here.set(message.index, message.here);
      if (message.result) this.keepResult(message.index, message.result);
      this.updateProgress(message.index);
    } else if (message.kind === "unscorable") {
      this.here.set(message.index, null);
      this.keepResult(message.index, null);
      this.warn(message.problem);
    }
    this.wake();
  }

  /** The thread died (out of memory, a bug): the job's prefixes are reported as not scorable rather than waited for. */
  private failed(job: ScoringJob, problem: string): void {
    this.warn(`the scoring stopped: ${problem}`);
    for (const index of job.indices) if (!this.here.has(index)) this.here.set(index, null);
    for (const index of job.full) if (!this.results.has(index)) this.keepResult(index, null);
  }

  private warn(problem: string): void {
    if (this.warned.has(problem)) return;
    this.warned.add(problem);
    this.warnings.push(problem);
  }

  private keepResult(index: number, result: EvaluationResult | null): void {
    this.results.delete(index);
    this.results.set(index, result);
    if (this.results.size > RESULTS_KEPT) this.results.delete(this.results.keys().next().value!);
  }

  private wake(): void {
    const woken = this.changed;
    this.changed = signal();
    woken.resolve();
  }

  private showProgress(index: number): void {
    if (this.progressShown || this.waiting === 0) return;
    this.progressShown = true;
    this.progress?.start("Scoring the milestones", `the messages up to ${index}`);
  }

  /** After a prefix is scored, or (`step`) while the matcher works on it: the prefixes done, and the share of this one. */
  private updateProgress(index: number, step: ScoringStep | null = null): void {
    if (!this.progressShown || !this.running) return;
    const { indices } = this.running.job;
    const at = indices.indexOf(index);
    if (at < 0) return;
    const share = step === null ? 1 : step.of === 0 ? 0 : step.placed / step.of;
    const message = step === null ? `the messages up to ${index}` : `the messages up to ${index}: ${scoringStepText(step)}`;
    this.progress?.update(message, Math.round((100 * (at + share)) / indices.length));
  }
}

function covers(job: ScoringJob, index: number, full: boolean): boolean {
  return full ? job.full.includes(index) : job.indices.includes(index);
}

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A replay's prefixes scored in a worker thread that reads the trajectory file itself. */
class ThreadBackend implements Backend {
  private worker: Worker | null = null;
  private readonly cancelCell = new SharedArrayBuffer(4);
  private current: { id: number; deliver: (m: FromScoringThread) => void; end: (e?: Error) => void } | null = null;
  private killTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly script: string,
    private readonly trajectoryPath: string,
  ) {}

  run(job: ScoringJob, deliver: (message: FromScoringThread) => void): Promise<void> {
    const worker = this.started();
    return new Promise<void>((resolve, reject) => {
      this.current = { id: job.id, deliver, end: (e) => (e ? reject(e) : resolve()) };
      worker.postMessage(job);
    });
  }

  cancel(job: number): void {
    const cells = new Int32Array(this.cancelCell);
    if (Atomics.load(cells, 0) >= job) return;
    Atomics.store(cells, 0, job);
    if (this.current?.id !== job || this.killTimer) return;
    this.killTimer = setTimeout(() => {
      // Still on one long prefix: the thread's memo is lost, the adapter's loop is not.
      this.killTimer = null;
      if (this.current?.id === job) void this.stop();
    }, STALE_JOB_LIMIT_MS);
  }

  async close(): Promise<void> {
    await this.stop();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const data: ScoringThreadData = { role: "toolsandbox-prefix-scoring", trajectoryPath: this.trajectoryPath, cancel: this.cancelCell };
    const worker = new Worker(this.script, { workerData: data });
    worker.unref();
    worker.on("message", (message: FromScoringThread) => {
      const current = this.current;
      if (!current || message.job !== current.id) return;
      if (message.kind === "done") {
        this.finish();
        current.end();
      } else current.deliver(message);
    });
    const died = (problem: string): void => {
      if (this.worker !== worker) return;
      this.worker = null;
      const current = this.current;
      this.finish();
      current?.end(new Error(problem));
    };
    worker.on("error", (e) => died(errorMessage(e)));
    worker.on("exit", (code) => died(`the scoring thread exited (code ${code})`));
    this.worker = worker;
    return worker;
  }

  private finish(): void {
    this.current = null;
    if (this.killTimer) clearTimeout(this.killTimer);
    this.killTimer = null;
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    const current = this.current;
    this.worker = null;
    this.finish();
    // A terminated job has ended: its waiters look again (and start a fresh thread if they still need one).
    current?.end();
    if (worker) await worker.terminate();
  }
}

/** Prefixes scored on the adapter's own thread, one per turn of the event loop (a live episode, or no thread bundle). */
class InProcessBackend implements Backend {
  private evaluation: PrefixEvaluation | null = null;
  private evaluatedFinished = false;
  private cancelled = 0;

  constructor(private readonly timeline: Timeline) {}

  async run(job: ScoringJob, deliver: (message: FromScoringThread) => void): Promise<void> {
    const full = new Set(job.full);
    for (const index of job.indices) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.cancelled >= job.id) break;
      try {
        const evaluation = this.current();
        const here = evaluation.matchedHere(index);
        deliver({ kind: "scored", job: job.id, index, here, result: full.has(index) ? evaluation.at(index) : null });
      } catch (e) {
        if (!(e instanceof EvaluationError)) throw e;
        deliver({ kind: "unscorable", job: job.id, index, problem: e.message });
      }
    }
  }

  cancel(job: number): void {
    this.cancelled = Math.max(this.cancelled, job);
  }

  async close(): Promise<void> {}

  /** Prepared again when a live episode has grown or ended: earlier prefixes score the same, the last one reads the end. */
  private current(): PrefixEvaluation {
    const timeline = this.timeline;
    if (this.evaluation?.messageCount !== timeline.messages.length || this.evaluatedFinished !== timeline.finished) {
      this.evaluation = new PrefixEvaluation(
        timeline.scenario,
        timeline.messages,
        (i) => timeline.world.at(i),
        timeline.firstUserIndex(),
        timeline.end?.reason ?? null,
      );
      this.evaluatedFinished = timeline.finished;
    }
    return this.evaluation;
  }
}
