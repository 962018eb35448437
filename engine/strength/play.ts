// Plays one reference solution (the scenario's own, a mutant's or a variant's) with the scripted
// agent and user, in process, through the same Episode and evaluation every run goes through. No
// trajectory file is written: strength plays hundreds of episodes per suite and keeps only what
// it compares.
import { Episode, type EpisodeEnd } from "../episode/episode.js";
import type { Message } from "../episode/types.js";
import { evaluate, type EvaluationResult } from "../evaluation/evaluate.js";
import { REFERENCE_SEED } from "../evaluation/reference-check.js";
import { createScriptedRoles } from "../roles/scripted.js";
import type { ReferenceStep, Scenario } from "../scenario/model.js";
import type { Tables } from "../world/types.js";
import { errorMessage } from "../base/text.js";

export interface PlayedRun {
  readonly messages: readonly Message[];
  /** The distinct world states in order (the initial one first). */
  readonly states: readonly Tables[];
  readonly worldAt: (index: number) => Tables;
  readonly firstUserIndex: number;
  readonly end: EpisodeEnd | null;
  /** Null when the episode or its evaluation failed (`error` says why). */
  readonly evaluation: EvaluationResult | null;
  readonly error: string | null;
}

/** End reasons after which the script was not playable as written (a step for the wrong role, a role failure). */
const UNPLAYABLE_ENDS = new Set(["role_error", "model_error", "agent_disconnected", "timed_out", "cancelled", "invalid_tool_call"]);

export async function playReference(scenario: Scenario, reference: readonly ReferenceStep[]): Promise<PlayedRun> {
  const played: Scenario = reference === scenario.reference ? scenario : { ...scenario, reference };
  const { agent, user } = createScriptedRoles(played);
  const episode = new Episode({ scenario: played, agent, user, seed: REFERENCE_SEED });
  const base = {
    messages: episode.messages,
    states: [] as Tables[],
    worldAt: (i: number) => episode.world.at(i),
    firstUserIndex: episode.firstUserIndex,
  };
  try {
    await episode.run();
  } catch (e) {
    return { ...base, end: episode.ended, evaluation: null, error: errorMessage(e) };
  }
  const states = episode.world.all().map((s) => s.tables);
  const end = episode.ended;
  // upstream's crash on an invalid call is a score of 0, not an unplayable script: only in `end` mode.
  const crashed = end?.reason === "invalid_tool_call" && scenario.options.invalid_tool_call === "end";
  if (end !== null && UNPLAYABLE_ENDS.has(end.reason) && !crashed) {
    return { ...base, states, end, evaluation: null, error: end.detail ?? end.reason };
  }
  try {
    const evaluation = evaluate(played, episode.messages, base.worldAt, episode.firstUserIndex, { endReason: end?.reason ?? null });
    return { ...base, states, end, evaluation, error: null };
  } catch (e) {
    return { ...base, states, end, evaluation: null, error: errorMessage(e) };
  }
}
