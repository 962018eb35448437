// Who plays the agent and the user in `run`: the scripted roles (the scenario's reference
// solution) or a model behind an OpenAI-compatible endpoint (`openai:<model>`), in any mix. The
// model settings come from the command line; the API key only from an environment variable, and
// it never leaves the role that sends it.
import { InvalidArgumentError, Option, type Command } from "commander";
import type { ModelSettings, RunConfig } from "../engine/episode/types.js";
import type { JsonValue } from "../engine/base/json.js";
import { OpenAiAgent } from "../engine/roles/openai/agent.js";
import { ChatModel } from "../engine/roles/openai/chat-model.js";
import { DEFAULT_API_KEY_ENV, DEFAULT_BASE_URL, modelSettings } from "../engine/roles/openai/settings.js";
import { OpenAiUser } from "../engine/roles/openai/user.js";
import type { AgentRole, UserRole } from "../engine/episode/role.js";
import { SCRIPTED_ROLE_ID, createScriptedAgent, createScriptedRoles, createScriptedUser } from "../engine/roles/scripted.js";
import type { Scenario } from "../engine/scenario/model.js";
import { CliError, EXIT } from "../engine/runner/errors.js";
import { McpAgentRole } from "../engine/roles/mcp/agent.js";
import type { McpAgentHost } from "../engine/runner/agent-host.js";
import { commandAgentHost, DEFAULT_COMMAND_TIME_LIMIT_SECONDS, splitCommandLine } from "../engine/runner/command-agent.js";

const OPENAI_PREFIX = "openai:";
/** An agent that is a program, started per episode and reached over MCP (runner/command-agent.ts). */
export const COMMAND_PREFIX = "cmd:";

export const SUPPORTED_AGENTS: readonly string[] = [SCRIPTED_ROLE_ID, `${OPENAI_PREFIX}<model>`, `${COMMAND_PREFIX}'<command line>'`];
export const SUPPORTED_USERS: readonly string[] = [SCRIPTED_ROLE_ID, `${OPENAI_PREFIX}<model>`];

export type RoleSpec =
  | { readonly kind: "scripted" }
  | {
      readonly kind: "openai";
      readonly settings: ModelSettings;
      /** False when a missing key may be replaced by a placeholder (a local server that ignores it). */
      readonly keyRequired: boolean;
      /** Keep each call's request and response bodies in the trajectory (false: `--no-record-io`). */
      readonly recordIo?: boolean;
    }
  /** An agent outside the process whose turns arrive over MCP (`serve`, `cmd:`); `host` makes it reachable per episode. */
  | { readonly kind: "mcp"; readonly id: string; readonly host: McpAgentHost; readonly batchWindowMs?: number };

export interface RoleSpecs {
  readonly agent: RoleSpec;
  readonly user: RoleSpec;
}

function roleParser(kind: "agent" | "user") {
  return (value: string): string => {
    if (value === SCRIPTED_ROLE_ID) return value;
    if (value.startsWith(OPENAI_PREFIX) && value.length > OPENAI_PREFIX.length) return value;
    if (kind === "agent" && value.startsWith(COMMAND_PREFIX)) {
      const problem = splitCommandLine(value.slice(COMMAND_PREFIX.length)).problem;
      if (problem !== null) throw new InvalidArgumentError(`${COMMAND_PREFIX}: ${problem}`);
      return value;
    }
    const supported = kind === "agent" ? SUPPORTED_AGENTS : SUPPORTED_USERS;
    throw new InvalidArgumentError(`unsupported ${kind} "${value}" (supported: ${supported.join(", ")})`);
  };
}

export const parseAgentId = roleParser("agent");
export const parseUserId = roleParser("user");

// --- command-line options ---------------------------------------------------------------------

