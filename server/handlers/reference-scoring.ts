// The reference solution's own score, computed off the editor's critical path. Playing and
// scoring a reference takes from a few milliseconds to half a second of synchronous work (the
// milestone matcher), so it runs in a worker thread and the server keeps answering meanwhile.
// A newer version of the document cancels a stale job: its findings are dropped, and a job that
// keeps running long after that is stopped by terminating the worker.
// Where no worker can be started (the server running from TypeScript sources), the same work
// runs in-process.
import { Worker, parentPort, workerData } from "node:worker_threads";
import type { Diagnostic } from "../../engine/base/diagnostics.js";
import { strengthDiagnostics, strengthLine } from "../../engine/strength/strength-findings.js";
import { checkReferenceAndStrength } from "../../engine/strength/checked-strength.js";
import { isJsonObject } from "../../engine/base/json.js";
import { checkScenarioFileSource } from "../../engine/scenario/load.js";
import { YamlSource } from "../../engine/scenario/yaml-source.js";

/** How to start the worker: a bundle that calls `runReferenceWorker` when started as one. */
export interface WorkerEntry {
  readonly script: string;
  /** Arguments the script needs to take the worker path (e.g. `lsp --reference-worker`). */
  readonly argv: readonly string[];
}

/** What the background scoring found in one text: the reference's findings, then the scenario's strength. */
interface ScoredText {
  readonly diagnostics: readonly Diagnostic[];
  /** The strength verdict for the CodeLens on `milestones:`; null when the text has no scenario to measure. */
  readonly strength: string | null;
}

export interface ReferenceResult extends ScoredText {
  readonly uri: string;
  readonly version: number;
}

interface Job {
  readonly uri: string;
  readonly version: number;
  readonly text: string;
  readonly file: string;
}

/** Marks the worker thread, so an entry point can tell it from the server's main thread. */
const REFERENCE_WORKER_ROLE = "toolsandbox-reference-scorer";

/**
 * The reference solution's findings for a text whose check has no errors (the text is checked
 * again here: the worker shares nothing with the server), then its strength (docs/strength.md),
 * both from one play of the reference:
 * every mutant and variant played, a warning per wrong agent that passes and per right agent that
 * fails. Strength needs a reference that passes, so a reference with findings of its own gets the
 * verdict that says so and no strength warnings. A text with errors has none of either.
 */
export async function scoreReferenceText(text: string, file: string): Promise<ScoredText> {
  const source = new YamlSource(text, file);
  const { scenario } = checkScenarioFileSource(source);
  if (!scenario) return { diagnostics: [], strength: null };
  const { findings, strength } = await checkReferenceAndStrength(scenario, source);
  if (strength === null) return { diagnostics: findings, strength: null };
  return { diagnostics: [...findings, ...strengthDiagnostics(strength, source)], strength: strengthLine(strength) };
}

/**
 * A job that outlives its version is let finish (restarting the worker costs more than most jobs)
 * unless it is still running this long after it was cancelled; then the worker is terminated.
 */
const STALE_JOB_LIMIT_MS = 1000;

/**
 * The worker's heap. A scenario at the size limit (docs/limits.md) is scored in well under this;
 * the small young generation keeps the garbage of its parse from adding a hundred megabytes to
 * the server's peak. A job that needs more ends the worker (reported in the log), not the server.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 384 } as const;

/**
 * An idle worker still holds the engine's code and its last job's heap (60 MB for the code alone),
 * so it is let go after this long without a job. Starting it again costs a fraction of a second,
 * against a scoring that waits most of a second for the author to stop typing anyway.
 */
const IDLE_RELEASE_MS = 30_000;

interface InFlight {
  readonly job: Job;
  stale: boolean;
  killTimer: NodeJS.Timeout | null;
}

/** One job at a time; a job for a document supersedes its older ones, queued or running. */
export class ReferenceScoring {
  private readonly queue = new Map<string, Job>();
  private inFlight: InFlight | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly backend: Backend;

