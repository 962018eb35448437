// The scripted agent and user: together they play the scenario's `reference` solution step by
// step. They share one cursor, so the reference reads as the conversation's turns in order and a
// step for the wrong role is reported instead of skipped. Opposite a model-backed role, a scripted
// role plays only its own side's steps (createScriptedUser, createScriptedAgent).
import type { ReferenceStep, Scenario, ToolAugmentation } from "../scenario/model.js";
import { packById } from "../packs/registry.js";
import { agentFacingName } from "../scenario/augmentations/scrambling.js";
import type { ToolDefinition } from "../tools/types.js";
import type { AgentRole, AgentTurn, UserRole, UserTurn } from "../episode/role.js";
import { RoleError } from "../episode/role.js";

export const SCRIPTED_ROLE_ID = "scripted";

export function createScriptedRoles(scenario: Scenario): { agent: AgentRole; user: UserRole } {
  const steps = scenario.reference;
  const augmentations = scenario.options.augmentations ?? [];
  const tools = packById(scenario.world.pack).tools;
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
          return scriptedCalls(step, augmentations, tools);
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

/**
 * The scripted user opposite a model-backed agent: it says its own lines of the reference in order
 * and skips the agent's steps, which the model plays its own way. With no line left it ends the
 * conversation.
 */
export function createScriptedUser(scenario: Scenario): UserRole {
  const lines = scenario.reference.filter((s) => s.kind === "user_text" || s.kind === "end_conversation");
  let cursor = 0;
  return {
    id: SCRIPTED_ROLE_ID,
    respond: async (): Promise<UserTurn> => {
      const step = lines[cursor++];
      return step?.kind === "user_text" ? { kind: "text", text: step.text } : { kind: "end_conversation" };
    },
  };
}

/** The scripted agent opposite a model-backed user: it plays the reference's agent steps in order. */
export function createScriptedAgent(scenario: Scenario): AgentRole {
  const steps = scenario.reference.filter((s): s is AgentStep => s.kind === "agent_text" || s.kind === "agent_calls");
  const augmentations = scenario.options.augmentations ?? [];
  const tools = packById(scenario.world.pack).tools;
  let cursor = 0;
  return {
    id: SCRIPTED_ROLE_ID,
    respond: async (): Promise<AgentTurn> => {
      const step = steps[cursor++];
      if (!step) throw new RoleError(`the reference has no agent step left (after ${steps.length})`, "script_exhausted");
      return step.kind === "agent_text" ? { kind: "text", text: step.text } : scriptedCalls(step, augmentations, tools);
    },
  };
}

type AgentStep = Extract<ReferenceStep, { kind: "agent_text" | "agent_calls" }>;

/** The reference names the real tools; the agent calls them by the names it is shown (scrambled or not). */
function scriptedCalls(
  step: Extract<ReferenceStep, { kind: "agent_calls" }>,
  augmentations: readonly ToolAugmentation[],
  tools: readonly ToolDefinition[],
): AgentTurn {
  return {
    kind: "calls",
    calls: step.calls.map((c) => ({ id: c.id, name: agentFacingName(c.tool, augmentations, tools), arguments: c.arguments })),
  };
}
