// DialogTool's questions before an agent turn (engine/benchmarks/dialogtool/tasks/choices.ts):
// which action the turn takes, and which app it needs. mock-llm answers them with the reference,
// as it plays the reference's turns: the k-th agent step of the scenario, k being the agent turns
// the history has already taken. The reference's actions come from playing the reference once
// per scenario with the scripted roles, so they are those the evaluation derives.
import { agentSteps, playedReferenceActions, type TurnAction } from "../benchmarks/dialogtool/tasks/actions.js";
import { ACTION_CHOICE_MARKER, APP_CHOICE_MARKER, NO_APP, type ChoiceKind } from "../benchmarks/dialogtool/tasks/choices.js";
import { packById } from "../packs/registry.js";
import { appsOfTools } from "../scenario/apps.js";
import type { Scenario } from "../scenario/model.js";
import { agentConversation } from "./played-turns.js";
import type { ScriptedReply } from "./reply.js";
import type { ChatRequest } from "./wire.js";

/** Which question the request asks: its last message is a system message opening with the question's marker. */
export function choiceKindOf(request: ChatRequest): ChoiceKind | null {
  const last = request.messages[request.messages.length - 1];
  if (last?.role !== "system") return null;
  if (last.content.startsWith(ACTION_CHOICE_MARKER)) return "action";
  if (last.content.startsWith(APP_CHOICE_MARKER)) return "app";
  return null;
}

const actionsByScenario = new WeakMap<Scenario, Promise<TurnAction[]>>();

export async function choiceReply(kind: ChoiceKind, scenario: Scenario, request: ChatRequest): Promise<ScriptedReply> {
  const taken = agentConversation(request).filter((t) => t.kind !== "user_text").length;
  const steps = agentSteps(scenario);
  const step = steps[taken];
  const number = step ? scenario.reference.indexOf(step) + 1 : null;
  if (kind === "action") {
    let actions = actionsByScenario.get(scenario);
    if (!actions) {
      actions = playedReferenceActions(scenario);
      actionsByScenario.set(scenario, actions);
    }
    return { content: (await actions)[taken] ?? "Goodbye", toolCalls: [], step: number };
  }
  const apps =
    step?.kind === "agent_calls"
      ? appsOfTools(
          packById(scenario.world.pack),
          step.calls.map((c) => c.tool),
        )
      : [];
  return { content: apps.length > 0 ? apps.join(", ") : NO_APP, toolCalls: [], step: number };
}
