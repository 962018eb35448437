// Runs a list of jobs with at most N in flight. Model calls wait on the network, so the episodes
// overlap in one thread; scripted episodes barely wait at all, so every job starts on a fresh
// turn of the event loop, which lets Ctrl-C and the progress bar's timers in between them.

export interface PoolOptions {
  /** At most this many jobs run at once (>= 1). */
  readonly concurrency: number;
  /** Once aborted, no new job starts; the running ones are the job's business (they see the same signal). */
  readonly signal: AbortSignal;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Calls `work(item)` for the items in order, at most `concurrency` at a time, until all are done
 * or the signal aborts. The first job that throws stops the pool: no new job starts, `onFatal`
 * is told so it can cancel the running ones, and once they have settled the error is rethrown.
 * Returns how many jobs were started.
 */
export async function runPool<T>(
  items: readonly T[],
  options: PoolOptions,
  work: (item: T) => Promise<void>,
  onFatal: (error: unknown) => void = () => undefined,
): Promise<number> {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${options.concurrency}`);
  }
  let next = 0;
  // An object, not a `let`: the workers set it from their own closures.
  const failure: { fatal: { readonly error: unknown } | null } = { fatal: null };
  const worker = async (): Promise<void> => {
    for (;;) {
      await nextTurn();
      if (failure.fatal || options.signal.aborted || next >= items.length) return;
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        if (!failure.fatal) {
          failure.fatal = { error };
          onFatal(error);
        }
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, items.length) }, worker));
  if (failure.fatal) throw failure.fatal.error;
  return next;
}
