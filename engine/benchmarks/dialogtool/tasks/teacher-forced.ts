// DialogTool's per-turn tasks, teacher-forced: the conversation follows the reference exactly
// (scripted user, the reference's agent steps played), and at each agent turn the agent under
// test is asked what it would do, seeing just what the reference's agent saw at that point. Its
// answer is recorded and never played, so one wrong turn does not spoil the turns after it (the
// way ToolTalk's mode replays the ground truth before each turn).
import { Episode } from "../../../episode/episode.js";
import type { Message, ModelCall } from "../../../episode/types.js";
import { appsOfTools } from "../../../scenario/apps.js";
import { packById } from "../../../packs/registry.js";
import type { WorldPack } from "../../../packs/types.js";
import type { AgentRole, AgentTurn } from "../../../episode/role.js";
import { createScriptedAgent, createScriptedUser } from "../../../roles/scripted.js";
import type { Scenario } from "../../../scenario/model.js";
import { agentFacingName } from "../../../scenario/augmentations/scrambling.js";
import type { AgentAction, DialogToolTurn } from "./types.js";

export interface TeacherForcingOptions {
  readonly seed?: number;
  readonly signal?: AbortSignal;
}

/** Thrown when the reference's own play does not end as a conversation should (the scenario is broken, or the predictor failed). */
export class TeacherForcingError extends Error {
  override name = "TeacherForcingError";
}

/** Agent-facing tool names (scrambled when the scenario says so) back to the catalog's. */
export function catalogNames(scenario: Scenario): (name: string) => string {
  const tools = packById(scenario.world.pack).tools;
  const augmentations = scenario.options.augmentations ?? [];
  const byFacing = new Map(tools.map((t) => [agentFacingName(t.name, augmentations, tools), t.name]));
  return (name) => byFacing.get(name) ?? name;
}

export function actionOfTurn(turn: AgentTurn, realName: (name: string) => string): Exclude<AgentAction, { kind: "none" }> {
  if (turn.kind === "text") return { kind: "text", text: turn.text };
  return { kind: "calls", calls: turn.calls.map((c) => ({ tool: realName(c.name), arguments: c.arguments ?? null })) };
}

/** The apps of an action's calls (none for a reply). */
export function appsOfAction(action: AgentAction, pack: WorldPack): string[] {
  return action.kind === "calls"
    ? appsOfTools(
        pack,
        action.calls.map((c) => c.tool),
      )
    : [];
}

/** The first message of each agent turn: runs of messages the agent sent one after another. */
export function agentTurnStarts(messages: readonly Message[]): number[] {
  const starts: number[] = [];
  messages.forEach((m, i) => {
    if (m.sender !== "agent" || m.scripted === true) return;
    const previous = messages[i - 1];
    if (previous?.sender !== "agent" || previous.scripted === true) starts.push(m.sandbox_message_index);
  });
  return starts;
}

/** How many of the user's own messages (after the scripted opening) come before `index`. */
export function dialogueTurnAt(messages: readonly Message[], index: number): number {
  return messages.filter((m) => m.sandbox_message_index < index && m.sender === "user" && m.recipient === "agent" && m.scripted !== true)
    .length;
}

/**
 * Plays the reference and asks `predictor` at every agent turn. The predictor is a fresh role for
 * this scenario: a model-backed agent, or the scripted agent (the reference itself, the oracle).
 */
export async function teacherForcedTurns(
  scenario: Scenario,
  predictor: AgentRole,
  options: TeacherForcingOptions = {},
): Promise<DialogToolTurn[]> {
  const truthAgent = createScriptedAgent(scenario);
  const realName = catalogNames(scenario);
  const asked: { truth: Exclude<AgentAction, { kind: "none" }>; prediction: AgentAction; model_call?: ModelCall }[] = [];
  const forcing: AgentRole = {
    id: `teacher-forced:${predictor.id}`,
    respond: async (request) => {
      const truth = await truthAgent.respond(request);
      let modelCall: ModelCall | undefined;
      const predicted = await predictor.respond({
        ...request,
        onModelCall: (call) => {
          modelCall = call;
        },
      });
      asked.push({
        truth: actionOfTurn(truth, realName),
        prediction: actionOfTurn(predicted, realName),
        ...(modelCall ? { model_call: modelCall } : {}),
      });
      return truth;
    },
  };
  const episode = new Episode({
    scenario,
    agent: forcing,
    user: createScriptedUser(scenario),
    seed: options.seed ?? 0,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  await episode.run();
  const end = episode.ended;
  if (end?.reason !== "end_conversation") {
    throw new TeacherForcingError(`the reference's play ended with ${end?.reason ?? "no end"}${end?.detail ? `: ${end.detail}` : ""}`);
  }
  const messages = episode.messages;
  const starts = agentTurnStarts(messages);
  if (starts.length !== asked.length)
    throw new TeacherForcingError(`${asked.length} agent turns were asked for but ${starts.length} were played`);
  const pack = packById(scenario.world.pack);
  return asked.map((a, k) => {
    const index = starts[k] ?? -1;
    return { index, dialogue_turn: dialogueTurnAt(messages, index), ...a, apps: appsOfAction(a.truth, pack) };
  });
}
