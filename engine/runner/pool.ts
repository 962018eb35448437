// Runs a list of jobs with at most N in flight. Model calls wait on the network, so the episodes
// overlap in one thread; scripted episodes barely wait at all, so every job starts on a fresh
// turn of the event loop, which lets Ctrl-C and the progress bar's timers in between them. The
// jobs may still be arriving while the first ones run (`run` plans a scenario's jobs once its
// file has been checked).

interface PoolOptions {
  /** At most this many jobs run at once (>= 1). */
  readonly concurrency: number;
  /** Once aborted, no new job starts; the running ones are the job's business (they see the same signal). */
  readonly signal: AbortSignal;
  /**
   * Asked before each job after the first starts, with the number running: false holds it back until
   * it says yes (`--concurrency auto`: only while the endpoints keep up). `concurrency` stays the cap.
   */
  readonly admit?: (running: number) => boolean;
  /**
   * Subscribes to the moments `admit` may answer differently (a request answered, a pause over);
   * returns the unsubscribe. A held-back job asks again at each of them and whenever a job ends,
   * instead of polling. Without it, it asks every ADMIT_POLL_MS.
   */
  readonly onAdmissionChange?: (listener: () => void) => () => void;
}

/** How often a held-back job asks again when nothing tells the pool that the answer may have changed. */
const ADMIT_POLL_MS = 20;

/** Resolves on a later turn of the event loop, after pending I/O and timers. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Calls `work(item)` for the items in order, at most `concurrency` at a time, until all are done
 * or the signal aborts. The first job that throws stops the pool: no new job starts, `onFatal`
 * is told so it can cancel the running ones, and once they have settled the error is rethrown.
 * Returns how many jobs were started.
 */
export async function runPool<T>(
  items: Iterable<T> | AsyncIterable<T>,
  options: PoolOptions,
  work: (item: T) => Promise<void>,
  onFatal: (error: unknown) => void = () => undefined,
): Promise<number> {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${options.concurrency}`);
  }
  const source = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
  let started = 0;
  let running = 0;
  // An object, not a `let`: the workers set it from their own closures.
  const failure: { fatal: { readonly error: unknown } | null } = { fatal: null };
  const stopped = (): boolean => failure.fatal !== null || options.signal.aborted;
  // Workers held back by `admit`, woken together when the answer may have changed.
  const held = new Set<() => void>();
  const wakeHeld = (): void => {
    for (const wake of held) wake();
    held.clear();
  };
  const heldBack = (): Promise<void> =>
    new Promise((resolve) => {
      held.add(resolve);
      if (!options.onAdmissionChange) setTimeout(wakeHeld, ADMIT_POLL_MS);
    });
  const unsubscribe = options.admit ? options.onAdmissionChange?.(wakeHeld) : undefined;
  options.signal.addEventListener("abort", wakeHeld);
  const worker = async (): Promise<void> => {
    for (;;) {
      await nextTurn();
      if (stopped()) return;
      while (options.admit && running > 0 && !options.admit(running)) {
        await heldBack();
        if (stopped()) return;
      }
      // Counted from the moment it is admitted (in the same turn as the check), so workers polling
      // together cannot all be admitted on one free place.
      running++;
      const next = await source.next();
      // The signal may have aborted while the next job was on its way.
      if (next.done === true || stopped()) {
        running--;
        return;
      }
      started++;
      try {
        await work(next.value);
      } catch (error) {
        if (!failure.fatal) {
          failure.fatal = { error };
          onFatal(error);
        }
        return;
      } finally {
        running--;
        // A place came free (and a stopped pool lets its held workers go).
        wakeHeld();
      }
    }
  };
  const workers = Array.isArray(items) ? Math.min(options.concurrency, items.length) : options.concurrency;
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    unsubscribe?.();
    options.signal.removeEventListener("abort", wakeHeld);
  }
  if (failure.fatal) throw failure.fatal.error;
  return started;
}

/**
 * Jobs handed to the pool as they are planned: the pool takes them in the order they were added,
 * waiting when none is ready, and ends once the queue is closed and empty.
 */
export class JobQueue<T> implements AsyncIterable<T> {
  private readonly ready: T[] = [];
  private readonly waiting: ((next: IteratorResult<T, undefined>) => void)[] = [];
  private closed = false;

  add(item: T): void {
    if (this.closed) throw new Error("the job queue is closed");
    const taker = this.waiting.shift();
    if (taker) taker({ done: false, value: item });
    else this.ready.push(item);
  }

  /** No more jobs: the pool's workers stop once the queue is empty. */
  close(): void {
    this.closed = true;
    for (const taker of this.waiting.splice(0)) taker({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return {
      next: () => {
        if (this.ready.length > 0) return Promise.resolve({ done: false, value: this.ready.shift() as T });
        if (this.closed) return Promise.resolve({ done: true, value: undefined });
        return new Promise((resolve) => this.waiting.push(resolve));
      },
    };
  }
}
