// Plays one job of a run (a scenario, in one trial) with the chosen roles and writes its
// trajectory as the events arrive, then scores the finished episode and appends the evaluation
// to the trajectory. The result a summary lists is built the same way from a live episode and
// from a saved trajectory (resumed runs), so both give the same summary.
import { join } from "node:path";
import { feedbackRunOptions } from "../episode/call-feedback.js";
import { Episode } from "../episode/episode.js";
import { evaluate, type EvaluationResult } from "../evaluation/evaluate.js";
import type { Message, TrajectoryHeader } from "../episode/types.js";
import { failureCause } from "../evaluation/failure-causes.js";
import { scenarioApps } from "../scenario/apps.js";
import { packById } from "../packs/registry.js";
import { judgeEpisode, type RolePlayJudge } from "../benchmarks/dialogtool/role-play/judge.js";
import type { AgentRole, UserRole } from "../episode/role.js";
import type { TrajectoryEvent } from "../trajectory/events.js";
import { effectiveTurnCount } from "../evaluation/turn-count.js";
import { NO_TELEMETRY, telemetryTotals, type TelemetryTotals } from "../trajectory/telemetry.js";
import type { EndEvent, ModelCallEvent } from "../trajectory/trajectory.js";
import { TrajectoryWriter, UnwritableValueError } from "../trajectory/writer.js";
import type { BatchJob } from "./jobs.js";
import { fsError } from "./errors.js";
import { errorMessage } from "../base/text.js";
import { createRoles, runConfigFor, type RoleSpec } from "../../cli/roles.js";
import { episodePeers, isFailedEnd, scoreFields, summarizePeers, type PeerSummary, type ScenarioResult } from "./summary.js";

export { trajectoryFileName } from "./jobs.js";

export interface PlayOptions {
  /** A role id ("scripted", "openai:gpt-4o"), or the role resolved from the command line's model options. */
  readonly agent: string | RoleSpec;
  readonly user: string | RoleSpec;
  readonly outDir: string;
  /** Rates the agent's role play after the episode when the scenario gives a persona (`--judge`). */
  readonly judge?: RolePlayJudge;
  /** Aborting ends the episode with the reason "cancelled"; it is still scored and its trajectory closed. */
  readonly signal: AbortSignal;
}

export interface PlayOutcome {
  readonly result: ScenarioResult;
  /** What the engine threw, if it did (the result then has no end reason); null otherwise. */
  readonly engineError: unknown;
}

interface JobRoles {
  readonly agent: AgentRole;
  readonly user: UserRole;
  readonly header: TrajectoryHeader;
}

/** Fresh roles for the job and the header its trajectory starts with. */
function jobRoles(job: BatchJob, options: PlayOptions): JobRoles {
  const { agent, user } = createRoles(options.agent, options.user, job.scenario);
  const header: TrajectoryHeader = {
    type: "header",
    format: "toolsandbox-trajectory",
    version: 1,
    scenario: job.scenario,
    run: runConfigFor(agent, user, job.seed, feedbackRunOptions(job.scenario)),
  };
  return { agent, user, header };
}

/** The header the job's trajectory starts with: a saved file with another header was made by another run. */
export const jobHeader = (job: BatchJob, options: PlayOptions): TrajectoryHeader => jobRoles(job, options).header;

/**
 * Runs the episode to its end and scores it. An engine failure (in the episode or the evaluation)
 * becomes a failed, unscored result (the trajectory then has no end or no evaluation event). So
 * does a problem of this job alone: a value no trajectory can hold (a number too large for a
 * float), or a symbolic link where its trajectory goes. A trajectory that cannot be written for
 * any other reason (a full disk) stops everything (CliError, exit 3).
 */
