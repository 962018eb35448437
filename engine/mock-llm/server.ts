// A local OpenAI-compatible server that plays scenarios' reference solutions, for tests, demos
// and trying the whole flow without a key. It listens on 127.0.0.1 only, answers
// POST /v1/chat/completions and POST /v1/responses (each as JSON or, with `stream: true`, as
// server-sent events) and GET /v1/models, checks every request body at the door, injects the
// configured faults, and records every request it receives.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { JsonObject, JsonValue } from "../base/json.js";
import type { Scenario } from "../scenario/model.js";
import { applyReplyFaults, chatCompletion } from "./completion.js";
import { FaultPlan } from "./fault-plan.js";
import { describeFault, faultProblem, type Fault } from "./faults.js";
import { MockLlmError, invalidRequest } from "./http-error.js";
import { detectSide, ScenarioIndex, SCENARIO_MODEL_PREFIX, type RequestRole } from "./identify.js";
import { isJudgeRequest, judgeReply } from "./judge-reply.js";
import { isReviewRequest, reviewReply } from "./review-reply.js";
import { choiceKindOf, choiceReply } from "./dialogtool-choice.js";
import { agentReply, userReply, type ScriptedReply } from "./reply.js";
import { toolCreationReply, toolCreationTarget } from "./tool-creation.js";
import { type RateLimit, TokenBucket } from "./rate-limit.js";
import { chatCompletionChunks, chatStreamBody } from "./chat-stream.js";
import { responseEvents, responseObject, responseStreamBody } from "./responses.js";
import { parseResponsesRequest, type ResponsesRequest } from "./responses-wire.js";
import { type ChatRequest, parseChatRequest } from "./wire.js";

interface MockLlmOptions {
  readonly scenarios: readonly Scenario[];
  readonly faults?: readonly Fault[];
  /** 0 or absent: any free port. */
  readonly port?: number;
  /** Only the loopback interface: the server has no authentication. */
  readonly host?: "127.0.0.1";
  /** Refuse chat requests beyond this rate with 429 and Retry-After (`--rate-limit N/s`). */
  readonly rateLimit?: RateLimit;
  /** Tool-creation requests (tool name -> Python code), answered with that code (tool-creation.ts). */
  readonly codeAnswers?: ReadonlyMap<string, string>;
  /** Called once per request, after it was answered or dropped. */
  readonly onRequest?: (request: RecordedRequest) => void;
}

export interface RecordedRequest {
  /** 1-based, in order of arrival. */
  readonly number: number;
  readonly method: string;
  readonly path: string;
  /** The body parsed as JSON; null when it was empty or not JSON (`rawBody` has the text). */
  readonly body: JsonValue | null;
  readonly rawBody: string;
  /** For chat completions the mock could read: which side it was for, the scenario and the reference step played. */
  readonly side: RequestRole | null;
  readonly scenario: string | null;
  readonly step: number | null;
  /** The faults that hit it, in the command-line syntax. */
  readonly faults: readonly string[];
  /** The status answered; null when the connection was dropped. */
  readonly status: number | null;
  /** The error message answered with, if any. */
  readonly error: string | null;
}

