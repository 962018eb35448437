// What every feature request goes through before the service sees it: the lifecycle (-32002
// before `initialize`, -32600 after `shutdown`), its params checked (-32602, with what is wrong),
// and cancellation (-32800 when `$/cancelRequest` came before the answer was sent).
import { ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken } from "vscode-languageserver/node";

export class Lifecycle {
  initialized = false;
  shutDown = false;
  /** Feature requests read but not yet answered; the diagnostics wait for none (diagnostics.ts). */
  pending = 0;
}

/** A params check: null when the params are usable, else what is wrong with them. */
type ParamsCheck = (params: unknown) => string | null;

type Answer<R> = R | ResponseError<void>;

/**
 * The handler, run after a turn of the event loop (a cancellation or an edit sent just after the
 * request is read first), and answered -32800 if it was cancelled meanwhile or while it ran.
 */
export function request<P, R>(
  lifecycle: Lifecycle,
  method: string,
  check: ParamsCheck,
  handler: (params: P) => Answer<R>,
): (params: P, token: CancellationToken) => Promise<Answer<R>> {
  return async (params, token) => {
    if (!lifecycle.initialized) return new ResponseError(ErrorCodes.ServerNotInitialized, `${method}: the server is not initialized yet.`);
    if (lifecycle.shutDown) return new ResponseError(ErrorCodes.InvalidRequest, `${method}: the server is shutting down.`);
    const problem = check(params);
    if (problem !== null) return new ResponseError(ErrorCodes.InvalidParams, `${method}: ${problem}`);
    lifecycle.pending++;
    try {
      await new Promise((resolve) => setImmediate(resolve));
      if (token.isCancellationRequested) return cancelled(method);
      const answer = handler(params);
      return token.isCancellationRequested ? cancelled(method) : answer;
    } finally {
      lifecycle.pending--;
    }
  };
}

function cancelled(method: string): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, `${method}: the request was cancelled.`);
}

// ---------------------------------------------------------------------------------------------
// Params checks

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isIndex = (v: unknown): boolean => typeof v === "number" && Number.isInteger(v) && v >= 0;

function documentProblem(params: unknown): string | null {
  if (!isObject(params)) return "params must be an object.";
  const doc = params.textDocument;
  if (!isObject(doc) || typeof doc.uri !== "string") return "textDocument.uri must be a string.";
  return null;
}

function positionProblem(position: unknown, name: string): string | null {
  if (!isObject(position) || !isIndex(position.line) || !isIndex(position.character))
    return `${name} must be { line, character } with integers from 0.`;
  return null;
}

export const documentParams: ParamsCheck = documentProblem;

export const positionParams: ParamsCheck = (params) =>
  documentProblem(params) ?? positionProblem((params as Record<string, unknown>).position, "position");

export const renameParams: ParamsCheck = (params) => {
  const problem = positionParams(params);
  if (problem !== null) return problem;
  return typeof (params as Record<string, unknown>).newName === "string" ? null : "newName must be a string.";
};

export const rangeParams: ParamsCheck = (params) => {
  const problem = documentProblem(params);
  if (problem !== null) return problem;
  const { range, context } = params as Record<string, unknown>;
  if (!isObject(range)) return "range must be { start, end }.";
  const bad = positionProblem(range.start, "range.start") ?? positionProblem(range.end, "range.end");
  if (bad !== null) return bad;
  if (!isObject(context) || !Array.isArray(context.diagnostics)) return "context.diagnostics must be a list.";
  return null;
};
