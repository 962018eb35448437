// Trials of test/fixtures/scenarios/suite/text_with_cellular_off.scenario.yaml played through the one
// runner (playEpisode) by a queued agent policy, so each trial is a real run with its own seed,
// header, play and recorded evaluation, never a copy of another file. Two policies: one plays the
// task to its end (score 1), the other turns cellular on and stops short of sending (score 0.5).
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { AgentTurn } from "../../engine/episode/role.js";
import { playEpisode } from "../../engine/runner/play-episode.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { queuedRoles } from "../episode/harness.js";

export const TRIALS_SCENARIO = "test/fixtures/scenarios/suite/text_with_cellular_off.scenario.yaml";
export const TRIALS_NAME = "text_with_cellular_off";

const SEND: AgentTurn = {
  kind: "calls",
  calls: [
    { id: "send", name: "send_message_with_phone_number", arguments: { phone_number: "+12453344098", content: "See you at rehearsal" } },
  ],
};
const CELLULAR_ON: AgentTurn = { kind: "calls", calls: [{ id: "on", name: "set_cellular_service_status", arguments: { on: true } }] };

/** The agent's turns of each policy, fresh per trial (the queue is used up). */
export const POLICIES = {
  /** Reaches both milestones: score 1. */
  passing: (): AgentTurn[] => [CELLULAR_ON, SEND, { kind: "text", text: "Sent." }],
  /** Turns cellular on, then says it is done without sending: the `sent` milestone is missed, score 0.5. */
  halfway: (): AgentTurn[] => [CELLULAR_ON, { kind: "text", text: "Done." }],
} as const;

export function trialsScenario(file = TRIALS_SCENARIO): Scenario {
  const loaded = loadScenarioFile(file);
  assert.ok(loaded.scenario, `${file} does not load`);
  return loaded.scenario;
}

/** Plays one trial into `file` and returns its recorded score. */
export async function playTrial(
  file: string,
  options: { readonly agent: string; readonly seed: number; readonly policy: keyof typeof POLICIES; readonly scenario?: Scenario },
): Promise<number> {
  mkdirSync(dirname(file), { recursive: true });
  const roles = queuedRoles(POLICIES[options.policy]());
  const played = await playEpisode({
    scenario: options.scenario ?? trialsScenario(),
    agent: { ...roles.agent, id: options.agent },
    user: roles.user,
    seed: options.seed,
    file,
    signal: new AbortController().signal,
  });
  assert.equal(played.engineError, null);
  assert.ok(played.evaluation, `${file} was not scored`);
  return played.evaluation.score;
}
