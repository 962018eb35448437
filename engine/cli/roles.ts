// Who plays the agent and the user in `run`. Only the scripted roles exist so far; model-backed
// roles will be added here, and the option parsers name whatever is supported.
import { InvalidArgumentError } from "commander";
import type { AgentRole, UserRole } from "../roles/role.js";
import { SCRIPTED_ROLE_ID, createScriptedRoles } from "../roles/scripted.js";
import type { Scenario } from "../scenario/model.js";

export const SUPPORTED_AGENTS: readonly string[] = [SCRIPTED_ROLE_ID];
export const SUPPORTED_USERS: readonly string[] = [SCRIPTED_ROLE_ID];

function roleParser(kind: "agent" | "user", supported: readonly string[]) {
  return (value: string): string => {
    if (supported.includes(value)) return value;
    throw new InvalidArgumentError(`unsupported ${kind} "${value}" (supported: ${supported.join(", ")})`);
  };
}

export const parseAgentId = roleParser("agent", SUPPORTED_AGENTS);
export const parseUserId = roleParser("user", SUPPORTED_USERS);

/** Fresh roles for one scenario (a scripted pair shares its cursor, so never reuse them). */
export function createRoles(agentId: string, userId: string, scenario: Scenario): { agent: AgentRole; user: UserRole } {
  if (agentId === SCRIPTED_ROLE_ID && userId === SCRIPTED_ROLE_ID) return createScriptedRoles(scenario);
  throw new Error(`no roles for agent "${agentId}" with user "${userId}"`);
}
