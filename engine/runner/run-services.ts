// What the model-backed roles of one run share besides their settings: a limiter per endpoint
// (`--concurrency auto[:MAX]`) and the answer cache (`--cache DIR`). They are attached to the run's
// resolved role specs, so every episode's roles, and the judge, find them where they find their
// model: the agent, the user and the judge share a limiter exactly when they share a base URL.
import { CallCache } from "../roles/openai/call-cache.js";
import { EndpointLimiter } from "../roles/openai/endpoint-limiter.js";
import type { RoleSpec } from "./role-specs.js";

type ModelSpec = Extract<RoleSpec, { kind: "openai" }>;

interface RunServicesOptions {
  /** `--concurrency auto:MAX`: the most episodes at once, and the most requests any endpoint gets. */
  readonly autoConcurrency?: number;
  /** `--cache DIR`. */
  readonly cacheFolder?: string;
}

export class RunServices {
  readonly cache: CallCache | null;
  private readonly limiters = new Map<string, EndpointLimiter>();

  constructor(private readonly options: RunServicesOptions) {
    this.cache = options.cacheFolder === undefined ? null : new CallCache(options.cacheFolder);
  }

  get adaptive(): boolean {
    return this.options.autoConcurrency !== undefined;
  }

  /** The spec with the run's services attached (a scripted spec is returned as it is). */
  attach<S extends RoleSpec>(spec: S): S {
    if (spec.kind !== "openai") return spec;
    const model = spec as ModelSpec;
    const limiter = this.limiterFor(model.settings.base_url);
    return { ...spec, ...(limiter ? { limiter } : {}), ...(this.cache ? { cache: this.cache } : {}) };
  }

  private limiterFor(baseUrl: string): EndpointLimiter | null {
    const max = this.options.autoConcurrency;
    if (max === undefined) return null;
    let limiter = this.limiters.get(baseUrl);
    if (!limiter) {
      limiter = new EndpointLimiter({ max });
      this.limiters.set(baseUrl, limiter);
    }
    return limiter;
  }

  /**
   * Whether another episode may start under `auto`: only while every endpoint keeps up, that is
   * no request waits for a slot and the episodes running do not exceed the smallest limit by more
   * than one (an episode has one model call in flight at a time, as its turns alternate; the one
   * extra keeps a request ready whenever a slot frees). Without endpoints (scripted roles) up to MAX run.
   */
  admits(running: number): boolean {
    const max = this.options.autoConcurrency;
    if (max === undefined) return true;
    let room = max;
    for (const limiter of this.limiters.values()) {
      if (limiter.queued > 0) return false;
      room = Math.min(room, limiter.limit + 1);
    }
    return running < room;
  }

  /** Tells `listener` whenever an endpoint's limiter changes (see EndpointLimiter.onChange); returns the unsubscribe. */
  onAdmissionChange(listener: () => void): () => void {
    const unsubscribe = [...this.limiters.values()].map((l) => l.onChange(listener));
    return () => {
      for (const u of unsubscribe) u();
    };
  }

  /** For the progress line: each endpoint's current limit and the refusals seen ("limit 12, 3 throttled"). */
  status(): string {
    const parts = [...this.limiters.values()].map((l) => `limit ${l.limit}, ${l.throttled} throttled`);
    return parts.join("; ");
  }
}
