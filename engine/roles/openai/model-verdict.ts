// A model asked for one verdict on a finished episode: the role-play judge (DialogTool's persona
// rubric) and the failure reviewer (`run --review`) are both this. Each gives its instructions, the
// request it builds from the episode, and a reader of the answer; this file makes the one call
// through ChatModel (so with the roles' timeouts, retries, limiter, cache and telemetry) and turns
// whatever goes wrong (the endpoint failing, an answer that is not what was asked for) into a
// one-line failure, so the run goes on and the trajectory says why. Only a cancelled run's abort
// is rethrown.
import { isJsonObject, type JsonObject } from "../../base/json.js";
import { RoleError } from "../../episode/role.js";
import type { ModelCall } from "../../episode/types.js";
import type { CacheScope } from "./call-cache.js";
import { ChatModel, type ChatModelOptions } from "./chat-model.js";
import { openAiRoleId, type ModelSettings } from "./settings.js";

/** What a reader made of the model's answer: the verdict, or why the answer is not one. */
export type VerdictReading<V> = { readonly ok: true; readonly verdict: V } | { readonly ok: false; readonly problem: string };

/** The outcome of one ask: a verdict or a one-line failure, with the call's telemetry when a call was made. */
type VerdictOutcome<V> =
  | { readonly ok: true; readonly verdict: V; readonly call?: ModelCall }
  | { readonly ok: false; readonly failure: string; readonly call?: ModelCall };

export class VerdictModel {
  readonly id: string;
  readonly settings: ModelSettings;
  private readonly model: ChatModel;

  constructor(options: ChatModelOptions | ChatModel) {
    this.model = options instanceof ChatModel ? options : new ChatModel(options);
    this.settings = this.model.settings;
    this.id = openAiRoleId(this.settings);
  }

  /** The same model for one job: with a run's cache (`--cache`), its answers are found under the job's trial and seed. */
  withScope(scope: CacheScope): VerdictModel {
    return new VerdictModel(this.model.withScope(scope));
  }

  /**
   * One call: `instructions` as the system message, `request` as the user's, the answer read by
   * `read`. `who` ("judge", "reviewer") names the asker in failures and in the call's label.
   */
  async ask<V>(
    who: string,
    instructions: string,
    request: string,
    read: (content: string | null) => VerdictReading<V>,
    signal?: AbortSignal,
  ): Promise<VerdictOutcome<V>> {
    let call: ModelCall | undefined;
    const chat = [
      { role: "system" as const, content: instructions },
      { role: "user" as const, content: request },
    ];
    let content: string | null;
    try {
      content = (
        await this.model.complete(`${who} ${this.id}`, chat, [], signal, (made) => {
          call = made;
        })
      ).content;
    } catch (error) {
      if (error instanceof RoleError) return { ok: false, failure: error.message, ...(call ? { call } : {}) };
      throw error;
    }
    const reading = read(content);
    const made = call ? { call } : {};
    return reading.ok ? { ok: true, verdict: reading.verdict, ...made } : { ok: false, failure: reading.problem, ...made };
  }
}

/**
 * The JSON object an answer holds, as both verdicts ask for one: a Markdown code fence around it,
 * as chat models often write it, is accepted. `who` names the asker in the problem ("the judge's
 * answer is not JSON: ...").
 */
export function answerObject(content: string | null, who: string): VerdictReading<JsonObject> {
  if (content === null || content.trim() === "") return { ok: false, problem: `the ${who} answered with no text` };
  const trimmed = content.trim();
  const fence = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
  const text = fence ? fence[1]!.trim() : trimmed;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, problem: `the ${who}'s answer is not JSON: ${quotedAnswer(text)}` };
  }
  if (!isJsonObject(parsed)) return { ok: false, problem: `the ${who}'s answer is not a JSON object: ${quotedAnswer(text)}` };
  return { ok: true, verdict: parsed };
}

/** A piece of an answer quoted in a one-line failure: whitespace flattened, cut at 80 characters. */
export function quotedAnswer(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 80)}...` : flat);
}

/**
 * A verdict on a finished episode as the runner appends it: null when the run is being stopped,
 * before the call or while it was out (a stopped run is not judged, and a call cut short by the
 * stop is not a verdict).
 */
export async function unlessStopped<T>(signal: AbortSignal, ask: () => Promise<T>): Promise<T | null> {
  if (signal.aborted) return null;
  return ask().catch((error: unknown) => {
    if (signal.aborted) return null;
    throw error;
  });
}
