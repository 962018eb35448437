// Who plays the agent and the user of a run: the scripted roles (the scenario's reference
// solution) or a model behind an OpenAI-compatible endpoint (`openai:<model>`), in any mix. A role
// spec is what the command line asked for, checked; createRoles makes fresh roles from it for
// each episode. The API key comes only from an environment variable, and it never leaves the role
// that sends it.
import type { ModelSettings } from "../episode/types.js";
import type { AgentRole, UserRole } from "../episode/role.js";
import { OpenAiAgent } from "../roles/openai/agent.js";
import type { CacheScope, CallCache } from "../roles/openai/call-cache.js";
import { ChatModel } from "../roles/openai/chat-model.js";
import type { EndpointLimiter } from "../roles/openai/endpoint-limiter.js";
import { DEFAULT_API_KEY_ENV, DEFAULT_BASE_URL, modelSettings } from "../roles/openai/settings.js";
import { OpenAiUser } from "../roles/openai/user.js";
import { SCRIPTED_ROLE_ID, createScriptedAgent, createScriptedRoles, createScriptedUser } from "../roles/scripted.js";
import type { Scenario } from "../scenario/model.js";
import { RoleSpecError } from "./errors.js";
import { McpAgentRole } from "../roles/mcp/agent.js";
import type { McpAgentHost } from "./agent-host.js";
import { commandAgentHost, DEFAULT_COMMAND_TIME_LIMIT_SECONDS, splitCommandLine } from "./command-agent.js";
import { a2aAgentHost } from "./a2a-agent.js";

const OPENAI_PREFIX = "openai:";

/** An agent that is a program, started per episode and reached over MCP (runner/command-agent.ts). */
export const COMMAND_PREFIX = "cmd:";

/** A remote agent reached over A2A at a URL, per episode one context (runner/a2a-agent.ts). */
export const A2A_PREFIX = "a2a:";

export const SUPPORTED_AGENTS: readonly string[] = [
  SCRIPTED_ROLE_ID,
  `${OPENAI_PREFIX}<model>`,
  `${COMMAND_PREFIX}'<command line>'`,
  `${A2A_PREFIX}<url>`,
];

/** Why `value` (after a2a:) is not an agent's URL, or null when it is one. */
export function a2aUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `not a URL: "${value}"`;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? null : `the URL must start with http:// or https://, got "${value}"`;
}
export const SUPPORTED_USERS: readonly string[] = [SCRIPTED_ROLE_ID, `${OPENAI_PREFIX}<model>`];

/** Whether `value` names a role: "scripted" or "openai:" followed by a model. */
export const isRoleId = (value: string): boolean =>
  value === SCRIPTED_ROLE_ID || (value.startsWith(OPENAI_PREFIX) && value.length > OPENAI_PREFIX.length);

export type RoleSpec =
  | { readonly kind: "scripted" }
  | {
      readonly kind: "openai";
      readonly settings: ModelSettings;
      /** False when a missing key may be replaced by a placeholder (a local server that ignores it). */
      readonly keyRequired: boolean;
      /** Keep each call's request and response bodies in the trajectory (false: `--no-record-io`). */
      readonly recordIo?: boolean;
      /** The run's limiter of this endpoint (`--concurrency auto`, run-services.ts). */
      readonly limiter?: EndpointLimiter;
      /** The run's answer cache (`--cache`, run-services.ts). */
      readonly cache?: CallCache;
      /**
       * The key itself, handed over by a caller that keeps keys elsewhere (the extension's secret
       * storage); the environment is then not read. `settings.api_key_env` names where it came from.
       */
      readonly apiKey?: string;
    }
  /** An agent outside the process whose turns arrive over MCP (`serve`, `cmd:`, `a2a:`); `host` makes it reachable per episode. */
  | { readonly kind: "mcp"; readonly id: string; readonly host: McpAgentHost; readonly batchWindowMs?: number };

export interface RoleSpecs {
  readonly agent: RoleSpec;
  readonly user: RoleSpec;
}

