// The settings of a model-backed role and their defaults. A role's settings are recorded in the
// trajectory header as they are; the API key is not a setting and never appears here.
import type { ModelSettings } from "../../episode/types.js";

export type { ModelSettings };

export const DEFAULT_BASE_URL = "https://api.openai.com/v1";
export const DEFAULT_API_KEY_ENV = "OPENAI_API_KEY";
/** Per attempt. Generous, because local servers on a CPU can take minutes for a long prompt. */
export const DEFAULT_TIMEOUT_SECONDS = 120;
/** The openai client's own default: three attempts in all. */
export const DEFAULT_MAX_RETRIES = 2;

/** Settings for `model` with the defaults filled in for whatever `given` leaves out. */
export function modelSettings(model: string, given: Partial<Omit<ModelSettings, "model">> = {}): ModelSettings {
  return {
    model,
    base_url: given.base_url ?? DEFAULT_BASE_URL,
    temperature: given.temperature ?? null,
    seed: given.seed ?? null,
    max_tokens: given.max_tokens ?? null,
    timeout_seconds: given.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS,
    max_retries: given.max_retries ?? DEFAULT_MAX_RETRIES,
    api_key_env: given.api_key_env ?? DEFAULT_API_KEY_ENV,
  };
}

/** The role id the run header and the summary show: "openai:<model>". */
export const openAiRoleId = (settings: ModelSettings): string => `openai:${settings.model}`;
