// The roles a launch configuration asks for, read like `run`'s options: `openai:MODEL` with its
// endpoint (agentBaseUrl, userBaseUrl), `cmd:COMMAND LINE` for an agent that is a program (started
// in the launch's cwd, reached over MCP), and `scripted`. A model's key comes from the environment
// variable `run` reads (`toolsandbox dap`), or from the caller (the extension's secret storage);
// never from the launch configuration itself.
import { type ModelRoleFlags, type RoleSpec, roleSpecs, type RoleSpecs } from "../runner/role-specs.js";
import type { LaunchArguments } from "./launch-arguments.js";

/** A key the caller looked up for a role, and the name its source is recorded under in the header (api_key_env). */
export interface LaunchKey {
  readonly key: string;
  readonly source: string;
}

export interface LaunchKeys {
  readonly agent?: LaunchKey;
  readonly user?: LaunchKey;
}

export function launchRoles(
  args: LaunchArguments,
  env: Readonly<Record<string, string | undefined>> = process.env,
  keys: LaunchKeys = {},
): RoleSpecs {
  // A key handed over is checked like an environment variable named after its source, so the
  // header says where it came from ("vscode-secret-storage"); the key itself is never written.
  const keyEnv: Record<string, string | undefined> = {};
  const flags: ModelRoleFlags = {
    ...(args.agentBaseUrl === undefined ? {} : { agentBaseUrl: args.agentBaseUrl }),
    ...(args.userBaseUrl === undefined ? {} : { userBaseUrl: args.userBaseUrl }),
    ...(args.agent.startsWith("cmd:") ? { commandCwd: args.cwd } : {}),
    ...(keys.agent ? { agentApiKeyEnv: keys.agent.source } : {}),
    ...(keys.user ? { userApiKeyEnv: keys.user.source } : {}),
  };
  if (keys.agent) keyEnv[keys.agent.source] = keys.agent.key;
  if (keys.user) keyEnv[keys.user.source] = keys.user.key;
  const specs = roleSpecs(args.agent, args.user, flags, keys.agent || keys.user ? { ...env, ...keyEnv } : env);
  // The episode's roles are made later, from the specs: each keeps its own key (two endpoints, two keys).
  return { agent: withKey(specs.agent, keys.agent), user: withKey(specs.user, keys.user) };
}

function withKey(spec: RoleSpec, key: LaunchKey | undefined): RoleSpec {
  return spec.kind === "openai" && key ? { ...spec, apiKey: key.key } : spec;
}
