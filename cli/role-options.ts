// The command-line side of the roles of `run` (and `create-tools`): the --agent and --user ids and
// the model options, parsed as commander reads them. What they mean (role specs, the roles built
// from them) is the runner's: engine/runner/role-specs.ts.
import { InvalidArgumentError, type Command } from "commander";
import { addOptions, type OptionTable } from "./option-table.js";
import { numberIn } from "./number-options.js";
import { DEFAULT_API_KEY_ENV, DEFAULT_BASE_URL } from "../engine/roles/openai/settings.js";
import { splitCommandLine } from "../engine/runner/command-agent.js";
import {
  A2A_PREFIX,
  a2aUrlProblem,
  COMMAND_PREFIX,
  isRoleId,
  roleSpecs,
  SUPPORTED_AGENTS,
  SUPPORTED_USERS,
  type ModelRoleFlags,
  type RoleSpecs,
} from "../engine/runner/role-specs.js";

function roleParser(kind: "agent" | "user") {
  return (value: string): string => {
    if (isRoleId(value)) return value;
    if (kind === "agent" && value.startsWith(A2A_PREFIX)) {
      const problem = a2aUrlProblem(value.slice(A2A_PREFIX.length));
      if (problem !== null) throw new InvalidArgumentError(`${A2A_PREFIX}: ${problem}`);
      return value;
    }
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

export const temperature = numberIn("the temperature", 0, 2);
export const seed = numberIn("the seed", 0, Number.MAX_SAFE_INTEGER, { integer: true });
export const maxTokens = numberIn("the token limit", 1, 10_000_000, { integer: true });

/** The model options of the roles (after --agent and --user), for `run`, `serve` and `create-tools`. */
export const MODEL_ROLE_OPTIONS = {
  baseUrl: {
    flags: "--base-url <url>",
    description: `OpenAI-compatible endpoint for both model roles (default ${DEFAULT_BASE_URL})`,
    parse: baseUrl,
  },
  agentBaseUrl: { flags: "--agent-base-url <url>", description: "endpoint for the agent's model (overrides --base-url)", parse: baseUrl },
  userBaseUrl: {
    flags: "--user-base-url <url>",
    description: "endpoint for the user simulator's model (overrides --base-url)",
    parse: baseUrl,
  },
  agentTemperature: {
    flags: "--agent-temperature <t>",
    description: "the agent's sampling temperature (default: the server's)",
    parse: temperature,
  },
  userTemperature: {
    flags: "--user-temperature <t>",
    description: "the user simulator's sampling temperature (default: the server's)",
    parse: temperature,
  },
  agentSeed: { flags: "--agent-seed <n>", description: "sampling seed sent with the agent's requests", parse: seed },
  userSeed: { flags: "--user-seed <n>", description: "sampling seed sent with the user simulator's requests", parse: seed },
  agentMaxTokens: { flags: "--agent-max-tokens <n>", description: "token limit of each agent answer", parse: maxTokens },
  userMaxTokens: { flags: "--user-max-tokens <n>", description: "token limit of each user simulator answer", parse: maxTokens },
  timeout: {
    flags: "--timeout <seconds>",
    description: "time limit of each model request attempt (default 120)",
    parse: numberIn("the timeout", 0.001, 86_400, { unit: "seconds" }),
  },
  maxRetries: {
    flags: "--max-retries <n>",
    description: "retries of a model request on 429, 5xx, timeouts and dropped connections, with backoff honouring Retry-After (default 2)",
    parse: numberIn("the number of retries", 0, 100, { integer: true }),
  },
  apiKeyEnv: {
    flags: "--api-key-env <name>",
    description: `environment variable holding the API key (default ${DEFAULT_API_KEY_ENV})`,
    parse: envName,
  },
  agentApiKeyEnv: { flags: "--agent-api-key-env <name>", description: "environment variable holding the agent's API key", parse: envName },
  userApiKeyEnv: {
    flags: "--user-api-key-env <name>",
    description: "environment variable holding the user simulator's API key",
    parse: envName,
  },
  recordIo: {
    flags: "--no-record-io",
    description: "leave the raw request and response bodies out of the trajectory (latency, tokens and request ids are still recorded)",
  },
} as const satisfies OptionTable;

/** Adds the model options to `command` (after --agent and --user). */
export function addModelRoleOptions(command: Command): Command {
  return addOptions(command, MODEL_ROLE_OPTIONS);
}

/** The run options with the roles resolved from the flags; misused flags and missing keys are usage errors. */
export function withRoleSpecs<T extends { readonly agent: string; readonly user: string } & ModelRoleFlags>(
  opts: T,
  env: Readonly<Record<string, string | undefined>> = process.env,
): T & { roles: RoleSpecs } {
  return { ...opts, roles: roleSpecs(opts.agent, opts.user, opts, env) };
}
