// The role-play judge: after an episode of a scenario with a persona, one model (any OpenAI-
// compatible endpoint) rates how well the agent's replies kept to the persona. The call is a model
// verdict (roles/openai/model-verdict.ts, as the failure reviewer's is): whatever goes wrong (no
// replies to judge, the endpoint failing, an answer that is not the JSON asked for) becomes a
// judgement with a one-line `failure`, so the run goes on and the trajectory says why.
import type { Message } from "../../../episode/types.js";
import type { Persona, Scenario } from "../../../scenario/model.js";
import type { JudgementEvent } from "../../../trajectory/events.js";
import type { CacheScope } from "../../../roles/openai/call-cache.js";
import type { ChatModel, ChatModelOptions } from "../../../roles/openai/chat-model.js";
import { unlessStopped, VerdictModel } from "../../../roles/openai/model-verdict.js";
import type { ModelSettings } from "../../../roles/openai/settings.js";
import { judgeUserMessage, ROLE_PLAY_RUBRIC, spokenLines } from "./rubric.js";
import { readVerdict } from "./verdict.js";

export class RolePlayJudge {
  readonly id: string;
  readonly settings: ModelSettings;
  private readonly model: VerdictModel;

  constructor(options: ChatModelOptions | ChatModel | VerdictModel) {
    this.model = options instanceof VerdictModel ? options : new VerdictModel(options);
    this.settings = this.model.settings;
    this.id = this.model.id;
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
    const lines = spokenLines(messages);
    if (!lines.some((l) => l.startsWith("Assistant reply ")))
      return { ...base, criteria: [], overall: null, failure: "the agent wrote no reply to the user, so there is nothing to judge" };
    const outcome = await this.model.ask("judge", ROLE_PLAY_RUBRIC, judgeUserMessage(persona, lines), readVerdict, signal);
    const call = outcome.call ? { call: outcome.call } : {};
    if (!outcome.ok) return { ...base, criteria: [], overall: null, failure: outcome.failure, ...call };
    return { ...base, criteria: outcome.verdict.criteria, overall: outcome.verdict.overall, ...call };
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
  if (!judge || !persona) return null;
  return unlessStopped(signal, () => judge.judge(persona, messages, signal));
}
