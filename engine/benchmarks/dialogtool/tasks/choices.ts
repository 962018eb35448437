// The two questions DialogTool's framing puts to the agent before it acts, each a request of its
// own: which action it will take (`--awareness actions`), and which app it needs
// (`--selection hierarchical`: one entry per app, its name and description; then only that app's
// tools are offered). The question follows the conversation as a last system message that opens
// with a marker, so mock-llm can tell it from an agent turn. The answers are parsed here, the same
// way for a model and for the scripted chooser, which answers with the reference.
import type { AgentRequest } from "../../../episode/role.js";
import type { ModelCall } from "../../../episode/types.js";
import type { PackApp } from "../../../packs/types.js";
import { toAgentMessages } from "../../../roles/openai/agent-messages.js";
import type { ChatModel } from "../../../roles/openai/chat-model.js";
import { appsOfTools } from "../../../scenario/apps.js";
import { packById } from "../../../packs/registry.js";
import type { Scenario } from "../../../scenario/model.js";
import { parseDocstring } from "../../../tools/openai-schema.js";
import { agentFacingName } from "../../../scenario/augmentations/scrambling.js";
import { agentSteps, agentTurnsTaken, nextReferenceAction, TURN_ACTION_DOCS, TURN_ACTIONS, type TurnAction } from "./actions.js";

export const ACTION_CHOICE_MARKER = "DialogTool action choice.";
export const APP_CHOICE_MARKER = "DialogTool app choice.";
/** The app answer that means no tool is needed now. */
export const NO_APP = "NONE";

export type ChoiceKind = "action" | "app";

export interface ChoiceAnswer {
  /** The answer as given (a model's text). */
  readonly answer: string;
  readonly model_call?: ModelCall;
}

/** Who answers the two questions: a model, or the reference (scripted). */
export interface Chooser {
  choose(kind: ChoiceKind, request: AgentRequest, question: string): Promise<ChoiceAnswer>;
}

/** The question's text: the options with what each means, and how to answer. */
export function choiceQuestion(kind: ChoiceKind, request: AgentRequest): string {
  if (kind === "action") {
    const augmentations = request.scenario.options.augmentations ?? [];
    const packTools = packById(request.scenario.world.pack).tools;
    const tools = request.tools.map(
      (t) => `- ${agentFacingName(t.name, augmentations, packTools)}: ${parseDocstring(t.docstring).description.split("\n")[0] ?? ""}`,
    );
    return [
      ACTION_CHOICE_MARKER,
      "Before you act, choose the action your next turn takes. The actions:",
      ...TURN_ACTIONS.map((a) => `- ${a}: ${TURN_ACTION_DOCS[a]}`),
      "The tools you may call:",
      ...(tools.length > 0 ? tools : ["(none)"]),
      "Answer with the action's name only.",
    ].join("\n");
  }
  const apps = appsOffered(request);
  return [
    APP_CHOICE_MARKER,
    "Before you act, choose the app whose tools your next turn needs. The apps:",
    ...apps.map((a) => `- ${a.name}: ${a.description}`),
    `Answer with the app's name only (several names separated by commas if the turn needs tools of several apps), or ${NO_APP} if your next turn needs no tool.`,
  ].join("\n");
}

/** The pack's apps with at least one tool the agent may call here. */
function appsOffered(request: AgentRequest): PackApp[] {
  const offered = new Set(request.tools.map((t) => t.name));
  return packById(request.scenario.world.pack).apps.filter((a) => a.tools.some((t) => offered.has(t)));
}

/** The action named in an answer (the longest name found, so Inform_Count is not read as Inform); null when none is. */
export function parseActionAnswer(answer: string): TurnAction | null {
  const found = [...TURN_ACTIONS]
    .sort((a, b) => b.length - a.length)
    .map((a) => ({ a, at: answer.search(new RegExp(`(^|[^A-Za-z_])${a}($|[^A-Za-z_])`, "i")) }))
    .filter((f) => f.at >= 0);
  if (found.length === 0) return null;
  // The first mentioned; among names found at the same place, the longest (sorted first).
  return found.reduce((best, f) => (f.at < best.at ? f : best)).a;
}

/** The apps named in an answer, in the pack's order; [] for NONE; null when it names nothing offered. */
export function parseAppAnswer(answer: string, scenario: Scenario): string[] | null {
  const names = packById(scenario.world.pack).apps.map((a) => a.name);
  const named = names.filter((n) => new RegExp(`(^|[^A-Za-z_])${n}($|[^A-Za-z_])`, "i").test(answer));
  if (named.length > 0) return named;
  return new RegExp(`\\b${NO_APP}\\b`, "i").test(answer) ? [] : null;
}

/** A model answering the questions: the conversation so far, then the question; no tools are offered. */
export function modelChooser(model: ChatModel, label: string): Chooser {
  return {
    choose: async (_kind, request, question) => {
      let modelCall: ModelCall | undefined;
      const reply = await model.complete(
        `${label} (DialogTool choice)`,
        [...toAgentMessages(request.messages), { role: "system", content: question }],
        [],
        request.signal,
        (call) => {
          modelCall = call;
        },
      );
      return { answer: reply.content ?? "", ...(modelCall ? { model_call: modelCall } : {}) };
    },
  };
}

/** The reference's answers: its action at this turn, and the apps of its calls (NONE for a reply). */
function referenceAnswer(kind: ChoiceKind, scenario: Scenario, request: AgentRequest): string {
  if (kind === "action") return nextReferenceAction(scenario, request.messages) ?? "";
  const step = agentSteps(scenario)[agentTurnsTaken(request.messages)];
  if (step?.kind !== "agent_calls") return NO_APP;
  return appsOfTools(
    packById(scenario.world.pack),
    step.calls.map((c) => c.tool),
  ).join(", ");
}

export function scriptedChooser(scenario: Scenario): Chooser {
  return { choose: async (kind, request) => ({ answer: referenceAnswer(kind, scenario, request) }) };
}
