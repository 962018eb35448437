// Ctrl-C and SIGTERM (the polite kill of a supervisor or CI runner) as one AbortSignal, for every
// command that stops cleanly: `run` and its modes, `serve`, `mock-llm`. The first signal aborts and
// puts Node's default back, so a second one ends the process at once.

/** Stop signals: Ctrl-C, and the polite kill of a supervisor or CI runner. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

/**
 * Aborts `controller` on the first stop signal. Call the returned function when the work is done:
 * it removes the listeners (idempotent).
 */
export function abortOnStopSignal(controller: AbortController): () => void {
  const onStop = (): void => {
    release();
    controller.abort();
  };
  const release = (): void => {
    for (const s of STOP_SIGNALS) process.removeListener(s, onStop);
  };
  for (const s of STOP_SIGNALS) process.on(s, onStop);
  return release;
}

/** Runs `work` with a signal that the first stop signal aborts; the listeners go when it settles. */
export async function untilStopSignal<T>(work: (stop: AbortSignal) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const release = abortOnStopSignal(stop);
  try {
    return await work(stop.signal);
  } finally {
    release();
  }
}