/**
 * The model options of a run, by role, as the command line names them (cli/role-options.ts parses
 * them; a usage error quotes the flag it is about).
 */
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
  /** `--agent cmd:` and `a2a:`: seconds an episode may take before it ends as timed_out (a command is killed). */
  readonly timeLimit?: number;
  /** `--agent cmd:`: the folder the command starts in (the debugger's launch cwd; `run` starts it where it runs). */
  readonly commandCwd?: string;
  /** Outside agents: milliseconds within which tool calls arriving one after another form one parallel batch. */
  readonly batchWindow?: number;
  /** The role-play judge (cli/model-service-options.ts); its own options mirror the agent's. */
  readonly judge?: string;
  readonly judgeBaseUrl?: string;
  readonly judgeTemperature?: number;
  readonly judgeSeed?: number;
  readonly judgeMaxTokens?: number;
  readonly judgeApiKeyEnv?: string;
  /** The failure reviewer (cli/model-service-options.ts): its own endpoint and key variable. */
  readonly review?: string;
  readonly reviewBaseUrl?: string;
  readonly reviewApiKeyEnv?: string;
}

/** A role played by a model: the two of an episode, the judge that rates it and the reviewer of a failed one afterwards. */
export type ModelRole = "agent" | "user" | "judge" | "reviewer";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The roles a run was asked for. Model options given for a role that is scripted are a usage
 * error rather than silently ignored, and so is a model role whose key is missing.
 */
export function roleSpecs(agentId: string, userId: string, flags: ModelRoleFlags, env: Env): RoleSpecs {
  const agent = roleSpec("agent", agentId, flags, env);
  const user = roleSpec("user", userId, flags, env);
  if (agent.kind !== "mcp") {
    if (flags.timeLimit !== undefined) throw usage("--time-limit applies to an outside agent only (--agent cmd:... or a2a:...)");
    if (flags.batchWindow !== undefined) throw usage("--batch-window applies to an outside agent only (--agent cmd:... or a2a:...)");
  }
  if (agent.kind === "scripted" && user.kind === "scripted" && flags.judge === undefined && flags.review === undefined) {
    const stray = (["baseUrl", "timeout", "maxRetries", "apiKeyEnv"] as const).find((k) => flags[k] !== undefined);
    if (stray) throw usage(`--${kebab(stray)} applies to model-backed roles only (--agent or --user openai:<model>)`);
    if (flags.recordIo === false) throw usage("--no-record-io applies to model-backed roles only (--agent or --user openai:<model>)");
  }
  return { agent, user };
}

export function roleSpec(role: ModelRole, id: string, flags: ModelRoleFlags, env: Env): RoleSpec {
  const own =
    role === "reviewer"
      ? { baseUrl: flags.reviewBaseUrl, temperature: undefined, seed: undefined, maxTokens: undefined, apiKeyEnv: flags.reviewApiKeyEnv }
      : role === "judge"
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
    const host = commandAgentHost({
      argv,
      timeLimitSeconds: flags.timeLimit ?? DEFAULT_COMMAND_TIME_LIMIT_SECONDS,
      ...(flags.commandCwd === undefined ? {} : { cwd: flags.commandCwd }),
    });
    return { kind: "mcp", id, host, ...(flags.batchWindow === undefined ? {} : { batchWindowMs: flags.batchWindow }) };
  }
  if (role === "agent" && id.startsWith(A2A_PREFIX)) {
    const url = id.slice(A2A_PREFIX.length);
    const problem = a2aUrlProblem(url);
    if (problem !== null) throw usage(`${A2A_PREFIX}: ${problem}`);
    const host = a2aAgentHost({
      url,
      timeLimitSeconds: flags.timeLimit ?? DEFAULT_COMMAND_TIME_LIMIT_SECONDS,
      recordIo: flags.recordIo ?? true,
    });
    return { kind: "mcp", id, host, ...(flags.batchWindow === undefined ? {} : { batchWindowMs: flags.batchWindow }) };
  }
  if (id === SCRIPTED_ROLE_ID) {
    const stray = (Object.keys(own) as (keyof typeof own)[]).find((k) => own[k] !== undefined);
    if (stray) throw usage(`--${role}-${kebab(stray)} applies to a model-backed ${role} only (--${role} openai:<model>)`);
    return { kind: "scripted" };
  }
  if (!isRoleId(id)) throw usage(`unsupported ${role} "${id}"`);
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
  if (spec.apiKey !== undefined && spec.apiKey !== "") return spec.apiKey;
  const name = spec.settings.api_key_env;
  const key = env[name];
  if (key !== undefined && key !== "") return key;
  if (!spec.keyRequired) return PLACEHOLDER_KEY;
  throw usage(`the ${role}'s API key is missing: set the environment variable ${name} (for ${spec.settings.base_url})`);
}

// --- roles --------------------------------------------------------------------------------------

