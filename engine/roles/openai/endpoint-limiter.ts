// `--concurrency auto[:MAX]`: how many requests one endpoint gets at once, and how often, found while
// the run goes instead of guessed before it. Additive increase, multiplicative decrease, the rule
// TCP uses to share a link, on two quantities:
// - requests in flight: the limit doubles per round trip until the endpoint first refuses (slow
//   start), then grows by about one per round trip while answers come back, and halves when the
//   endpoint refuses (429, 503) or a request times out;
// - requests started per second, with `pacing`: unpaced until the first refusal, then paced from the
//   rate the endpoint was seen to accept, growing by about two per second and cut by 15% at each
//   refusal. It is off in runs: measured against a token bucket its first estimate could fall far
//   below the endpoint's rate and starve the run, so runs rely on the pauses the endpoint asks for.
// Every request also waits while the endpoint has asked for a pause (Retry-After, or a rate-limit
// window it reports as spent through the x-ratelimit-* headers).

/** What one HTTP attempt told us about the endpoint. */
interface AttemptOutcome {
  /** The HTTP status; absent when no answer came (dropped, timed out). */
  readonly status?: number;
  readonly timedOut?: boolean;
  /** The response's headers, for Retry-After and x-ratelimit-*. */
  readonly headers?: Headers;
}

interface EndpointLimiterOptions {
  /** The most requests at once, whatever the endpoint takes (`auto:MAX`). */
  readonly max: number;
  /** The limit it starts from (default 4, or `max` if smaller). */
  readonly initial?: number;
  /** Pace the starts of requests after a refusal (off by default: see `pace`). */
  readonly pacing?: boolean;
  /** Clock in milliseconds (tests). */
  readonly now?: () => number;
}

/** A decrease counts once per this many milliseconds: a burst of refusals is one signal, not many. */
const DECREASE_QUIET_MS = 1000;
/** The longest pause an endpoint's headers can impose, so a bad header cannot stall a run. */
const MAX_PAUSE_MS = 120_000;
/** What a refusal leaves of the pace. */
const RATE_DECREASE = 0.85;
/** After this long without a refusal the pace grows multiplicatively. */
const QUIET_GROWTH_MS = 3000;
/** Requests per second the pace gains per second of answers. */
const RATE_INCREASE_PER_SECOND = 2;

export class EndpointLimiter {
  /** Refusals (429, 503) and time-outs seen. */
  throttled = 0;
  private current: number;
  private inFlight = 0;
  private pausedUntil = 0;
  /** Requests started per second; unpaced until the endpoint first refuses. */
  private rate = Number.POSITIVE_INFINITY;
  private nextStartAt = 0;
  /** When recent answers came, to measure the rate the endpoint accepts. */
  private readonly answeredAt: number[] = [];
  private lastDecrease = Number.NEGATIVE_INFINITY;
  private readonly waiting: (() => void)[] = [];
  private readonly listeners = new Set<() => void>();
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

  /** Requests per second it starts at most; Infinity while unpaced. */
  get pace(): number {
    return this.rate;
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Calls `listener` whenever the limit, the requests waiting or a pause may have changed (after
   * each answer, and when a pause ends); returns the unsubscribe. The run's pool listens, to start
   * a held-back episode as soon as the endpoint has room.
   */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Waits for a slot; every acquire is followed by exactly one `release`. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (this.waiting.length === 0 && this.free()) {
      this.start();
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const wake = (): void => {
        signal?.removeEventListener("abort", onAbort);
        this.start();
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
        // The first refusal sets the pace from what the endpoint said: the answers of the last second,
        // or, for a token bucket, the wait it asks for (the time to its next token) if that is shorter.
        const pause = outcome.headers ? pauseAsked(outcome.headers, true) : 0;
        const hinted = pause > 0 && pause < 1000 ? 1000 / pause : 0;
        const accepted = Number.isFinite(this.rate) ? this.rate : Math.max(this.acceptedRate(now), hinted);
        if (this.options.pacing === true) {
          this.rate = Math.max(1, accepted * RATE_DECREASE);
          this.nextStartAt = Math.max(this.nextStartAt, now + 1000 / this.rate);
        }
        this.lastDecrease = now;
      }
    } else if (outcome.status !== undefined && outcome.status < 400) {
      // Until the endpoint first refuses, the limit doubles per round of answers (TCP's slow start):
      // its capacity is unknown, and climbing by one per round left a run far below it for long.
      const growth = this.lastDecrease === Number.NEGATIVE_INFINITY ? 1 : 1 / this.current;
      this.current = Math.min(this.options.max, this.current + growth);
      // Long without a refusal, the pace grows by half each second (a wrong first estimate is left
      // quickly); otherwise by about two requests per second each second.
      if (Number.isFinite(this.rate)) this.rate += now - this.lastDecrease > QUIET_GROWTH_MS ? 0.5 : RATE_INCREASE_PER_SECOND / this.rate;
      this.answeredAt.push(now);
      if (this.answeredAt.length > 4096) this.answeredAt.splice(0, 2048);
    }
    const pause = outcome.headers ? pauseAsked(outcome.headers, refused) : 0;
    if (pause > 0) this.pausedUntil = Math.max(this.pausedUntil, now + Math.min(pause, MAX_PAUSE_MS));
    this.schedule();
  }

  private free(now: number = this.now()): boolean {
    return this.inFlight < this.limit && now >= this.pausedUntil && now >= this.nextStartAt;
  }

  private start(): void {
    this.inFlight++;
    if (Number.isFinite(this.rate)) this.nextStartAt = Math.max(this.now(), this.nextStartAt) + 1000 / this.rate;
  }

  /** Answers per second over the last second (at least 1). */
  private acceptedRate(now: number): number {
    let count = 0;
    for (let i = this.answeredAt.length - 1; i >= 0 && (this.answeredAt[i] ?? 0) > now - 1000; i--) count++;
    return Math.max(1, count);
  }

  /**
   * Wakes waiters while there is room; otherwise something is sure to call again: an answer of a
   * request in flight, or a timer at the end of a pause. Both decisions read the clock once. Read
   * twice, a pause that ended between the reads (a timer fires up to a millisecond before
   * Date.now() reaches its end, as libuv counts from the start of its loop turn) was too early
   * to wake anyone and too late to wait for: requests waited with none in flight and no timer.
   */
  private schedule(): void {
    const now = this.now();
    while (this.waiting.length > 0 && this.free(now)) this.waiting.shift()?.();
    for (const listener of this.listeners) listener();
    if (this.waiting.length === 0 || this.timer !== null) return;
    const wait = Math.max(this.pausedUntil, this.nextStartAt) - now;
    // Not paused: every slot is taken, and each request in flight calls again when it is released.
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
