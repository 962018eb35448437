// The role-play judge: after an episode of a scenario with a persona, one model (any OpenAI-
// compatible endpoint, through ChatModel, so with the same timeouts, retries and telemetry as the
// agent and the user) rates how well the agent's replies kept to the persona. Whatever goes wrong
// (no replies to judge, the endpoint failing, an answer that is not the JSON asked for) becomes a
// judgement with a one-line `failure`, so the run goes on and the trajectory says why.
import type { Message, ModelCall } from "../../../episode/types.js";
import type { Persona, Scenario } from "../../../scenario/model.js";
import type { JudgementEvent } from "../../../trajectory/events.js";
import type { CacheScope } from "../../../roles/openai/call-cache.js";
import { ChatModel, type ChatModelOptions } from "../../../roles/openai/chat-model.js";
import { openAiRoleId, type ModelSettings } from "../../../roles/openai/settings.js";
import { RoleError } from "../../../episode/role.js";
import { judgeUserMessage, ROLE_PLAY_RUBRIC, spokenLines } from "./rubric.js";
import { readVerdict } from "./verdict.js";

export class RolePlayJudge {
  readonly id: string;
  readonly settings: ModelSettings;
  private readonly model: ChatModel;

  constructor(options: ChatModelOptions | ChatModel) {
    this.model = options instanceof ChatModel ? options : new ChatModel(options);
    this.settings = this.model.settings;
    this.id = openAiRoleId(this.settings);
  }

  /**
   * The same judge for one job: with a run's cache (`--cache`), its verdicts are kept and found under
   * the job's trial and seed, like the agent's and the user's answers (ChatModel.withScope).
   */
  withScope(scope: CacheScope): RolePlayJudge {
    return new RolePlayJudge(this.model.withScope(scope));
  }

  /** The verdict on `messages` (a finished episode's bus). A cancelled run's abort is rethrown. */
  async judge(persona: Persona, messages: readonly Message[], signal?: AbortSignal): Promise<JudgementEvent> {
    const base = { type: "judgement" as const, judge: this.id, settings: this.settings, rubric: ROLE_PLAY_RUBRIC };
    const failed = (failure: string, call?: ModelCall): JudgementEvent => ({
      ...base,
      criteria: [],
      overall: null,
      failure,
      ...(call ? { call } : {}),
    });
    const lines = spokenLines(messages);
    if (!lines.some((l) => l.startsWith("Assistant reply ")))
      return failed("the agent wrote no reply to the user, so there is nothing to judge");
    let call: ModelCall | undefined;
    const onCall = (made: ModelCall): void => {
      call = made;
    };
    const chat = [
      { role: "system" as const, content: ROLE_PLAY_RUBRIC },
      { role: "user" as const, content: judgeUserMessage(persona, lines) },
    ];
    let content: string | null;
    try {
      content = (await this.model.complete(`judge ${this.id}`, chat, [], signal, onCall)).content;
    } catch (error) {
      if (error instanceof RoleError) return failed(error.message, call);
      throw error;
    }
    const verdict = readVerdict(content);
    if (!verdict.ok) return failed(verdict.problem, call);
    return { ...base, criteria: verdict.criteria, overall: verdict.overall, ...(call ? { call } : {}) };
  }
}

/**
 * The judgement of a finished episode, as `run --judge` and the extension's runs append it: null
 * when there is no judge, the scenario gives no persona, or the run is being stopped (a stopped
 * run is not judged, and a judge call cut short by the stop is not a verdict).
 */
export async function judgeEpisode(
  judge: RolePlayJudge | undefined,
  scenario: Scenario,
  messages: readonly Message[],
  signal: AbortSignal,
): Promise<JudgementEvent | null> {
  const persona = scenario.agent.persona;
  if (!judge || !persona || signal.aborted) return null;
  return judge.judge(persona, messages, signal).catch((error: unknown) => {
    if (signal.aborted) return null;
    throw error;
  });
}
