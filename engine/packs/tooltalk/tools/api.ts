// The shape of a ToolTalk tool here and what it runs against. A tool is its catalog entry (what the
// model and the language server see) plus `call`, ToolTalk's body, which only the pack's runtime
// invokes: it needs the tool's own id generator and the login session, which a plain ToolContext
// does not carry.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import type { PythonRandom } from "../../../python/random.js";
import type { NaiveDateTime } from "../../../tools/python-datetime.js";
import { googleDocstring } from "../../../tools/docstring.js";
import type { ToolDefinition, ToolParameter } from "../../../tools/types.js";
import { ToolError } from "../../../tools/types.js";
import type { WorldTransaction } from "../../../world/transaction.js";
import type { CollectionState } from "./collections.js";

/** The keyword arguments of a call, session_token included when the tool needs a login. */
export type Kwargs = Readonly<Record<string, JsonValue>>;

export interface ApiEnv {
  readonly world: WorldTransaction;
  /** ToolTalk's frozen "now": the scenario clock's wall time in its timezone (see runtime.ts). */
  readonly now: NaiveDateTime;
  /** This tool's own generator: ToolTalk seeds one Random(489) per tool. */
  readonly random: PythonRandom;
  readonly collections: CollectionState;
}

export interface ToolTalkApi {
  readonly definition: ToolDefinition;
  /** ToolTalk's requires_auth: the executor refuses the call without a login and injects the token. */
  readonly requiresAuth: boolean;
  /** ToolTalk's body; raises ToolError (pyType "APIException" for the tool's own refusals). */
  readonly call: (args: Kwargs, env: ApiEnv) => JsonObject;
  /**
   * How the tool makes the id (token, code) it creates from its generator, for a tool that makes
   * one: drawn once, as the last step of a call that succeeds. Tool creation shows these ids to
   * model-written code, which cannot draw from ToolTalk's generators.
   */
  readonly newId?: (random: PythonRandom) => string;
}

/** An expected refusal: ToolTalk's APIException, whose text the model sees as the exception. */
export function apiException(message: string): ToolError {
  return new ToolError("APIException", message);
}

/** An argument with Python's default for an omitted optional parameter (None unless stated). */
export function arg(args: Kwargs, name: string, fallback: JsonValue = null): JsonValue {
  return Object.hasOwn(args, name) ? (args[name] as JsonValue) : fallback;
}

const STR = "<class 'str'>";
const OPTIONAL_STR = "typing.Optional[str]";

export function stringParam(name: string, description: string, required: boolean): ToolParameter {
  return required
    ? { name, type: "string", description, required, annotation: STR }
    : { name, type: "string", description, required, default: null, nullable: true, annotation: OPTIONAL_STR };
}

export function listParam(name: string, description: string, required: boolean): ToolParameter {
  return required
    ? { name, type: "array", description, required, annotation: "typing.List[str]" }
    : { name, type: "array", description, required, default: null, nullable: true, annotation: "typing.Optional[typing.List[str]]" };
}

/** Errors every tool that needs a login can answer with. */
export const AUTH_ERRORS = ["User is not logged in", "Invalid session_token."] as const;

export const STRPTIME_ERRORS = (format: string): readonly string[] => [
  `time data '…' does not match format '${format}'`,
  "unconverted data remains: …",
  "day is out of range for month",
  "second must be in 0..59",
];

/** A suite's name as the catalog shows it (ToolTalk's suite and our domain). */
interface Suite {
  readonly module: string;
  readonly domain: string;
}

/** What one tool's catalog entry is made of; the docstring is written from the summary and parameters. */
interface ToolSpec {
  readonly name: string;
  readonly summary: string;
  readonly parameters: readonly ToolParameter[];
  readonly returns: { readonly text: string; readonly schema: JsonObject };
  readonly action: boolean;
  readonly errors: readonly string[];
}

export function suiteTool(suite: Suite, spec: ToolSpec): ToolDefinition {
  return definition({
    name: spec.name,
    ...suite,
    docstring: googleDocstring([spec.summary], spec.parameters, spec.returns.text),
    parameters: spec.parameters,
    returns: { description: spec.returns.text, schema: spec.returns.schema },
    action: spec.action,
    errors: spec.errors,
  });
}

/**
 * The catalog-entry builder of a suite whose every tool needs a login (Alarm, Calendar, Reminder):
 * positional, and the login errors come first in each tool's error list.
 */
export function loggedInSuiteTool(suite: Suite) {
  return (
    name: string,
    summary: string,
    parameters: readonly ToolParameter[],
    returns: string,
    schema: JsonObject,
    action: boolean,
    errors: readonly string[],
  ): ToolDefinition =>
    suiteTool(suite, { name, summary, parameters, returns: { text: returns, schema }, action, errors: [...AUTH_ERRORS, ...errors] });
}

/** Catalog fields shared by every ToolTalk tool. */
export function definition(
  fields: Pick<ToolDefinition, "name" | "module" | "domain" | "docstring" | "parameters" | "returns" | "action" | "errors">,
): ToolDefinition {
  return {
    ...fields,
    stateDependencies: [],
    visibleTo: ["agent"],
    webBacked: false,
    // ToolTalk checks no argument types; the body trips over wrong ones as Python would.
    typechecked: false,
    run() {
      throw new Error(`ToolTalk's ${fields.name} runs through the ToolTalk pack's runtime, not on its own`);
    },
  };
}

/** Python's `f"{n:0{width}x}"`. */
export function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, "0");
}
