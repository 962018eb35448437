// Running episodes in tests: scripted or queued roles, with every event recorded.
import { Episode, type EpisodeOptions } from "../../engine/episode/episode.js";
import type { EpisodeEvent, Message } from "../../engine/episode/types.js";
import type { AgentRequest, AgentRole, AgentTurn, UserRequest, UserRole, UserTurn } from "../../engine/episode/role.js";
import { createScriptedRoles } from "../../engine/roles/scripted.js";
import type { Scenario } from "../../engine/scenario/model.js";
import type { CellValue } from "../../engine/world/types.js";

interface Recorded {
  readonly episode: Episode;
  readonly events: EpisodeEvent[];
}

/** An episode whose events are collected; roles default to the scripted ones. */
export function makeEpisode(scenario: Scenario, extra: Partial<EpisodeOptions> = {}): Recorded {
  const events: EpisodeEvent[] = [];
  const scripted = createScriptedRoles(scenario);
  const episode = new Episode({
    scenario,
    agent: scripted.agent,
    user: scripted.user,
    seed: 7,
    onEvent: (event) => events.push(event),
    ...extra,
  });
  return { episode, events };
}

export async function runScenario(scenario: Scenario, extra: Partial<EpisodeOptions> = {}): Promise<Recorded> {
  const recorded = makeEpisode(scenario, extra);
  await recorded.episode.run();
  return recorded;
}

/** The messages after the scripted start. */
export function played(episode: Episode): readonly Message[] {
  return episode.messages.slice(episode.firstUserIndex + 1);
}

/** "sender>recipient" per message: a compact picture of who spoke to whom. */
export function routes(messages: readonly Message[]): string[] {
  return messages.map((m) => `${m.sender}>${m.recipient}`);
}

/** Roles that answer from a queue and keep every request they were sent. */
export function queuedRoles(agentTurns: AgentTurn[], userTurns: UserTurn[] = []) {
  const agentRequests: AgentRequest[] = [];
  const userRequests: UserRequest[] = [];
  const agent: AgentRole = {
    id: "queued",
    respond: async (request) => {
      agentRequests.push(request);
      const turn = agentTurns.shift();
      if (!turn) throw new Error("queued agent ran out of turns");
      return turn;
    },
  };
  const user: UserRole = {
    id: "queued",
    respond: async (request) => {
      userRequests.push(request);
      return userTurns.shift() ?? { kind: "end_conversation" };
    },
  };
  return { agent, user, agentRequests, userRequests };
}

export function settingAt(episode: Episode, index: number): Readonly<Record<string, CellValue>> {
  return episode.world.at(index).SETTING![0]!;
}

/** Wraps roles so every request they are sent is kept. */
export function recordingRoles(roles: { agent: AgentRole; user: UserRole }) {
  const agentRequests: AgentRequest[] = [];
  const userRequests: UserRequest[] = [];
  const agent: AgentRole = {
    id: roles.agent.id,
    respond: (request) => {
      agentRequests.push(request);
      return roles.agent.respond(request);
    },
  };
  const user: UserRole = {
    id: roles.user.id,
    respond: (request) => {
      userRequests.push(request);
      return roles.user.respond(request);
    },
  };
  return { agent, user, agentRequests, userRequests };
}

export const indices = (messages: readonly Message[]): number[] => messages.map((m) => m.sandbox_message_index);
