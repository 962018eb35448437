// DialogTool's per-turn tasks, teacher-forced: the conversation follows the reference exactly
// (scripted user, the reference's agent steps played), and at each agent turn the agent under
// test is asked what it would do, seeing just what the reference's agent saw at that point. Its
// answer is recorded and never played, so one wrong turn does not spoil the turns after it (the
// way ToolTalk's mode replays the ground truth before each turn).
import { Episode } from "../../../episode/episode.js";
import type { Message, ModelCall } from "../../../episode/types.js";
import { appOf, appsOfTools } from "../../../scenario/apps.js";
import { packById } from "../../../packs/registry.js";
import type { WorldPack } from "../../../packs/types.js";
import type { AgentRole, AgentTurn } from "../../../episode/role.js";
import { createScriptedAgent, createScriptedUser } from "../../../roles/scripted.js";
import type { Scenario } from "../../../scenario/model.js";
import { catalogNames } from "./catalog-names.js";
import type { ActionChoice, AgentAction, DialogToolTurn, HierarchicalTurn } from "./types.js";
import { nextReferenceAction } from "./actions.js";
import { choiceQuestion, parseActionAnswer, parseAppAnswer, type Chooser } from "./choices.js";
import { goAhead, transactionalTools } from "./confirmation.js";

export interface TeacherForcingOptions {
  readonly seed?: number;
  readonly signal?: AbortSignal;
  /** "actions": before each turn the agent chooses its action from DialogTool's list (`chooser` answers). */
  readonly awareness?: "binary" | "actions";
  /**
   * "hierarchical": besides the flat prediction, each turn is asked again the hierarchical way:
   * the app first (`chooser` answers), then `hierarchicalPredictor` shown only that app's tools.
   */
  readonly selection?: "flat" | "hierarchical";
  readonly chooser?: Chooser;
  /** A second predictor of the same kind (a scripted one keeps its own cursor). */
  readonly hierarchicalPredictor?: AgentRole;
}

/** Thrown when the reference's own play does not end as a conversation should (the scenario is broken, or the predictor failed). */
class TeacherForcingError extends Error {
  override name = "TeacherForcingError";
}

export { catalogNames } from "./catalog-names.js";

function actionOfTurn(turn: AgentTurn, realName: (name: string) => string): Exclude<AgentAction, { kind: "none" }> {
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
  const pack = packById(scenario.world.pack);
  const chooser = options.chooser;
  if ((options.awareness === "actions" || options.selection === "hierarchical") && chooser === undefined)
    throw new TypeError("a chooser is needed to ask for actions or apps");
  if (options.selection === "hierarchical" && options.hierarchicalPredictor === undefined)
    throw new TypeError("hierarchical selection needs a predictor of its own");
  type Asked = Pick<DialogToolTurn, "truth" | "prediction" | "model_call" | "truth_action" | "action_choice" | "hierarchical">;
  const asked: Asked[] = [];
  const forcing: AgentRole = {
    id: `teacher-forced:${predictor.id}`,
    respond: async (request) => {
      const truthAction = nextReferenceAction(scenario, request.messages);
      const truth = await truthAgent.respond(request);
      // The questions and the predictions see the request without the episode's telemetry hook.
      const { onModelCall: _hook, ...plain } = request;
      let actionChoice: ActionChoice | undefined;
      if (options.awareness === "actions" && chooser) {
        const a = await chooser.choose("action", plain, choiceQuestion("action", plain));
        actionChoice = { chosen: parseActionAnswer(a.answer), answer: a.answer, ...(a.model_call ? { model_call: a.model_call } : {}) };
      }
      let modelCall: ModelCall | undefined;
      const predicted = await predictor.respond({
        ...plain,
        onModelCall: (call) => {
          modelCall = call;
        },
      });
      let hierarchical: HierarchicalTurn | undefined;
      if (options.selection === "hierarchical" && chooser && options.hierarchicalPredictor) {
        const c = await chooser.choose("app", plain, choiceQuestion("app", plain));
        const apps = parseAppAnswer(c.answer, scenario);
        const calls: ModelCall[] = c.model_call ? [c.model_call] : [];
        const chosen = new Set(apps ?? []);
        const tools = plain.tools.filter((t) => chosen.has(appOf(pack, t.name) ?? ""));
        const answered = await options.hierarchicalPredictor.respond({ ...plain, tools, onModelCall: (call) => calls.push(call) });
        hierarchical = { apps, answer: c.answer, prediction: actionOfTurn(answered, realName), model_calls: calls };
      }
      asked.push({
        truth: actionOfTurn(truth, realName),
        prediction: actionOfTurn(predicted, realName),
        ...(modelCall ? { model_call: modelCall } : {}),
        ...(truthAction !== null ? { truth_action: truthAction } : {}),
        ...(actionChoice ? { action_choice: actionChoice } : {}),
        ...(hierarchical ? { hierarchical } : {}),
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
  return asked.map((a, k) => {
    const index = starts[k] ?? -1;
    const d = dialogueTurnAt(messages, index);
    const transactional = transactionalTools(pack, [a.truth, a.prediction, ...(a.hierarchical ? [a.hierarchical.prediction] : [])]);
    return {
      index,
      dialogue_turn: d,
      ...a,
      apps: appsOfAction(a.truth, pack),
      transactional,
      go_ahead: goAhead(scenario, messages, d, transactional),
    };
  });
}