export async function playJob(job: BatchJob, options: PlayOptions): Promise<PlayOutcome> {
  const path = join(options.outDir, job.trajectory);
  const { agent, user, header } = jobRoles(job, options);
  let writer: TrajectoryWriter;
  try {
    writer = TrajectoryWriter.create(path, header);
  } catch (e) {
    const alone = jobOnlyProblem(e, path);
    if (alone === null) throw fsError(e, path);
    return { result: unplayedResult(job, alone), engineError: null };
  }

  // The episode must not see a throwing listener: a failed write stops the episode instead.
  const stop = new AbortController();
  const failed: { write?: { readonly error: unknown } } = {};
  const modelCalls: ModelCallEvent[] = [];
  const onEvent = (event: TrajectoryEvent): void => {
    if (event.type === "model_call") modelCalls.push(event);
    if (failed.write) return;
    try {
      writer.write(event);
    } catch (error) {
      failed.write = { error };
      stop.abort();
    }
  };

  const signal = AbortSignal.any([options.signal, stop.signal]);
  const episode = new Episode({ scenario: job.scenario, agent, user, seed: job.seed, onEvent, signal });
  let engineError: { readonly error: unknown } | null = null;
  let evaluation: EvaluationResult | null = null;
  let peers: PeerSummary | null = null;
  try {
    await episode.run();
    evaluation = evaluate(job.scenario, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, {
      endReason: episode.ended?.reason ?? null,
    });
    onEvent({ type: "evaluation", result: evaluation });
    const judgement = await judgeEpisode(options.judge, job.scenario, episode.messages, signal);
    if (judgement) onEvent(judgement);
    peers = summarizePeers(episodePeers(job.scenario, episode.messages));
  } catch (error) {
    engineError = { error };
  } finally {
    writer.close();
  }
  if (failed.write) {
    if (!(failed.write.error instanceof UnwritableValueError)) throw fsError(failed.write.error, path);
    engineError ??= failed.write;
  }

  const end = engineError === null ? episode.ended : null;
  const result = jobResult(job, {
    end: end ? { reason: end.reason, detail: end.detail ?? null } : null,
    evaluation,
    peers,
    messageCount: episode.messages.length,
    turnCount: evaluation?.turn_count ?? effectiveTurnCount(episode.messages),
    engineError: engineError === null ? null : errorMessage(engineError.error),
    telemetry: telemetryTotals(modelCalls),
    messages: episode.messages,
  });
  return { result, engineError: engineError?.error ?? null };
}

/** What fails this job alone when its trajectory cannot be started, or null when the problem is the run's. */
function jobOnlyProblem(error: unknown, path: string): string | null {
  if (error instanceof UnwritableValueError) {
    return `the scenario holds ${error.value} (property "${error.property}"), a number no trajectory can hold; validate shows where`;
  }
  const code = typeof error === "object" && error !== null && "code" in error ? (error as { code: unknown }).code : null;
  return code === "ELOOP" ? `${path} is a symbolic link; output is never written through one` : null;
}

/** The failed result of a job that never started (no trajectory was written). */
function unplayedResult(job: BatchJob, problem: string): ScenarioResult {
  return jobResult(job, {
    end: null,
    evaluation: null,
    peers: null,
    messageCount: 0,
    turnCount: 0,
    engineError: problem,
    telemetry: NO_TELEMETRY,
    messages: [],
  });
}

export interface JobFacts {
  readonly end: { readonly reason: EndEvent["reason"]; readonly detail: string | null } | null;
  readonly evaluation: EvaluationResult | null;
  /** The peer metrics in brief; null without a reference solution or when the engine failed. */
  readonly peers: PeerSummary | null;
  readonly messageCount: number;
  readonly turnCount: number;
  /** The engine's error message, when it failed. */
  readonly engineError: string | null;
  /** The episode's model calls, summed (all zero for scripted roles). */
  readonly telemetry: TelemetryTotals;
  /** The episode's messages, for the failure-cause rules (none for a job that never started). */
  readonly messages: readonly Message[];
}

/** The summary's record of one job, from what its episode (live or saved) ended with. */
export function jobResult(job: BatchJob, facts: JobFacts): ScenarioResult {
  return {
    name: job.scenario.name,
    ...(job.trial === null ? {} : { trial: job.trial }),
    categories: job.scenario.categories,
    apps: scenarioApps(job.scenario, packById(job.scenario.world.pack)),
    end_reason: facts.end?.reason ?? null,
    detail: facts.engineError ?? facts.end?.detail ?? null,
    message_count: facts.messageCount,
    turn_count: facts.turnCount,
    ...scoreFields(facts.evaluation),
    peers: facts.peers,
    trajectory: job.trajectory,
    failed: isFailedEnd(facts.end?.reason ?? null),
    // A cancelled episode did not run its course: nothing to blame.
    cause:
      facts.end?.reason === "cancelled"
        ? null
        : failureCause({
            scenario: job.scenario,
            messages: facts.messages,
            endReason: facts.end?.reason ?? null,
            endDetail: facts.engineError ?? facts.end?.detail ?? null,
            evaluation: facts.evaluation,
          }),
    // Only model-backed runs have any: a scripted run's summary stays as it was, byte for byte.
    ...(facts.telemetry.calls > 0 ? { telemetry: facts.telemetry } : {}),
  };
}
