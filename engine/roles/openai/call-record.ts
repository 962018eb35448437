// What a model call leaves in the trajectory besides its answer: latency, attempts, the request
// id, the token usage the endpoint reported, and (unless recording is off) the raw request and
// response bodies. Bodies come from a server we do not control, so they are copied as JSON and
// the API key is blanked out wherever it appears; the key is never part of a request body.
import type { ModelCall, TokenUsage } from "../../episode/types.js";
import { isJsonObject, type JsonValue } from "../../base/json.js";
import { redact } from "./failures.js";

const USAGE_FIELDS = ["prompt_tokens", "completion_tokens", "total_tokens"] as const;

/** The counts of a completion's `usage`, as reported; null when it reported none. */
export function readUsage(completion: unknown): TokenUsage | null {
  if (!isJsonObject(completion)) return null;
  const usage = completion.usage;
  if (!isJsonObject(usage)) return null;
  const counts: Record<string, number> = {};
  for (const field of USAGE_FIELDS) {
    const n = usage[field];
    if (typeof n === "number" && Number.isSafeInteger(n) && n >= 0) counts[field] = n;
  }
  return Object.keys(counts).length > 0 ? (counts as TokenUsage) : null;
}

/**
 * A JSON copy of `value` with every occurrence of the key replaced; undefined when it has no JSON
 * form. Non-finite numbers become null (as JSON.stringify writes them), so the writer accepts it.
 */
function redactedJson(value: unknown, apiKey: string): JsonValue | undefined {
  if (value === undefined) return undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  return JSON.parse(redact(text, apiKey)) as JsonValue;
}

export interface CallFacts {
  readonly model: string;
  readonly startedAt: number;
  readonly attempts: number;
  readonly requestId: string | null | undefined;
  readonly usage: TokenUsage | null;
  readonly error?: string;
  /** Present only when the bodies are recorded. */
  readonly io?: { readonly request: unknown; readonly response: unknown; readonly apiKey: string };
}

/** The trajectory's record of one call; `now` is the clock the latency is read from (ms). */
export function modelCallRecord(facts: CallFacts, now: number): ModelCall {
  const request = facts.io ? redactedJson(facts.io.request, facts.io.apiKey) : undefined;
  const response = facts.io ? redactedJson(facts.io.response, facts.io.apiKey) : undefined;
  return {
    model: facts.model,
    latency_ms: Math.max(0, Math.round(now - facts.startedAt)),
    attempts: facts.attempts,
    request_id: facts.requestId ?? null,
    usage: facts.usage,
    ...(facts.error !== undefined ? { error: facts.error } : {}),
    ...(request !== undefined ? { request } : {}),
    ...(response !== undefined ? { response } : {}),
  };
}