export interface MockLlm {
  /** e.g. "http://127.0.0.1:43121"; OpenAI clients take `${url}/v1` as their base URL. */
  readonly url: string;
  readonly port: number;
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

type Answer = (status: number, body: JsonObject, headers?: Readonly<Record<string, string>>) => void;
/** A 200 answer of server-sent events (the body already framed). */
type StreamAnswer = (body: string) => void;

/** The two request formats the mock plays from: chat completions and the Responses API. */
type ApiFormat = "chat" | "responses";

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const DEFAULT_RETRY_AFTER_SECONDS = 1;

export async function startMockLlm(options: MockLlmOptions): Promise<MockLlm> {
  const faults = options.faults ?? [];
  for (const fault of faults) {
    const problem = faultProblem(fault);
    if (problem !== null) throw new RangeError(problem);
  }
  const host = options.host ?? "127.0.0.1";
  if (host !== "127.0.0.1") throw new RangeError("the mock server listens on 127.0.0.1 only");
  const index = new ScenarioIndex(options.scenarios);
  const plan = new FaultPlan(faults);
  const bucket = options.rateLimit ? new TokenBucket(options.rateLimit) : null;
  const requests: RecordedRequest[] = [];
  const sleepers = new Set<() => void>();
  let closed = false;

  /** Waits `ms`, or less when the server closes; false when it closed meanwhile. */
  const sleep = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve(!closed);
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });

  /** Answers (or drops) one model request, in either format; errors are thrown as MockLlmError. */
  const serveModelRequest = async (
    req: IncomingMessage,
    record: Mutable<RecordedRequest>,
    answer: Answer,
    answerStream: StreamAnswer,
    format: ApiFormat,
  ): Promise<void> => {
    record.rawBody = await readBody(req);
    const wait = bucket?.take() ?? 0;
    if (wait > 0) {
      record.faults = ["rate-limit (--rate-limit)"];
      throw new MockLlmError(429, `Rate limit reached. Please try again in ${wait}ms.`, "requests", "rate_limit_exceeded", null, {
        "retry-after": String(Math.ceil(wait / 1000)),
        "retry-after-ms": String(wait),
      });
    }
    const body = parseJson(record.rawBody);
    record.body = body;
    let responses: ResponsesRequest | null = null;
    let request: ChatRequest;
    if (format === "responses") {
      responses = parseResponsesRequest(body);
      request = responses.chat;
    } else request = parseChatRequest(body);
    const creationTool = options.codeAnswers ? toolCreationTarget(request) : null;
    // The role-play judge rates a finished episode: no scenario to identify, no reference step.
    const choice = creationTool === null ? choiceKindOf(request) : null;
    // The failure reviewer reads a finished run the same way: nothing to identify either.
    const side: RequestRole =
      creationTool !== null || choice !== null
        ? "agent"
        : isJudgeRequest(request)
          ? "judge"
          : isReviewRequest(request)
            ? "reviewer"
            : detectSide(request);
    record.side = side;
    let scripted: ScriptedReply;
    if (creationTool !== null) {
      record.scenario = `tool creation: ${creationTool}`;
      scripted = toolCreationReply(creationTool, options.codeAnswers ?? new Map());
    } else if (side === "judge") scripted = judgeReply(request);
    else if (side === "reviewer") scripted = reviewReply(request);
    else if (choice !== null) {
      // DialogTool's question before an agent turn: an agent request, answered with the reference.
      const scenario = index.identify(request, "agent");
      record.scenario = scenario.name;
      scripted = await choiceReply(choice, scenario, request);
    } else {
      const scenario = index.identify(request, side);
      record.scenario = scenario.name;
      scripted = side === "agent" ? agentReply(scenario, request) : userReply(scenario, request);
    }
    record.step = scripted.step;
    const hits = plan.select({
      side,
      replyHasToolCalls: scripted.toolCalls.length > 0,
      offersTools: request.tools.length > 0,
      offeredTools: request.tools.map((t) => t.name),
    });
    record.faults = hits.map(describeFault);
    for (const fault of hits) {
      if (fault.kind === "latency" && !(await sleep(fault.ms))) return;
    }
    const ending = hits.find((f) => f.kind === "drop" || f.kind === "rate-limit" || f.kind === "server-error");
    if (ending?.kind === "drop") {
      req.socket.destroy();
      return;
    }
    if (ending?.kind === "rate-limit") {
      const seconds = ending.retryAfter ?? DEFAULT_RETRY_AFTER_SECONDS;
      throw new MockLlmError(
        429,
        `Rate limit reached (injected fault). Please try again in ${seconds}s.`,
        "requests",
        "rate_limit_exceeded",
        null,
        {
          "retry-after": String(seconds),
        },
      );
    }
    if (ending?.kind === "server-error") {
      throw new MockLlmError(
        ending.status ?? 500,
        "The server had an error while processing your request (injected fault).",
        "server_error",
      );
    }
    const reply = applyReplyFaults(scripted, hits, request);
    if (responses !== null) {
      const response = responseObject(reply, responses, record.number, record.rawBody);
      if (request.stream) answerStream(responseStreamBody(responseEvents(response)));
      else answer(200, response);
      return;
    }
    const completion = chatCompletion(reply, request.model, record.number, record.rawBody);
    if (request.stream) answerStream(chatStreamBody(chatCompletionChunks(completion, request.includeUsage)));
    else answer(200, completion);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const record: Mutable<RecordedRequest> = {
      number: requests.length + 1,
      method: req.method ?? "GET",
      path: req.url ?? "/",
      body: null,
      rawBody: "",
      side: null,
      scenario: null,
      step: null,
      faults: [],
      status: null,
      error: null,
    };
    requests.push(record);
    const answer: Answer = (status, body, headers = {}) => {
      record.status = status;
      const text = JSON.stringify(body);
      // A request id as real endpoints send one, numbered (never random) so runs stay reproducible.
      const requestId = { "x-request-id": `req-mock-${record.number}` };
      res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...requestId, ...headers });
      res.end(text);
    };
    const answerStream: StreamAnswer = (body) => {
      record.status = 200;
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        "x-request-id": `req-mock-${record.number}`,
      });
      res.end(body);
    };
    try {
      const path = new URL(record.path, "http://localhost").pathname;
      record.path = path;
      if (path === "/v1/chat/completions") {
        if (record.method !== "POST") throw methodNotAllowed(record.method, path);
        await serveModelRequest(req, record, answer, answerStream, "chat");
      } else if (path === "/v1/responses") {
        if (record.method !== "POST") throw methodNotAllowed(record.method, path);
        await serveModelRequest(req, record, answer, answerStream, "responses");
      } else if (path === "/v1/models" || path.startsWith("/v1/models/")) {
        if (record.method !== "GET") throw methodNotAllowed(record.method, path);
        answer(200, modelsAnswer(index, path));
      } else {
        throw new MockLlmError(
          404,
          `Invalid URL (${record.method} ${path}): the mock server answers POST /v1/chat/completions, POST /v1/responses and GET /v1/models.`,
        );
      }
    } catch (e) {
      const error =
        e instanceof MockLlmError
          ? e
          : new MockLlmError(500, `Internal error in the mock server: ${e instanceof Error ? e.message : String(e)}`, "server_error");
      record.error = error.message;
      if (!res.headersSent && !req.socket.destroyed) answer(error.status, error.body(), error.headers);
    } finally {
      options.onRequest?.(record);
    }
  };

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the mock server is not listening on a TCP port");
  const port = address.port;

  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const wake of [...sleepers]) wake();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive and in-flight connections would otherwise hold close() open.
      server.closeAllConnections();
      await done;
    },
  };
}

