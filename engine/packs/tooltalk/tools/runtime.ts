// Running ToolTalk calls: what ToolTalk's ToolExecutor does around a tool (the login rules, the
// injected session token, Python's keyword binding) and the per-tool id generators.
//
// Clock: ToolTalk's "now" is the conversation's metadata.timestamp, a naive local time. Here it is
// the scenario clock's instant read as wall-clock time in the scenario's timezone, so a scenario
// whose clock is `metadata.timestamp` in any zone gives ToolTalk's now exactly, whatever the
// machine's timezone.
//
// Generators: ToolTalk creates each tool once per conversation state, each with its own
// Random(489); no two tools share one. It rebuilds everything before every assistant turn and
// replays the ground-truth calls of earlier turns, which leaves every generator where one
// continuous generator per tool would be. An episode therefore keeps one runtime throughout.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import { PythonRandom } from "../../../python/random.js";
import { executeTool, type ToolOutcome } from "../../../tools/execute.js";
import { fromTimestamp } from "../../../tools/python-datetime.js";
import { ToolError, type ToolContext, type ToolDefinition } from "../../../tools/types.js";
import type { ScenarioClock } from "../../../world/clock.js";
import type { WorldTransaction } from "../../../world/transaction.js";
import type { PackRuntime } from "../../types.js";
import type { Kwargs, ToolTalkApi } from "./api.js";
import { toolTalkApi } from "./apis.js";
import { CollectionState, toCell } from "./collections.js";
import { NO_SESSION } from "../databases.js";
import { pyStr } from "./python-semantics.js";
import { outcomeJson } from "./response-json.js";
import { accountByToken, currentToken, setSession } from "./login-session.js";

/** One call as ToolTalk records it: the request (session token injected) and its outcome. */
export interface ToolTalkCallRecord {
  readonly request: { readonly api_name: string; readonly parameters: Readonly<Record<string, JsonValue>> | null };
  readonly response: JsonObject | null;
  readonly exception: string | null;
}

interface Executed extends ToolTalkCallRecord {
  /** Python's exception class for a failed call. */
  readonly exceptionType: string | null;
}

const SEED = 489;
/** Refusals of the executor itself, which ToolTalk writes as plain text rather than raising. */
const EXECUTOR = "ToolExecutor";
const LOGINS = new Set(["UserLogin", "RegisterUser"]);
const LOGOUTS = new Set(["LogoutUser", "DeleteAccount"]);

function quotedList(names: readonly string[]): string {
  const quoted = names.map((n) => `'${n}'`);
  if (quoted.length === 1) return quoted[0]!;
  if (quoted.length === 2) return `${quoted[0]} and ${quoted[1]}`;
  return `${quoted.slice(0, -1).join(", ")}, and ${quoted[quoted.length - 1]}`;
}

/**
 * `tool(**parameters)`, then `call(**kwargs)`: Python refuses a keyword the signature lacks (the
 * first one, in the caller's order) before it reports missing required arguments.
 */
function bindingError(api: ToolTalkApi, kwargs: Kwargs): ToolError | undefined {
  const name = api.definition.name;
  if (Object.hasOwn(kwargs, "self")) return new ToolError("TypeError", "API.__call__() got multiple values for argument 'self'");
  const accepted = new Set(api.definition.parameters.map((p) => p.name));
  if (api.requiresAuth) accepted.add("session_token");
  const unexpected = Object.keys(kwargs).find((k) => !accepted.has(k));
  if (unexpected !== undefined) return new ToolError("TypeError", `${name}.call() got an unexpected keyword argument '${unexpected}'`);
  const missing = api.definition.parameters.filter((p) => p.required && !Object.hasOwn(kwargs, p.name)).map((p) => p.name);
  if (missing.length === 0) return undefined;
  const plural = missing.length === 1 ? "argument" : "arguments";
  return new ToolError("TypeError", `${name}.call() missing ${missing.length} required positional ${plural}: ${quotedList(missing)}`);
}

export class ToolTalkRuntime implements PackRuntime {
  private constructor(
    private readonly generators: Map<string, PythonRandom>,
    private readonly collections: CollectionState,
  ) {}

  /** The state at the start of a conversation: every tool's generator freshly seeded. */
  static fresh(): ToolTalkRuntime {
    return new ToolTalkRuntime(new Map(), CollectionState.fresh());
  }

  clone(): ToolTalkRuntime {
    return new ToolTalkRuntime(new Map([...this.generators].map(([name, random]) => [name, random.clone()])), this.collections.clone());
  }

