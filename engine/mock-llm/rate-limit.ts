// `mock-llm --rate-limit N/s`: a request-rate limit as hosted endpoints enforce one. A token bucket
// holding one second's worth of requests refills continuously; a request that finds it empty is
// refused with 429 and told, in Retry-After and retry-after-ms, when the next token comes.

export interface RateLimit {
  readonly perSecond: number;
}

export class RateLimitSpecError extends Error {
  override readonly name = "RateLimitSpecError";
}

/** "N/s" (N requests per second, N > 0, decimals allowed). */
export function parseRateLimit(text: string): RateLimit {
  const match = /^(\d+(?:\.\d+)?)\/s$/.exec(text.trim());
  const perSecond = match ? Number(match[1]) : Number.NaN;
  if (!(perSecond > 0) || perSecond > 1_000_000)
    throw new RateLimitSpecError(`--rate-limit takes N/s with N > 0 (e.g. 20/s), got "${text}"`);
  return { perSecond };
}

export class TokenBucket {
  private tokens: number;
  private updated: number;
  private readonly capacity: number;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.capacity = Math.max(1, limit.perSecond);
    this.tokens = this.capacity;
    this.updated = this.now();
  }

  /** Takes a token: 0 when one was there, else the milliseconds until the next one. */
  take(): number {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.updated) * this.limit.perSecond) / 1000);
    this.updated = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 1000) / this.limit.perSecond);
  }
}
