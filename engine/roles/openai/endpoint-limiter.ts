// `--concurrency auto[:MAX]`: how many requests one endpoint gets at once, found while the run goes
// instead of guessed before it. The limit grows by about one request per round trip while answers
// come back, halves when the endpoint says it is overloaded (429, 503) or a request times out, and
// every request waits while the endpoint has asked for a pause (Retry-After, or a rate-limit window
// it reports as spent through the x-ratelimit-* headers). Additive increase, multiplicative
// decrease: the rule TCP uses to share a link, for the same reason.

/** What one HTTP attempt told us about the endpoint. */
export interface AttemptOutcome {
  /** The HTTP status; absent when no answer came (dropped, timed out). */
  readonly status?: number;
  readonly timedOut?: boolean;
  /** The response's headers, for Retry-After and x-ratelimit-*. */
  readonly headers?: Headers;
}

export interface EndpointLimiterOptions {
  /** The most requests at once, whatever the endpoint takes (`auto:MAX`). */
  readonly max: number;
  /** The limit it starts from (default 4, or `max` if smaller). */
  readonly initial?: number;
  /** Clock in milliseconds (tests). */
  readonly now?: () => number;
}

/** A decrease counts once per this many milliseconds: a burst of refusals is one signal, not many. */
const DECREASE_QUIET_MS = 1000;
/** The longest pause an endpoint's headers can impose, so a bad header cannot stall a run. */
const MAX_PAUSE_MS = 120_000;

export class EndpointLimiter {
  /** Refusals (429, 503) and time-outs seen. */
  throttled = 0;
  private current: number;
  private inFlight = 0;
  private pausedUntil = 0;
  private lastDecrease = Number.NEGATIVE_INFINITY;
  private readonly waiting: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => number;

  constructor(private readonly options: EndpointLimiterOptions) {
    if (!Number.isInteger(options.max) || options.max < 1)
      throw new RangeError(`the limit's maximum must be a positive integer, got ${options.max}`);
    this.current = Math.min(options.max, options.initial ?? 4);
    this.now = options.now ?? Date.now;
  }

  /** Requests allowed at once now (at least 1). */
  get limit(): number {
    return Math.max(1, Math.floor(this.current));
  }

  /** Slots not taken now (0 while paused). */
  get freeSlots(): number {
    return this.now() < this.pausedUntil ? 0 : Math.max(0, this.limit - this.inFlight);
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Waits for a slot; every acquire is followed by exactly one `release`. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (this.waiting.length === 0 && this.free()) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const wake = (): void => {
        signal?.removeEventListener("abort", onAbort);
        this.inFlight++;
        resolve();
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(wake);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason ?? new Error("aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(wake);
      this.schedule();
    });
  }

  release(outcome: AttemptOutcome): void {
    this.inFlight--;
    const now = this.now();
    const refused = outcome.status === 429 || outcome.status === 503;
    if (refused || outcome.timedOut === true) {
      this.throttled++;
      if (now - this.lastDecrease >= DECREASE_QUIET_MS) {
        this.current = Math.max(1, this.current / 2);
        this.lastDecrease = now;
      }
    } else if (outcome.status !== undefined && outcome.status < 400) {
      this.current = Math.min(this.options.max, this.current + 1 / this.current);
    }
    const pause = outcome.headers ? pauseAsked(outcome.headers, refused) : 0;
    if (pause > 0) this.pausedUntil = Math.max(this.pausedUntil, now + Math.min(pause, MAX_PAUSE_MS));
    this.schedule();
  }

  private free(): boolean {
    return this.inFlight < this.limit && this.now() >= this.pausedUntil;
  }

  /** Wakes waiters while there is room, or sets a timer for the end of a pause. */
  private schedule(): void {
    while (this.waiting.length > 0 && this.free()) this.waiting.shift()?.();
    if (this.waiting.length === 0 || this.timer !== null) return;
    const wait = this.pausedUntil - this.now();
    if (wait <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.schedule();
    }, wait);
  }
}

/**
 * Milliseconds the endpoint asks us to wait: Retry-After (seconds or an HTTP date) or
 * retry-after-ms on a refusal; otherwise the reset time of a request window it says is spent
 * (x-ratelimit-remaining-requests: 0 with x-ratelimit-reset-requests such as "1s" or "6m0s").
 */
export function pauseAsked(headers: Headers, refused: boolean): number {
  if (refused) {
    const ms = Number(headers.get("retry-after-ms"));
    if (Number.isFinite(ms) && ms > 0) return ms;
    const after = headers.get("retry-after");
    if (after !== null) {
      const seconds = Number(after);
      if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
      const date = Date.parse(after);
      if (Number.isFinite(date)) return Math.max(0, date - Date.now());
    }
  }
  if (headers.get("x-ratelimit-remaining-requests") === "0") return durationMs(headers.get("x-ratelimit-reset-requests") ?? "");
  return 0;
}

/** "1s", "250ms", "6m0s", "1h2m3.5s" as milliseconds; 0 for anything else. */
export function durationMs(text: string): number {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text.trim()) return 0;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  return parts.reduce((sum, p) => sum + Number(p[1]) * (unit[p[2] ?? "s"] ?? 0), 0);
}