/** GET /v1/models and /v1/models/<id>: "mock" and one "mock/<name>" per scenario. */
function modelsAnswer(index: ScenarioIndex, path: string): JsonObject {
  const models = ["mock", ...index.scenarios.map((s) => `${SCENARIO_MODEL_PREFIX}${s.name}`)].map((id) => ({
    id,
    object: "model",
    created: 0,
    owned_by: "toolsandbox",
  }));
  if (path === "/v1/models") return { object: "list", data: models };
  const id = decodeURIComponent(path.slice("/v1/models/".length));
  const model = models.find((m) => m.id === id);
  if (!model) throw new MockLlmError(404, `The model "${id}" does not exist.`, "invalid_request_error", "model_not_found", "model");
  return model;
}

function methodNotAllowed(method: string, path: string): MockLlmError {
  return new MockLlmError(405, `Method ${method} is not allowed on ${path}.`);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new MockLlmError(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`));
        req.removeAllListeners("data");
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseJson(text: string): JsonValue {
  if (text.trim() === "") throw invalidRequest("The request has no body; send the chat-completion arguments as JSON.");
  try {
    // JSON.parse builds nothing but JSON values.
    return JSON.parse(text) as JsonValue;
  } catch (e) {
    throw invalidRequest(`The request body is not valid JSON: ${e instanceof Error ? e.message : String(e)}.`);
  }
}