/** The model options of `run`, as commander hands them over. */
export interface ModelRoleFlags {
  readonly baseUrl?: string;
  readonly agentBaseUrl?: string;
  readonly userBaseUrl?: string;
  readonly agentTemperature?: number;
  readonly userTemperature?: number;
  readonly agentSeed?: number;
  readonly userSeed?: number;
  readonly agentMaxTokens?: number;
  readonly userMaxTokens?: number;
  readonly timeout?: number;
  readonly maxRetries?: number;
  readonly apiKeyEnv?: string;
  readonly agentApiKeyEnv?: string;
  readonly userApiKeyEnv?: string;
  /** False with --no-record-io (commander's default for a --no- flag is true). */
  readonly recordIo?: boolean;
  /** `--agent cmd:`: seconds an episode's command may run before it is killed and the episode ends as timed_out. */
  readonly timeLimit?: number;
  /** Outside agents: milliseconds within which tool calls arriving one after another form one parallel batch. */
  readonly batchWindow?: number;
  /** The role-play judge (judge-options.ts); its own options mirror the agent's. */
  readonly judge?: string;
  readonly judgeBaseUrl?: string;
  readonly judgeTemperature?: number;
  readonly judgeSeed?: number;
  readonly judgeMaxTokens?: number;
  readonly judgeApiKeyEnv?: string;
}

/** A role played by a model: the two of an episode, and the judge that rates it afterwards. */
export type ModelRole = "agent" | "user" | "judge";

function numberIn(what: string, min: number, max: number, integer: boolean) {
  return (value: string): number => {
    const n = Number(value);
    const ok = value.trim() !== "" && Number.isFinite(n) && n >= min && n <= max && (!integer || Number.isSafeInteger(n));
    if (!ok)
      throw new InvalidArgumentError(`${what} must be ${integer ? "a whole number" : "a number"} from ${min} to ${max}, got "${value}"`);
    return n;
  };
}

export function baseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`not a URL: "${value}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new InvalidArgumentError(`the URL must start with http:// or https://, got "${value}"`);
  return value.replace(/\/+$/, "");
}

export function envName(value: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) throw new InvalidArgumentError(`not an environment variable name: "${value}"`);
  return value;
}

export const temperature = numberIn("the temperature", 0, 2, false);
export const seed = numberIn("the seed", 0, Number.MAX_SAFE_INTEGER, true);
export const maxTokens = numberIn("the token limit", 1, 10_000_000, true);

