// The errors the mock server answers with, in the shape OpenAI's API uses, so a client's own
// error handling (status classes, `error.message`, Retry-After) is exercised as it would be
// against the real service.
import type { JsonObject } from "../base/json.js";

/** OpenAI's `error.type` values that this server uses. */
type OpenAiErrorType = "invalid_request_error" | "requests" | "server_error";

export class MockLlmError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: OpenAiErrorType = "invalid_request_error",
    /** OpenAI's machine-readable code, e.g. "model_not_found"; null when there is none. */
    readonly code: string | null = null,
    /** Where in the request body the problem is, e.g. "messages[2].tool_calls[0].function.arguments". */
    readonly param: string | null = null,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "MockLlmError";
  }

  /** The response body: `{ "error": { message, type, param, code } }`. */
  body(): JsonObject {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

/** A 400 about the request body; `param` names the offending field. */
export function invalidRequest(message: string, param: string | null = null, code: string | null = null): MockLlmError {
  return new MockLlmError(400, message, "invalid_request_error", code, param);
}
