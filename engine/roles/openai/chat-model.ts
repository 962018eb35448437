// One chat-completions call through the `openai` client, for either role. The client does the
// fault handling: a timeout per attempt, and retries with exponential backoff on 408, 409, 429,
// 5xx and dropped connections, waiting as long as a Retry-After or retry-after-ms header asks.
// When the last attempt fails, the role throws a RoleError("model_error") whose message names
// the status or the connection problem; the episode ends with it, and nothing crashes.
import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { ModelSettings } from "../../episode/types.js";
import { RoleError } from "../role.js";
import { describeModelFailure } from "./failures.js";
import { readAssistantMessage, type AssistantMessage } from "./response.js";

export interface ChatModelOptions {
  readonly settings: ModelSettings;
  /** Sent as the bearer token; kept out of every message this class produces. */
  readonly apiKey: string;
  /** "agent openai:gpt-4o": names the role in error messages. */
  readonly label: string;
  /** A fetch to use instead of the global one (tests). */
  readonly fetch?: typeof fetch;
}

export class ChatModel {
  constructor(private readonly options: ChatModelOptions) {}

  /** The assistant message the model answered with. Throws RoleError("model_error") when it finally fails. */
  async complete(messages: ChatCompletionMessageParam[], tools: ChatCompletionTool[], signal?: AbortSignal): Promise<AssistantMessage> {
    const { settings, apiKey, label } = this.options;
    // A client per call, so its fetch can count this call's attempts for the error message. It is
    // cheap: connections are pooled by Node's fetch, not by the client.
    let attempts = 0;
    const baseFetch = this.options.fetch ?? fetch;
    const client = new OpenAI({
      apiKey,
      baseURL: settings.base_url,
      timeout: Math.round(settings.timeout_seconds * 1000),
      maxRetries: settings.max_retries,
      // The client's logger prints requests at debug level; nothing of a run goes to a log.
      logLevel: "off",
      fetch: (input, init) => {
        attempts++;
        return baseFetch(input, init);
      },
    });
    let completion: unknown;
    try {
      completion = await client.chat.completions.create(
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
        signal ? { signal: AbortSignal.any([signal]) } : {},
      );
    } catch (error) {
      // A cancelled run is the episode's to report, not a model failure.
      if (error instanceof OpenAI.APIUserAbortError || signal?.aborted) throw error;
      throw new RoleError(`${label}: ${describeModelFailure(error, { settings, attempts, apiKey })}`, "model_error");
    }
    const read = readAssistantMessage(completion);
    if (!read.ok) throw new RoleError(`${label}: ${settings.base_url} answered with ${read.problem}`, "model_error");
    return read.message;
  }
}