  constructor(
    entry: WorkerEntry | null,
    private readonly onResult: (result: ReferenceResult) => void,
    private readonly log: (message: string) => void,
    private readonly idleReleaseMs: number = IDLE_RELEASE_MS,
  ) {
    this.backend = entry && !entry.script.endsWith(".ts") ? new WorkerBackend(entry, log) : new InProcessBackend();
  }

  /** Scores this version of the document; supersedes whatever older version was queued or running. */
  request(uri: string, version: number, text: string, file: string): void {
    this.cancel(uri);
    this.queue.set(uri, { uri, version, text, file });
    this.next();
  }

  /** Drops the document's job, queued or running (a newer edit, or the document closed). */
  cancel(uri: string): void {
    this.queue.delete(uri);
    const running = this.inFlight;
    if (running?.job.uri !== uri || running.stale) return;
    running.stale = true;
    running.killTimer = setTimeout(() => this.backend.abort(), STALE_JOB_LIMIT_MS);
  }

  dispose(): void {
    this.queue.clear();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.inFlight?.killTimer) clearTimeout(this.inFlight.killTimer);
    this.inFlight = null;
    this.backend.dispose();
  }

  private next(): void {
    if (this.inFlight) return;
    const job = this.queue.values().next().value;
    if (!job) return;
    this.queue.delete(job.uri);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const inFlight: InFlight = { job, stale: false, killTimer: null };
    this.inFlight = inFlight;
    this.backend.run(job).then(
      (scored) => this.settle(inFlight, scored),
      (e: unknown) => {
        if (!inFlight.stale) this.log(`reference scoring failed for ${job.uri}: ${e instanceof Error ? e.message : String(e)}`);
        this.settle(inFlight, null);
      },
    );
  }

  private settle(inFlight: InFlight, scored: ScoredText | null): void {
    if (inFlight.killTimer) clearTimeout(inFlight.killTimer);
    if (this.inFlight !== inFlight) return; // disposed meanwhile
    this.inFlight = null;
    const { job } = inFlight;
    // A cancelled job's findings point into a text nobody shows any more.
    if (scored && !inFlight.stale) this.onResult({ uri: job.uri, version: job.version, ...scored });
    this.next();
    if (this.inFlight) return;
    this.idleTimer = setTimeout(() => this.backend.release(), this.idleReleaseMs);
    this.idleTimer.unref();
  }
}

interface Backend {
  run(job: Job): Promise<ScoredText>;
  /** Stops the job in flight if it can (its promise then rejects); a no-op otherwise. */
  abort(): void;
  /** Frees what the backend holds between jobs (the next job starts it again). */
  release(): void;
  dispose(): void;
}

class InProcessBackend implements Backend {
  run(job: Job): Promise<ScoredText> {
    return scoreReferenceText(job.text, job.file);
  }

  abort(): void {
    // Nothing to stop: the scoring runs on the server's own thread, between its requests.
  }

  release(): void {}

  dispose(): void {}
}

/**
 * A worker started on first use, and terminated to stop a cancelled job that runs too long or to
 * free its heap while idle (IDLE_RELEASE_MS).
 * A worker that cannot start at all gives way to in-process scoring.
 */
class WorkerBackend implements Backend {
  private worker: Worker | null = null;
  private pending: { id: number; resolve: (scored: ScoredText) => void; reject: (e: Error) => void } | null = null;
  private nextId = 1;
  private answered = false;
  private fallback: InProcessBackend | null = null;

  constructor(
    private readonly entry: WorkerEntry,
    private readonly log: (message: string) => void,
  ) {}

