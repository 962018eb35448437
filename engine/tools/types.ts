// The contract between the tool catalog, the execution environment and every consumer of the
// catalog (language server, model roles, docs). A tool is data plus a pure-ish `run` function
// over a ToolContext; it never touches the machine clock, the network or global state.
import type { JsonObject, JsonValue } from "../base/json.js";
import type { ScenarioClock } from "../world/clock.js";
import type { WorldTransaction } from "../world/transaction.js";
import type { WebData } from "./web-data.js";

/** JSON Schema types of parameters; "array" is always a list of strings (ToolTalk's only list kind). */
export type ParamType = "string" | "integer" | "number" | "boolean" | "array";

export interface ToolParameter {
  readonly name: string;
  readonly type: ParamType;
  readonly description: string;
  /** No default: the call must give it (upstream: "missing a required argument"). */
  readonly required: boolean;
  /**
   * The Python default written into the tool trace when the argument is omitted (None, False, 0...).
   * Absent on an optional parameter = upstream's NOT_GIVEN sentinel: omitted from the trace.
   */
  readonly default?: JsonValue;
  /** Optional[X] upstream: null is an accepted value. */
  readonly nullable?: boolean;
  /** The annotation as Python prints it in type errors, e.g. "<class 'float'>" or "typing.Optional[float]". */
  readonly annotation: string;
  /** POSIX seconds: scenario files may write a time expression ("tomorrow 17:00") here. */
  readonly timestamp?: boolean;
  /**
   * The only values the tool accepts (JSON Schema's `enum` in the tool's catalog entry). Not in
   * the schema a model is shown, which stays as the benchmark wrote it.
   */
  readonly enum?: readonly string[];
}

/**
 * The module (ToolSandbox) or suite (ToolTalk) a tool belongs to, as its pack names it. Tool-name
 * scrambling numbers tools within a module, and distraction ranking prefers the same module.
 */
export type ToolModule = string;

/** A precondition on the world a tool checks before it acts. */
export interface StateDependency {
  readonly table: string;
  readonly column: string;
  readonly value: boolean;
  /** When it applies, if not always ("only when latitude/longitude are omitted"). */
  readonly when?: string;
  /** The agent-visible error raised when it does not hold. */
  readonly error: string;
}

export interface ToolDefinition {
  readonly name: string;
  readonly module: ToolModule;
  /** Domain in the paper's sense: Contact, Messaging, Reminder, Setting, Time, Math, Map, Weather, Stock, Conversion, Holiday. */
  readonly domain: string;
  /**
   * Google-style docstring in our own words: summary paragraph(s), then "Args:" and "Returns:"
   * blocks. The OpenAI schema and the description/argument scrambling are derived from it.
   */
  readonly docstring: string;
  readonly parameters: readonly ToolParameter[];
  /** JSON Schema of the return value. "number" prints as a Python float, "integer" as an int. */
  readonly returns: { readonly description: string; readonly schema: JsonObject };
  /** True when the tool changes the world (ToolTalk's "action"). */
  readonly action: boolean;
  readonly stateDependencies: readonly StateDependency[];
  /** Agent-visible error texts the tool can raise (patterns; '…' marks a variable part). */
  readonly errors: readonly string[];
  readonly visibleTo: readonly ("agent" | "user")[];
  /** Needs the offline web data (upstream: a RapidAPI call). */
  readonly webBacked: boolean;
  /**
   * Upstream's @typechecked: argument types are checked before `run` (TypeError "Parameter 'x' is
   * of type ..."). False where upstream checks by hand inside the tool (setting tools) or not at
   * all (search_contacts); `run` then does its own checks in upstream order.
   */
  readonly typechecked: boolean;
  readonly run: (args: Readonly<Record<string, JsonValue>>, ctx: ToolContext) => JsonValue;
}

export interface ToolContext {
  readonly world: WorldTransaction;
  readonly clock: ScenarioClock;
  readonly web: WebData;
  /** A deterministic uuid4 string (seeded per episode). */
  readonly uuid4: () => string;
}

/**
 * An error the tool raises; the agent sees `${pyType}: ${message}` exactly as upstream prints the
 * last traceback line (e.g. "ConnectionError: Cellular service is not enabled").
 */
export class ToolError extends Error {
  constructor(
    readonly pyType: string,
    message: string,
  ) {
    super(message);
    this.name = "ToolError";
  }

  /** Upstream's console shows the last line of the traceback, so a multi-line message shows its end. */
  get agentText(): string {
    const lines = `${this.pyType}: ${this.message}`.trimEnd().split("\n");
    return lines[lines.length - 1] as string;
  }
}
