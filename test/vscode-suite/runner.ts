// A tiny test runner for inside the extension host: checks run one after another, one line each,
// then a count. No mocha: the host only needs a module whose `run()` rejects on failure.

interface Check {
  readonly name: string;
  readonly run: () => Promise<void>;
}

/** Runs every check; resolves when all pass, rejects with the failures' names otherwise. */
export async function runChecks(suite: string, checks: readonly Check[]): Promise<void> {
  const failed: string[] = [];
  for (const check of checks) {
    const started = Date.now();
    try {
      await check.run();
      console.log(`✔ ${check.name} (${Date.now() - started} ms)`);
    } catch (e) {
      failed.push(check.name);
      console.log(`✖ ${check.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  // Not "N passed, N failed": that line means a whole test run to CI, and this is one step of it.
  console.log(`${suite}: ${checks.length - failed.length} of ${checks.length} checks passed`);
  if (failed.length > 0) throw new Error(`${suite}: failed: ${failed.join("; ")}`);
}

/** Resolves with what `ready()` returns once that is not null, polling every `pollMs`; rejects after `timeoutMs`. */
export function waitFor<T>(what: string, ready: () => T | null | undefined, timeoutMs: number, pollMs = 250): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = (): void => {
      let value: T | null | undefined;
      try {
        value = ready();
      } catch {
        value = null;
      }
      if (value !== null && value !== undefined) resolve(value);
      else if (Date.now() - started > timeoutMs) reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      else setTimeout(tick, pollMs);
    };
    tick();
  });
}
