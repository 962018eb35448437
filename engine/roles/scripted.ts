// The scripted agent and user: together they play the scenario's `reference` solution step by
// step. They share one cursor, so the reference reads as the conversation's turns in order and a
// step for the wrong role is reported instead of skipped.
import type { Scenario } from "../scenario/model.js";
import type { AgentRole, AgentTurn, UserRole, UserTurn } from "./role.js";
import { RoleError } from "./role.js";

export const SCRIPTED_ROLE_ID = "scripted";

export function createScriptedRoles(scenario: Scenario): { agent: AgentRole; user: UserRole } {
  const steps = scenario.reference;
  let cursor = 0;
  /** Steps are numbered from 1, as they appear in the scenario file's list. */
  const stepName = (i: number): string => `reference step ${i + 1}`;

  const agent: AgentRole = {
    id: SCRIPTED_ROLE_ID,
    respond: async (): Promise<AgentTurn> => {
      const step = steps[cursor];
      if (!step) throw new RoleError(`the reference has no step left for the agent (after ${steps.length} steps)`, "script_exhausted");
      switch (step.kind) {
        case "agent_text":
          cursor++;
          return { kind: "text", text: step.text };
        case "agent_calls":
          cursor++;
          return { kind: "calls", calls: step.calls.map((c) => ({ id: c.id, name: c.tool, arguments: c.arguments })) };
        default:
          throw new RoleError(`${stepName(cursor)} is a user step but the agent is to speak`);
      }
    },
  };

  const user: UserRole = {
    id: SCRIPTED_ROLE_ID,
    respond: async (): Promise<UserTurn> => {
      const step = steps[cursor];
      // A script that has said everything ends the conversation, as a satisfied user would.
      if (!step) return { kind: "end_conversation" };
      switch (step.kind) {
        case "user_text":
          cursor++;
          return { kind: "text", text: step.text };
        case "end_conversation":
          cursor++;
          return { kind: "end_conversation" };
        default:
          throw new RoleError(`${stepName(cursor)} is an agent step but the user is to speak`);
      }
    },
  };

  return { agent, user };
}
