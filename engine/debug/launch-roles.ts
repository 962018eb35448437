// The roles a launch configuration asks for, read like `run`'s options: `openai:MODEL` with its
// endpoint (agentBaseUrl, userBaseUrl) and the key from the environment variable `run` reads (an
// endpoint on this machine needs none). Role specs are the runner's (cli/roles.ts until it moves
// to engine/runner, as play.ts already uses it).
import { roleSpecs, type RoleSpecs } from "../runner/role-specs.js";
import type { LaunchArguments } from "./adapter.js";

export function launchRoles(args: LaunchArguments, env: Readonly<Record<string, string | undefined>> = process.env): RoleSpecs {
  const flags = {
    ...(args.agentBaseUrl === undefined ? {} : { agentBaseUrl: args.agentBaseUrl }),
    ...(args.userBaseUrl === undefined ? {} : { userBaseUrl: args.userBaseUrl }),
  };
  return roleSpecs(args.agent, args.user, flags, env);
}