/**
 * Fresh roles for one episode (a scripted pair shares its cursor, so never reuse them). A scripted
 * role opposite a model plays only its own side of the reference. A role given by id alone
 * ("openai:gpt-4o") gets the default settings. Model-backed roles made from the same spec object
 * share its model (one client), which holds no state of an episode. `scope` is the job's trial and
 * seed, under which a run with a cache keeps and finds its answers.
 */
export function createRoles(
  agent: string | RoleSpec,
  user: string | RoleSpec,
  scenario: Scenario,
  env: Env = process.env,
  scope?: CacheScope,
): { agent: AgentRole; user: UserRole } {
  const agentSpec = typeof agent === "string" ? roleSpec("agent", agent, {}, env) : agent;
  const userSpec = typeof user === "string" ? roleSpec("user", user, {}, env) : user;
  if (agentSpec.kind === "scripted" && userSpec.kind === "scripted") return createScriptedRoles(scenario);
  const model = (spec: Extract<RoleSpec, { kind: "openai" }>, role: ModelRole): ChatModel => {
    const shared = sharedModel(spec, role, env);
    return scope ? shared.withScope(scope) : shared;
  };
  if (userSpec.kind === "mcp") throw usage("the user cannot be an outside agent");
  const agentRole =
    agentSpec.kind === "openai"
      ? new OpenAiAgent(model(agentSpec, "agent"))
      : agentSpec.kind === "mcp"
        ? new McpAgentRole({
            id: agentSpec.id,
            ...(agentSpec.batchWindowMs === undefined ? {} : { batchWindowMs: agentSpec.batchWindowMs }),
          })
        : createScriptedAgent(scenario);
  return {
    agent: agentRole,
    user: userSpec.kind === "openai" ? new OpenAiUser(model(userSpec, "user")) : createScriptedUser(scenario),
  };
}

/** A person playing one side of an episode (`toolsandbox play`): their role, made by the front end. */
export type HumanSide = { readonly as: "agent"; readonly role: AgentRole } | { readonly as: "user"; readonly role: UserRole };

/**
 * The roles of an episode a person plays one side of: the person's role, and opposite it the role
 * `other` names, made as createRoles makes it opposite a model (a scripted role then plays only
 * its own side of the reference).
 */
export function createRolesWithHuman(
  human: HumanSide,
  other: string | RoleSpec,
  scenario: Scenario,
  env: Env = process.env,
  scope?: CacheScope,
): { agent: AgentRole; user: UserRole } {
  if (human.as === "agent") {
    const spec = typeof other === "string" ? roleSpec("user", other, {}, env) : other;
    if (spec.kind === "mcp") throw usage("the user cannot be an outside agent");
    const user = spec.kind === "scripted" ? createScriptedUser(scenario) : createRoles(SCRIPTED, spec, scenario, env, scope).user;
    return { agent: human.role, user };
  }
  const spec = typeof other === "string" ? roleSpec("agent", other, {}, env) : other;
  const agent = spec.kind === "scripted" ? createScriptedAgent(scenario) : createRoles(spec, SCRIPTED, scenario, env, scope).agent;
  return { agent, user: human.role };
}

const SCRIPTED: RoleSpec = { kind: "scripted" };

/** The model each resolved role spec has been played by, so a run's episodes share one client per role. */
const modelsBySpec = new WeakMap<RoleSpec, { readonly apiKey: string; readonly model: ChatModel }>();

export function sharedModel(spec: Extract<RoleSpec, { kind: "openai" }>, role: ModelRole, env: Env): ChatModel {
  const apiKey = apiKeyFor(spec, role, env);
  const known = modelsBySpec.get(spec);
  if (known?.apiKey === apiKey) return known.model;
  const model = new ChatModel({
    settings: spec.settings,
    apiKey,
    recordIo: spec.recordIo ?? true,
    ...(spec.limiter ? { limiter: spec.limiter } : {}),
    ...(spec.cache ? { cache: spec.cache } : {}),
  });
  modelsBySpec.set(spec, { apiKey, model });
  return model;
}

/** The model of a resolved model-backed spec, for commands that ask it directly (create-tools). */
export function modelOfSpec(spec: Extract<RoleSpec, { kind: "openai" }>, role: "agent" | "user", env: Env = process.env): ChatModel {
  return sharedModel(spec, role, env);
}

const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const usage = (message: string): RoleSpecError => new RoleSpecError(message);
