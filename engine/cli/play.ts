// Plays one scenario with the chosen roles and writes its trajectory as the events arrive, then
// scores the finished episode and appends the evaluation to the trajectory.
import { join } from "node:path";
import { Episode } from "../episode/episode.js";
import { evaluate, type EvaluationResult } from "../evaluation/evaluate.js";
import type { TrajectoryHeader } from "../episode/types.js";
import type { Scenario } from "../scenario/model.js";
import type { TrajectoryEvent } from "../trajectory/events.js";
import { effectiveTurnCount } from "../trajectory/stats.js";
import { TRAJECTORY_SUFFIX, TrajectoryWriter } from "../trajectory/writer.js";
import { fsError } from "./errors.js";
import { errorMessage } from "./format.js";
import { createRoles } from "./roles.js";
import { isFailedEnd, scoreFields, type ScenarioResult } from "./summary.js";

export interface PlayOptions {
  readonly agent: string;
  readonly user: string;
  readonly seed: number;
  readonly outDir: string;
  readonly signal: AbortSignal;
}

export interface PlayOutcome {
  readonly result: ScenarioResult;
  /** What the engine threw, if it did (the result then has no end reason); null otherwise. */
  readonly engineError: unknown;
}

/** The trajectory's file name: the scenario name, with anything unsafe in a file name replaced. */
export const trajectoryFileName = (scenarioName: string): string =>
  `${scenarioName.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\./, "_")}${TRAJECTORY_SUFFIX}`;

/**
 * Runs the episode to its end and scores it. An engine failure (in the episode or the evaluation)
 * becomes a failed, unscored result (the trajectory then has no end or no evaluation event); a
 * trajectory that cannot be written stops everything (CliError, exit 3).
 */
export async function playScenario(scenario: Scenario, options: PlayOptions): Promise<PlayOutcome> {
  const fileName = trajectoryFileName(scenario.name);
  const path = join(options.outDir, fileName);
  const { agent, user } = createRoles(options.agent, options.user, scenario);
  const header: TrajectoryHeader = {
    type: "header",
    format: "toolsandbox-trajectory",
    version: 1,
    scenario,
    run: { agent: agent.id, user: user.id, seed: options.seed, options: {} },
  };
  let writer: TrajectoryWriter;
  try {
    writer = TrajectoryWriter.create(path, header);
  } catch (e) {
    throw fsError(e, path);
  }

  // The episode must not see a throwing listener: a failed write stops the episode instead.
  const stop = new AbortController();
  const failed: { write?: { readonly error: unknown } } = {};
  const onEvent = (event: TrajectoryEvent): void => {
    if (failed.write) return;
    try {
      writer.write(event);
    } catch (error) {
      failed.write = { error };
      stop.abort();
    }
  };

  const signal = AbortSignal.any([options.signal, stop.signal]);
  const episode = new Episode({ scenario, agent, user, seed: options.seed, onEvent, signal });
  let engineError: { readonly error: unknown } | null = null;
  let evaluation: EvaluationResult | null = null;
  try {
    await episode.run();
    evaluation = evaluate(scenario, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, {
      endReason: episode.ended?.reason ?? null,
    });
    onEvent({ type: "evaluation", result: evaluation });
  } catch (error) {
    engineError = { error };
  } finally {
    writer.close();
  }
  if (failed.write) throw fsError(failed.write.error, path);

  const end = engineError === null ? episode.ended : null;
  const result: ScenarioResult = {
    name: scenario.name,
    categories: scenario.categories,
    end_reason: end?.reason ?? null,
    detail: engineError === null ? (end?.detail ?? null) : errorMessage(engineError.error),
    message_count: episode.messages.length,
    turn_count: evaluation?.turn_count ?? effectiveTurnCount(episode.messages),
    ...scoreFields(evaluation),
    trajectory: fileName,
    failed: isFailedEnd(end?.reason ?? null),
  };
  return { result, engineError: engineError?.error ?? null };
}