  private generator(name: string): PythonRandom {
    let random = this.generators.get(name);
    if (!random) this.generators.set(name, (random = new PythonRandom(SEED)));
    return random;
  }

  /** ToolExecutor.execute_tool on the world; `parameters` null is a call whose arguments did not parse. */
  call(world: WorldTransaction, clock: ScenarioClock, apiName: string, parameters: Kwargs | null): ToolTalkCallRecord {
    const { request, response, exception } = this.run(world, clock, apiName, parameters);
    return { request, response, exception };
  }

  private run(world: WorldTransaction, clock: ScenarioClock, apiName: string, parameters: Kwargs | null): Executed {
    const fail = (params: Kwargs | null, error: ToolError): Executed => ({
      request: { api_name: apiName, parameters: params },
      response: null,
      exception: error.message,
      exceptionType: error.pyType,
    });
    if (parameters === null) return fail(null, new ToolError(EXECUTOR, "Failed to parse API call"));
    const api = toolTalkApi(apiName);
    if (!api) return fail(parameters, new ToolError(EXECUTOR, `API ${apiName} not found`));
    const token = currentToken(world);
    let kwargs = parameters;
    if (api.requiresAuth) {
      if (token === null) return fail(parameters, new ToolError(EXECUTOR, "User is not logged in"));
      // The executor writes the token into the request, over any the model sent.
      kwargs = { ...parameters, session_token: token as JsonValue };
    }
    if (LOGINS.has(apiName) && token !== null) {
      let username: string;
      try {
        username = pyStr(accountByToken(world, token).row.username as JsonValue);
      } catch (e) {
        // ToolTalk crashes here (the session's account is gone); the model is told the token is invalid.
        if (e instanceof ToolError) return fail(kwargs, e);
        throw e;
      }
      return fail(kwargs, new ToolError(EXECUTOR, `Only one user can be logged in at a time. Current user is ${username}.`));
    }
    const bindError = bindingError(api, kwargs);
    if (bindError) return fail(kwargs, bindError);
    let response: JsonObject;
    try {
      response = api.call(kwargs, {
        world,
        now: fromTimestamp(clock.now, clock.timezone),
        random: this.generator(apiName),
        collections: this.collections,
      });
    } catch (e) {
      if (e instanceof ToolError) return fail(kwargs, e);
      throw e;
    }
    if (LOGINS.has(apiName)) setSession(world, toCell(kwargs.username ?? null), toCell(response.session_token ?? null));
    else if (LOGOUTS.has(apiName)) setSession(world, NO_SESSION.username ?? null, NO_SESSION.session_token ?? null);
    return { request: { api_name: apiName, parameters: kwargs }, response, exception: null, exceptionType: null };
  }

  /** PackRuntime: the outcome as the agent reads it, `{"response": ..., "exception": ...}`. */
  execute(tool: ToolDefinition, args: Readonly<Record<string, JsonValue>>, ctx: ToolContext): ToolOutcome {
    // end_conversation (the simulated user's tool) is not ToolTalk's; it runs as everywhere else.
    if (!toolTalkApi(tool.name)) return executeTool(tool, args, ctx);
    const done = this.run(ctx.world, ctx.clock, tool.name, args);
    const schema = tool.returns.schema;
    if (done.exception !== null) {
      return {
        ok: false,
        error: new ToolError(done.exceptionType ?? "APIException", done.exception),
        text: outcomeJson(null, done.exception, schema),
      };
    }
    const result = done.response ?? {};
    return {
      ok: true,
      result,
      trace: { tool_name: tool.name, arguments: done.request.parameters ?? {}, result },
      text: outcomeJson(result, null, schema),
    };
  }
}

/**
 * Runs one call against `world` outside an episode (ToolTalk's evaluation loop: reset the world,
 * replay the ground truth, run the predictions), with ToolTalk's record of it.
 */
export function runToolTalkCall(
  world: WorldTransaction,
  runtime: ToolTalkRuntime,
  clock: ScenarioClock,
  apiName: string,
  parameters: Readonly<Record<string, JsonValue>> | null,
): ToolTalkCallRecord {
  return runtime.call(world, clock, apiName, parameters);
}

/**
 * The first `count` ids a tool makes in a fresh runtime, in order (its generator seeded as the
 * runtime seeds it), or [] for a tool that makes none. A call that succeeds takes the next one.
 */
export function firstNewIds(apiName: string, count: number): string[] {
  const newId = toolTalkApi(apiName)?.newId;
  if (!newId) return [];
  const random = new PythonRandom(SEED);
  return Array.from({ length: count }, () => newId(random));
}
