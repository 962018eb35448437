// Every service entry point answers, whatever the document: an unexpected exception becomes an
// empty answer. It is still reported to whoever listens (the server logs it, tests fail on it),
// so a bug is never silently swallowed.
type ServiceErrorListener = (feature: string, error: unknown) => void;

let listener: ServiceErrorListener | null = null;

/** Sets (or clears, with null) the one listener told about exceptions the service caught. */
export function onServiceError(next: ServiceErrorListener | null): void {
  listener = next;
}

export function guarded<T>(feature: string, fallback: T, run: () => T): T {
  try {
    return run();
  } catch (error) {
    listener?.(feature, error);
    return fallback;
  }
}
