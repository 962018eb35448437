// The command-line side of the roles of `run` (and `create-tools`): the --agent and --user ids and
// the model options, parsed as commander reads them. What they mean (role specs, the roles built
// from them) is the runner's: engine/runner/role-specs.ts.
import { InvalidArgumentError, Option, type Command } from "commander";
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
        numberIn("the timeout", 0.001, 86_400, { unit: "seconds" }),
      ),
    )
    .addOption(
      option(
        "--max-retries <n>",
        "retries of a model request on 429, 5xx, timeouts and dropped connections, with backoff honouring Retry-After (default 2)",
        numberIn("the number of retries", 0, 100, { integer: true }),
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

/** The run options with the roles resolved from the flags; misused flags and missing keys are usage errors. */
export function withRoleSpecs<T extends { readonly agent: string; readonly user: string } & ModelRoleFlags>(
  opts: T,
  env: Readonly<Record<string, string | undefined>> = process.env,
): T & { roles: RoleSpecs } {
  return { ...opts, roles: roleSpecs(opts.agent, opts.user, opts, env) };
}
