// What a finally failed model call becomes in the trajectory's end detail: one line that names the
// HTTP status or the connection problem, how many attempts were made, and the server's own words,
// with the API key blanked out wherever it might be echoed back.
import OpenAI from "openai";
import type { ModelSettings } from "../../episode/types.js";

/** Server messages can be whole HTML error pages; the detail keeps their start. */
const MAX_SERVER_TEXT = 300;

interface FailureContext {
  readonly settings: ModelSettings;
  /** HTTP requests made for the call, retries included. */
  readonly attempts: number;
  readonly apiKey: string;
}

/**
 * E.g. "HTTP 500 from http://127.0.0.1:8080/v1 after 3 attempts: upstream overloaded",
 * "no answer from https://api.openai.com/v1 within 30 s (3 attempts)",
 * "cannot reach http://127.0.0.1:9/v1 (1 attempt): connect ECONNREFUSED 127.0.0.1:9".
 */
export function describeModelFailure(error: unknown, context: FailureContext): string {
  const { settings, attempts, apiKey } = context;
  const tries = `${attempts} attempt${attempts === 1 ? "" : "s"}`;
  const where = settings.base_url;
  let text: string;
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    text = `no answer from ${where} within ${settings.timeout_seconds} s (${tries})`;
  } else if (error instanceof OpenAI.APIConnectionError) {
    text = `cannot reach ${where} (${tries}): ${causeChain(error)}`;
  } else if (error instanceof OpenAI.APIError && typeof error.status === "number") {
    const said = serverText(error);
    text = `HTTP ${error.status} from ${where} after ${tries}${said ? `: ${said}` : ""}`;
  } else {
    text = `the request to ${where} failed (${tries}): ${causeChain(error)}`;
  }
  return redact(text, apiKey);
}

/** The server's message without the status the client puts in front of it. */
function serverText(error: InstanceType<typeof OpenAI.APIError>): string {
  const body: unknown = error.error;
  const fromBody = isRecord(body) && typeof body.message === "string" ? body.message : null;
  const text = fromBody ?? error.message.replace(/^\d{3}\s*/, "").replace(/^status code \(no body\)$/, "");
  return oneLine(text);
}

/** "fetch failed: other side closed": each cause's message, outermost first, repeats dropped. */
function causeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const message = oneLine(current.message);
    if (message !== "" && !parts.includes(message)) parts.push(message);
    current = current.cause;
  }
  return parts.length > 0 ? parts.join(": ") : oneLine(String(error));
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_SERVER_TEXT ? `${flat.slice(0, MAX_SERVER_TEXT)}...` : flat;
}

/** A server may quote the key it was given (OpenAI quotes a masked one); never let it through. */
export function redact(text: string, apiKey: string): string {
  return apiKey.length >= 4 && text.includes(apiKey) ? text.split(apiKey).join("[redacted]") : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
