// One chat-completions call through the `openai` client, for either role. The client does the
// fault handling: a timeout per attempt, and retries with exponential backoff on 408, 409, 429,
// 5xx and dropped connections, waiting as long as a Retry-After or retry-after-ms header asks.
// When the last attempt fails, the role throws a RoleError("model_error") whose message names
// the status or the connection problem; the episode ends with it, and nothing crashes.
import OpenAI, { type ClientOptions } from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { ModelSettings } from "../../episode/types.js";
import { RoleError } from "../role.js";
import { describeModelFailure } from "./failures.js";
import { readAssistantMessage, type AssistantMessage } from "./response.js";

export interface ChatModelOptions {
  readonly settings: ModelSettings;
  /** Sent as the bearer token; kept out of every message this class produces. */
  readonly apiKey: string;
  /** A fetch to use instead of the global one (tests). */
  readonly fetch?: typeof fetch;
}

/**
 * The HTTP requests one call has made so far. The client hands each call's `fetchOptions` to its
 * fetch on every attempt, so the counter rides along under a symbol no server ever sees.
 */
const ATTEMPTS = Symbol("attempts");
interface AttemptCounter {
  count: number;
}
type CountedInit = RequestInit & { readonly [ATTEMPTS]?: AttemptCounter };
type CallFetchOptions = NonNullable<ClientOptions["fetchOptions"]> & { readonly [ATTEMPTS]: AttemptCounter };

/**
 * A model behind an endpoint, with one role's settings. Its client is made once and used for every
 * call (building a client costs about as much CPU as sending a call), so the roles of a batch
 * run's episodes can share one model; calls are independent and may overlap.
 */
export class ChatModel {
  readonly settings: ModelSettings;
  private readonly apiKey: string;
  private readonly client: OpenAI;

  constructor(options: ChatModelOptions) {
    const { settings, apiKey } = options;
    this.settings = settings;
    this.apiKey = apiKey;
    const baseFetch = options.fetch ?? fetch;
    this.client = new OpenAI({
      apiKey,
      baseURL: settings.base_url,
      timeout: Math.round(settings.timeout_seconds * 1000),
      maxRetries: settings.max_retries,
      // The client's logger prints requests at debug level; nothing of a run goes to a log.
      logLevel: "off",
      fetch: (input, init?: CountedInit) => {
        const counter = init?.[ATTEMPTS];
        if (counter) counter.count++;
        return baseFetch(input, init);
      },
    });
  }

  /**
   * The assistant message the model answered with. Throws RoleError("model_error") when it finally
   * fails; `label` ("agent openai:gpt-4o") names the role in its message.
   */
  async complete(label: string, messages: ChatCompletionMessageParam[], tools: ChatCompletionTool[], signal?: AbortSignal): Promise<AssistantMessage> {
    const { settings, apiKey } = this;
    const attempts: AttemptCounter = { count: 0 };
    const fetchOptions: CallFetchOptions = { [ATTEMPTS]: attempts };
    let completion: unknown;
    try {
      completion = await this.client.chat.completions.create(
        {
          model: settings.model,
          messages,
          ...(tools.length > 0 ? { tools } : {}),
          ...(settings.temperature !== null ? { temperature: settings.temperature } : {}),
          ...(settings.seed !== null ? { seed: settings.seed } : {}),
          ...(settings.max_tokens !== null ? { max_tokens: settings.max_tokens } : {}),
        },
        // A signal of its own per call: the client adds an abort listener to the signal it is given
        // and never removes it, so sharing the episode's signal would pile one up per call.
        { fetchOptions, ...(signal ? { signal: AbortSignal.any([signal]) } : {}) },
      );
    } catch (error) {
      // A cancelled run is the episode's to report, not a model failure.
      if (error instanceof OpenAI.APIUserAbortError || signal?.aborted) throw error;
      throw new RoleError(`${label}: ${describeModelFailure(error, { settings, attempts: attempts.count, apiKey })}`, "model_error");
    }
    const read = readAssistantMessage(completion);
    if (!read.ok) throw new RoleError(`${label}: ${settings.base_url} answered with ${read.problem}`, "model_error");
    return read.message;
  }
}
