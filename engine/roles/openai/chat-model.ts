// One chat-completions call through the `openai` client, for either role. The client does the
// fault handling: a timeout per attempt, and retries with exponential backoff on 408, 409, 429,
// 5xx and dropped connections, waiting as long as a Retry-After or retry-after-ms header asks.
// When the last attempt fails, the role throws a RoleError("model_error") whose message names
// the status or the connection problem; the episode ends with it, and nothing crashes.
//
// Two run-wide services ride along when a run asks for them: every HTTP attempt waits for a slot of
// the endpoint's limiter (`--concurrency auto`, endpoint-limiter.ts), and answers are kept in and
// read from a cache (`--cache`, call-cache.ts) under the job's trial and seed (`withScope`).
import OpenAI, { type ClientOptions } from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { ModelCall, ModelSettings } from "../../episode/types.js";
import { RoleError } from "../../episode/role.js";
import { type CacheScope, type CallCache, cacheKey } from "./call-cache.js";
import type { EndpointLimiter } from "./endpoint-limiter.js";
import { describeModelFailure } from "./failures.js";
import { readAssistantMessage, type AssistantMessage } from "./response.js";
import { modelCallRecord, readUsage, type CallFacts } from "./call-record.js";
import { isJsonObject } from "../../base/json.js";

export interface ChatModelOptions {
  readonly settings: ModelSettings;
  /** Sent as the bearer token; kept out of every message this class produces. */
  readonly apiKey: string;
  /** A fetch to use instead of the global one (tests). */
  readonly fetch?: typeof fetch;
  /** Keep each call's request and response bodies in its telemetry (default true; `--no-record-io`). */
  readonly recordIo?: boolean;
  /** Every HTTP attempt takes a slot of this endpoint's limiter (`--concurrency auto`). */
  readonly limiter?: EndpointLimiter;
  /** Answers kept on disk (`--cache`); used only by a model given a job's scope (`withScope`). */
  readonly cache?: CallCache;
}

/**
 * The HTTP requests one call has made so far. The client hands each call's `fetchOptions` to its
 * fetch on every attempt, so the counter rides along under a symbol no server ever sees.
 */
const ATTEMPTS = Symbol("attempts");
/** The caller's own signal, so an attempt the client aborted on its timeout can be told from a cancelled one. */
const CALLER_SIGNAL = Symbol("caller signal");
interface AttemptCounter {
  count: number;
}
/** How long a refusal's body may take to read before it is dropped. */
const REFUSAL_BODY_WAIT_MS = 250;

/** Reads the response's body to its end, or cancels it (not awaited) if that takes longer than `ms`. */
async function readOrDrop(response: Response, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const read = response.arrayBuffer().then(
    () => true,
    () => true,
  );
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const done = await Promise.race([read, late]);
  clearTimeout(timer);
  if (!done) response.body?.cancel().catch(() => undefined);
}

/** Refusals the limiter absorbs per attempt of the client before it hands the refusal on. */
const LIMITER_RESENDS = 1000;
type CountedInit = RequestInit & { readonly [ATTEMPTS]?: AttemptCounter; readonly [CALLER_SIGNAL]?: AbortSignal };
type CallFetchOptions = NonNullable<ClientOptions["fetchOptions"]> & {
  readonly [ATTEMPTS]: AttemptCounter;
  readonly [CALLER_SIGNAL]?: AbortSignal;
};

/**
 * A model behind an endpoint, with one role's settings. Its client is made once and used for every
 * call (building a client costs about as much CPU as sending a call), so the roles of a batch
 * run's episodes can share one model; calls are independent and may overlap.
 */
export class ChatModel {
  readonly settings: ModelSettings;
  private readonly apiKey: string;
  private readonly client: OpenAI;
  private readonly recordIo: boolean;

  /** `scope` and `client` are given only by `withScope`, which shares this model's client. */
  constructor(
    private readonly options: ChatModelOptions,
    private readonly scope: CacheScope | null = null,
    client?: OpenAI,
  ) {
    const { settings, apiKey } = options;
    this.settings = settings;
    this.apiKey = apiKey;
    this.recordIo = options.recordIo ?? true;
    this.client = client ?? this.createClient();
  }

  /** The same model for one job: cached answers are stored and found under the job's trial and seed. */
  withScope(scope: CacheScope): ChatModel {
    return new ChatModel(this.options, scope, this.client);
  }