  run(job: Job): Promise<ScoredText> {
    if (this.fallback) return this.fallback.run(job);
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending = { id, resolve, reject };
      worker.postMessage({ id, text: job.text, file: job.file });
    });
  }

  abort(): void {
    if (this.fallback || !this.pending) return;
    this.log("reference worker: a cancelled job ran too long; restarting the worker");
    this.stop(new Error("aborted"));
  }

  release(): void {
    if (this.pending || !this.worker) return;
    this.log("reference worker: idle, stopped to free its memory (started again for the next scoring)");
    this.stop(new Error("released"));
  }

  dispose(): void {
    this.fallback?.dispose();
    this.stop(new Error("disposed"));
  }

  private start(): Worker {
    const worker = new Worker(this.entry.script, {
      argv: [...this.entry.argv],
      workerData: { role: REFERENCE_WORKER_ROLE },
      resourceLimits: WORKER_LIMITS,
      // The server's stdout may be the protocol stream: nothing from the worker may reach it.
      stdout: true,
      stderr: true,
    });
    worker.stdout.on("data", (chunk: Buffer) => this.log(`reference worker: ${chunk.toString("utf8").trimEnd()}`));
    worker.stderr.on("data", (chunk: Buffer) => this.log(`reference worker: ${chunk.toString("utf8").trimEnd()}`));
    worker.on("message", (message: unknown) => this.receive(message));
    worker.on("error", (e) => {
      // A worker that never answered cannot start here: score in-process from now on. One that
      // worked before is started again for the next job.
      if (!this.answered) {
        this.log(`reference worker failed to start (${e.message}); scoring references in the server process`);
        this.fallback = new InProcessBackend();
      } else {
        this.log(`reference worker failed: ${e.message}`);
      }
      this.stop(e);
    });
    worker.on("exit", () => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.pending?.reject(new Error("the reference worker exited"));
      this.pending = null;
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private stop(reason: Error): void {
    const worker = this.worker;
    this.worker = null;
    const pending = this.pending;
    this.pending = null;
    pending?.reject(reason);
    void worker?.terminate();
  }

  private receive(message: unknown): void {
    const pending = this.pending;
    if (!pending || !isJsonObject(message) || message.id !== pending.id) return;
    this.pending = null;
    this.answered = true;
    const diagnostics = diagnosticsOf(message.diagnostics);
    const { strength } = message;
    if (diagnostics && (strength === null || typeof strength === "string")) pending.resolve({ diagnostics, strength });
    else pending.reject(new Error(typeof message.error === "string" ? message.error : "malformed answer from the reference worker"));
  }
}

/** The worker's findings, checked item by item; null when anything has the wrong shape. */
function diagnosticsOf(value: unknown): Diagnostic[] | null {
  if (!Array.isArray(value)) return null;
  const diagnostics: Diagnostic[] = [];
  for (const item of value as readonly unknown[]) {
    if (!isDiagnostic(item)) return null;
    diagnostics.push(item);
  }
  return diagnostics;
}

/** The shape of an engine diagnostic, as it comes back from the worker thread. */
function isDiagnostic(value: unknown): value is Diagnostic {
  if (!isJsonObject(value)) return false;
  const { range, offset, severity, code, message, file } = value;
  const position = (p: unknown): boolean => isJsonObject(p) && typeof p.line === "number" && typeof p.character === "number";
  return (
    isJsonObject(range) &&
    position(range.start) &&
    position(range.end) &&
    Array.isArray(offset) &&
    (severity === "error" || severity === "warning" || severity === "info") &&
    typeof code === "string" &&
    typeof message === "string" &&
    typeof file === "string"
  );
}

/** True in a worker thread started by `ReferenceScoring`. */
export function isReferenceWorker(): boolean {
  return parentPort !== null && isJsonObject(workerData) && workerData.role === REFERENCE_WORKER_ROLE;
}

/** The worker's side: answers each job with the reference findings and the strength of its text. */
export function runReferenceWorker(): void {
  const port = parentPort;
  if (!port) throw new Error("runReferenceWorker must run in a worker thread");
  port.on("message", (job: unknown) => {
    if (!isJsonObject(job) || typeof job.id !== "number" || typeof job.text !== "string" || typeof job.file !== "string") return;
    const { id, text, file } = job;
    scoreReferenceText(text, file).then(
      (scored) => port.postMessage({ id, diagnostics: scored.diagnostics, strength: scored.strength }),
      (e: unknown) => port.postMessage({ id, error: e instanceof Error ? e.message : String(e) }),
    );
  });
}