/** Adds the model options to `run` (after --agent and --user). */
export function addModelRoleOptions(command: Command): Command {
  const option = (flags: string, description: string, parse: (value: string) => string | number): Option =>
    new Option(flags, description).argParser(parse);
  return command
    .addOption(option("--base-url <url>", `OpenAI-compatible endpoint for both model roles (default ${DEFAULT_BASE_URL})`, baseUrl))
    .addOption(option("--agent-base-url <url>", "endpoint for the agent's model (overrides --base-url)", baseUrl))
    .addOption(option("--user-base-url <url>", "endpoint for the user simulator's model (overrides --base-url)", baseUrl))
    .addOption(option("--agent-temperature <t>", "the agent's sampling temperature (default: the server's)", temperature))
    .addOption(option("--user-temperature <t>", "the user simulator's sampling temperature (default: the server's)", temperature))
    .addOption(option("--agent-seed <n>", "sampling seed sent with the agent's requests", seed))
    .addOption(option("--user-seed <n>", "sampling seed sent with the user simulator's requests", seed))
    .addOption(option("--agent-max-tokens <n>", "token limit of each agent answer", maxTokens))
    .addOption(option("--user-max-tokens <n>", "token limit of each user simulator answer", maxTokens))
    .addOption(
      option(
        "--timeout <seconds>",
        "time limit of each model request attempt (default 120)",
        numberIn("the timeout", 0.001, 86_400, false),
      ),
    )
    .addOption(
      option(
        "--max-retries <n>",
        "retries of a model request on 429, 5xx, timeouts and dropped connections, with backoff honouring Retry-After (default 2)",
        numberIn("the number of retries", 0, 100, true),
      ),
    )
    .addOption(option("--api-key-env <name>", `environment variable holding the API key (default ${DEFAULT_API_KEY_ENV})`, envName))
    .addOption(option("--agent-api-key-env <name>", "environment variable holding the agent's API key", envName))
    .addOption(option("--user-api-key-env <name>", "environment variable holding the user simulator's API key", envName))
    .addOption(
      new Option(
        "--no-record-io",
        "leave the raw request and response bodies out of the trajectory (latency, tokens and request ids are still recorded)",
      ),
    );
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The roles `run` was asked for. Model options given for a role that is scripted are a usage
 * error rather than silently ignored, and so is a model role whose key is missing.
 */
export function roleSpecs(agentId: string, userId: string, flags: ModelRoleFlags, env: Env): RoleSpecs {
  const agent = roleSpec("agent", agentId, flags, env);
  const user = roleSpec("user", userId, flags, env);
  if (agent.kind !== "mcp") {
    if (flags.timeLimit !== undefined) throw usage("--time-limit applies to an outside agent only (--agent cmd:...)");
    if (flags.batchWindow !== undefined) throw usage("--batch-window applies to an outside agent only (--agent cmd:...)");
  }
  if (agent.kind === "scripted" && user.kind === "scripted" && flags.judge === undefined) {
    const stray = (["baseUrl", "timeout", "maxRetries", "apiKeyEnv"] as const).find((k) => flags[k] !== undefined);
    if (stray) throw usage(`--${kebab(stray)} applies to model-backed roles only (--agent or --user openai:<model>)`);
    if (flags.recordIo === false) throw usage("--no-record-io applies to model-backed roles only (--agent or --user openai:<model>)");
  }
  return { agent, user };
}

export function roleSpec(role: ModelRole, id: string, flags: ModelRoleFlags, env: Env): RoleSpec {
  const own =
    role === "judge"
      ? {
          baseUrl: flags.judgeBaseUrl,
          temperature: flags.judgeTemperature,
          seed: flags.judgeSeed,
          maxTokens: flags.judgeMaxTokens,
          apiKeyEnv: flags.judgeApiKeyEnv,
        }
      : role === "agent"
        ? {
            baseUrl: flags.agentBaseUrl,
            temperature: flags.agentTemperature,
            seed: flags.agentSeed,
            maxTokens: flags.agentMaxTokens,
            apiKeyEnv: flags.agentApiKeyEnv,
          }
        : {
            baseUrl: flags.userBaseUrl,
            temperature: flags.userTemperature,
            seed: flags.userSeed,
            maxTokens: flags.userMaxTokens,
            apiKeyEnv: flags.userApiKeyEnv,
          };
  if (role === "agent" && id.startsWith(COMMAND_PREFIX)) {
    const line = id.slice(COMMAND_PREFIX.length);
    const { argv, problem } = splitCommandLine(line);
    if (problem !== null) throw usage(`${COMMAND_PREFIX}: ${problem}`);
    const host = commandAgentHost({ argv, timeLimitSeconds: flags.timeLimit ?? DEFAULT_COMMAND_TIME_LIMIT_SECONDS });
    return { kind: "mcp", id, host, ...(flags.batchWindow === undefined ? {} : { batchWindowMs: flags.batchWindow }) };
  }
  if (id === SCRIPTED_ROLE_ID) {
    const stray = (Object.keys(own) as (keyof typeof own)[]).find((k) => own[k] !== undefined);
    if (stray) throw usage(`--${role}-${kebab(stray)} applies to a model-backed ${role} only (--${role} openai:<model>)`);
    return { kind: "scripted" };
  }
  if (!id.startsWith(OPENAI_PREFIX) || id.length === OPENAI_PREFIX.length) throw usage(`unsupported ${role} "${id}"`);
  const explicitKeyEnv = own.apiKeyEnv ?? flags.apiKeyEnv;
  const settings = modelSettings(id.slice(OPENAI_PREFIX.length), {
    base_url: own.baseUrl ?? flags.baseUrl ?? DEFAULT_BASE_URL,
    temperature: own.temperature ?? null,
    seed: own.seed ?? null,
    max_tokens: own.maxTokens ?? null,
    ...(flags.timeout !== undefined ? { timeout_seconds: flags.timeout } : {}),
    ...(flags.maxRetries !== undefined ? { max_retries: flags.maxRetries } : {}),
    api_key_env: explicitKeyEnv ?? DEFAULT_API_KEY_ENV,
  });
  // OpenAI itself needs a key; a local server usually does not, unless the user named a variable.
  const spec: RoleSpec = {
    kind: "openai",
    settings,
    keyRequired: explicitKeyEnv !== undefined || isOpenAiService(settings.base_url),
    recordIo: flags.recordIo ?? true,
  };
  apiKeyFor(spec, role, env);
  return spec;
}

const isOpenAiService = (url: string): boolean => new URL(url).hostname === new URL(DEFAULT_BASE_URL).hostname;

/** Sent when no key is needed: OpenAI-compatible local servers accept any bearer token. */
const PLACEHOLDER_KEY = "no-key";

function apiKeyFor(spec: Extract<RoleSpec, { kind: "openai" }>, role: ModelRole, env: Env): string {
  const name = spec.settings.api_key_env;
  const key = env[name];
  if (key !== undefined && key !== "") return key;
  if (!spec.keyRequired) return PLACEHOLDER_KEY;
  throw usage(`the ${role}'s API key is missing: set the environment variable ${name} (for ${spec.settings.base_url})`);
}

// --- roles and the header -------------------------------------------------------------------

/**
 * Fresh roles for one episode (a scripted pair shares its cursor, so never reuse them). A scripted
 * role opposite a model plays only its own side of the reference. A role given by id alone
 * ("openai:gpt-4o") gets the default settings. Model-backed roles made from the same spec object
 * share its model (one client), which holds no state of an episode.
 */
export function createRoles(
  agent: string | RoleSpec,
  user: string | RoleSpec,
  scenario: Scenario,
  env: Env = process.env,
): { agent: AgentRole; user: UserRole } {
  const agentSpec = typeof agent === "string" ? roleSpec("agent", agent, {}, env) : agent;
  const userSpec = typeof user === "string" ? roleSpec("user", user, {}, env) : user;
  if (agentSpec.kind === "scripted" && userSpec.kind === "scripted") return createScriptedRoles(scenario);
  if (userSpec.kind === "mcp") throw usage("the user cannot be an outside agent");
  const agentRole =
    agentSpec.kind === "openai"
      ? new OpenAiAgent(sharedModel(agentSpec, "agent", env))
      : agentSpec.kind === "mcp"
        ? new McpAgentRole({
            id: agentSpec.id,
            ...(agentSpec.batchWindowMs === undefined ? {} : { batchWindowMs: agentSpec.batchWindowMs }),
          })
        : createScriptedAgent(scenario);
  return {
    agent: agentRole,
    user: userSpec.kind === "openai" ? new OpenAiUser(sharedModel(userSpec, "user", env)) : createScriptedUser(scenario),
  };
}

/** The model each resolved role spec has been played by, so a run's episodes share one client per role. */
const modelsBySpec = new WeakMap<RoleSpec, { readonly apiKey: string; readonly model: ChatModel }>();

export function sharedModel(spec: Extract<RoleSpec, { kind: "openai" }>, role: ModelRole, env: Env): ChatModel {
  const apiKey = apiKeyFor(spec, role, env);
  const known = modelsBySpec.get(spec);
  if (known?.apiKey === apiKey) return known.model;
  const model = new ChatModel({ settings: spec.settings, apiKey, recordIo: spec.recordIo ?? true });
  modelsBySpec.set(spec, { apiKey, model });
  return model;
}

/** The model of a resolved model-backed spec, for commands that ask it directly (create-tools). */
export function modelOfSpec(spec: Extract<RoleSpec, { kind: "openai" }>, role: "agent" | "user", env: Env = process.env): ChatModel {
  return sharedModel(spec, role, env);
}

/** The header's run configuration: the roles' ids and, for model-backed ones, their settings. */
export function runConfigFor(agent: AgentRole, user: UserRole, seed: number, options: Readonly<Record<string, JsonValue>> = {}): RunConfig {
  return {
    agent: agent.id,
    user: user.id,
    seed,
    options,
    ...(agent.settings ? { agent_settings: agent.settings } : {}),
    ...(user.settings ? { user_settings: user.settings } : {}),
  };
}

const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const usage = (message: string): CliError => new CliError(message, EXIT.usage);

/** The run options with the roles resolved from the flags; misused flags and missing keys are usage errors. */
export function withRoleSpecs<T extends { readonly agent: string; readonly user: string } & ModelRoleFlags>(
  opts: T,
  env: Env = process.env,
): T & { roles: RoleSpecs } {
  return { ...opts, roles: roleSpecs(opts.agent, opts.user, opts, env) };
}