  private createClient(): OpenAI {
    const { settings, apiKey, limiter } = this.options;
    const baseFetch = this.options.fetch ?? fetch;
    return new OpenAI({
      apiKey,
      baseURL: settings.base_url,
      timeout: Math.round(settings.timeout_seconds * 1000),
      maxRetries: settings.max_retries,
      // The client's logger prints requests at debug level; nothing of a run goes to a log.
      logLevel: "off",
      fetch: async (input, init?: CountedInit) => {
        const counter = init?.[ATTEMPTS];
        if (counter) counter.count++;
        if (!limiter) return baseFetch(input, init);
        // Under the limiter a refusal is a signal, not a failure: the request waits for its pace and
        // any pause the endpoint asked for, and goes again, without using up the client's retries.
        // (The body is the JSON text the client wrote, so it can be sent again as it is.)
        const resendable = init?.body === undefined || init.body === null || typeof init.body === "string";
        for (let refusals = 0; ; refusals++) {
          await limiter.acquire(init?.signal ?? undefined);
          let response: Response;
          try {
            response = await baseFetch(input, init);
          } catch (error) {
            // Aborted without the caller asking: the client's own timeout, which the limiter counts.
            limiter.release({ timedOut: init?.signal?.aborted === true && init[CALLER_SIGNAL]?.aborted !== true });
            throw error;
          }
          limiter.release({ status: response.status, headers: response.headers });
          const refused = response.status === 429 || response.status === 503;
          if (!refused || !resendable || refusals >= LIMITER_RESENDS) return response;
          // Read to its end (a refusal's body is a few hundred bytes, already sent), so its
          // keep-alive connection is free for the next request; a body left unread or cancelled
          // holds it. The read is bounded, then cancelled: a read that never ends must not hold
          // the episode. (Runs that stalled against mock-llm --rate-limit were the limiter's
          // missed wake-up, endpoint-limiter.ts, not this.)
          await readOrDrop(response, REFUSAL_BODY_WAIT_MS);
          if (counter) counter.count++;
        }
      },
    });
  }

  /**
   * The assistant message the model answered with. Throws RoleError("model_error") when it finally
   * fails; `label` ("agent openai:gpt-4o") names the role in its message. Every call, answered or
   * failed, is reported to `onCall` with its telemetry (a cancelled one is not).
   */
  async complete(
    label: string,
    messages: ChatCompletionMessageParam[],
    tools: ChatCompletionTool[],
    signal?: AbortSignal,
    onCall?: (call: ModelCall) => void,
  ): Promise<AssistantMessage> {
    const { settings, apiKey } = this;
    const attempts: AttemptCounter = { count: 0 };
    const fetchOptions: CallFetchOptions = { [ATTEMPTS]: attempts, ...(signal ? { [CALLER_SIGNAL]: signal } : {}) };
    const body = {
      model: settings.model,
      messages,
      ...(tools.length > 0 ? { tools } : {}),
      ...(settings.temperature !== null ? { temperature: settings.temperature } : {}),
      ...(settings.seed !== null ? { seed: settings.seed } : {}),
      ...(settings.max_tokens !== null ? { max_tokens: settings.max_tokens } : {}),
    };
    const startedAt = performance.now();
    const report = (facts: Omit<CallFacts, "model" | "startedAt" | "attempts" | "io">, response: unknown): void => {
      const io = this.recordIo ? { request: body, response, apiKey } : undefined;
      onCall?.(
        modelCallRecord({ model: settings.model, startedAt, attempts: attempts.count, ...facts, ...(io ? { io } : {}) }, performance.now()),
      );
    };
    const cache = this.scope !== null ? this.options.cache : undefined;
    const key = cache && this.scope ? cacheKey({ baseUrl: settings.base_url, model: settings.model, body, scope: this.scope }) : null;
    if (cache && key !== null) {
      const kept = cache.get(key);
      const read = kept === null ? null : readAssistantMessage(kept);
      if (read?.ok === true) {
        // Nothing was sent: no latency, no attempt, no tokens billed; the tokens it saved are kept apart.
        const io = this.recordIo ? { request: body, response: kept, apiKey } : undefined;
        onCall?.({
          ...modelCallRecord({ model: settings.model, startedAt: 0, attempts: 0, requestId: null, usage: null, ...(io ? { io } : {}) }, 0),
          cached: { usage: readUsage(kept) },
        });
        return read.message;
      }
    }
    let completion: unknown;
    try {
      // A signal of its own per call: the client adds an abort listener to the signal it is given
      // and never removes it, so sharing the episode's signal would pile one up per call.
      const answered = await this.client.chat.completions
        .create(body, { fetchOptions, ...(signal ? { signal: AbortSignal.any([signal]) } : {}) })
        .withResponse();
      completion = answered.data;
      report({ requestId: answered.request_id, usage: readUsage(completion) }, completion);
    } catch (error) {
      // A cancelled run is the episode's to report, not a model failure.
      if (error instanceof OpenAI.APIUserAbortError || signal?.aborted) throw error;
      const problem = describeModelFailure(error, { settings, attempts: attempts.count, apiKey });
      const apiError = error instanceof OpenAI.APIError ? error : null;
      report({ requestId: apiError?.requestID, usage: null, error: problem }, apiError?.error);
      throw new RoleError(`${label}: ${problem}`, "model_error");
    }
    const read = readAssistantMessage(completion);
    if (!read.ok) throw new RoleError(`${label}: ${settings.base_url} answered with ${read.problem}`, "model_error");
    if (cache && key !== null && isJsonObject(completion)) cache.put(key, completion);
    return read.message;
  }
}
