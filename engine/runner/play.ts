// Plays one job of a run (a scenario, in one trial) with fresh roles into its trajectory
// (play-episode.ts: the episode, its evaluation and judgement) and makes the job's result. The
// result a summary lists is built the same way from a live episode and from a saved trajectory
// (resumed runs), so both give the same summary.
import { join } from "node:path";
import type { EvaluationResult } from "../evaluation/evaluate.js";
import type { Message, RoleName, TrajectoryHeader } from "../episode/types.js";
import type { AgentRole } from "../episode/role.js";
import type { TrajectoryEvent } from "../trajectory/events.js";
import { McpAgentRole } from "../roles/mcp/agent.js";
import { failureCause } from "../evaluation/failure-causes.js";
import { scenarioApps } from "../scenario/apps.js";
import { packById } from "../packs/registry.js";
import type { RolePlayJudge } from "../benchmarks/dialogtool/role-play/role-play-judge.js";
import type { FailureReviewer } from "./failure-review.js";
import { reviewSummary, type ReviewSummary } from "./review-summary.js";
import { effectiveTurnCount } from "../evaluation/turn-count.js";
import { NO_TELEMETRY, telemetryTotals, type TelemetryTotals } from "../trajectory/telemetry-totals.js";
import type { EndEvent } from "../trajectory/trajectory.js";
import { UnwritableValueError } from "../trajectory/writer.js";
import type { BatchJob } from "./jobs.js";
import { fsError } from "./errors.js";
import { errorMessage } from "../base/text.js";
import { episodeHeader, playEpisode } from "./play-episode.js";
import { createRoles, createRolesWithHuman, type HumanSide, type RoleSpec } from "./role-specs.js";
import { episodePeers, isFailedEnd, scoreFields, summarizePeers, type PeerSummary, type ScenarioResult } from "./summary.js";

export interface PlayOptions {
  /** A role id ("scripted", "openai:gpt-4o"), or the role resolved from the command line's model options. */
  readonly agent: string | RoleSpec;
  readonly user: string | RoleSpec;
  readonly outDir: string;
  /** Rates the agent's role play after the episode when the scenario gives a persona (`--judge`). */
  readonly judge?: RolePlayJudge;
  /** Says who is to blame for each failed or errored episode, beside the rules' cause (`--review`). */
  readonly reviewer?: FailureReviewer;
  /** Aborting ends the episode with the reason "cancelled"; it is still scored and its trajectory closed. */
  readonly signal: AbortSignal;
  /** Awaited before each turn (Episode's beforeTurn): the debugger holds the episode here between steps. */
  readonly beforeTurn?: (speaker: RoleName, nextIndex: number) => Promise<void> | void;
  /** Told each event once it is in the trajectory file (the debugger's view of the run). It must not throw. */
  readonly onEvent?: (event: TrajectoryEvent) => void;
  /** Told the header once it is the file's first line (the extension's panel follows a debug session). */
  readonly onHeader?: (header: TrajectoryHeader) => void;
  /** The milestones scored so far, before each turn (play-episode.ts); never written to the file. */
  readonly onProgress?: (evaluation: EvaluationResult) => void;
  /** A person plays this side (`toolsandbox play`); the other side is the `agent` or `user` above, and the spec of this side is not used. */
  readonly human?: HumanSide;
}

export interface PlayOutcome {
  readonly result: ScenarioResult;
  /** What the engine threw, if it did (the result then has no end reason); null otherwise. */
  readonly engineError: unknown;
}

/** The header the job's trajectory starts with: a saved file with another header was made by another run. */
export function jobHeader(job: BatchJob, options: PlayOptions): TrajectoryHeader {
  const { agent, user } = createRoles(options.agent, options.user, job.scenario, process.env, { trial: job.trial, seed: job.seed });
  return episodeHeader(job.scenario, agent, user, job.seed);
}

/**
 * An outside agent (serve, cmd:) made reachable before its episode and taken down after it: the
 * `around` of playEpisode for such an agent, null for any other.
 */
export function outsideAgent(
  spec: RoleSpec | null,
  agent: AgentRole,
  job: BatchJob,
  outDir: string,
): ((signal: AbortSignal) => Promise<() => Promise<void>>) | null {
  if (!(agent instanceof McpAgentRole) || spec?.kind !== "mcp") return null;
  return async (signal) => {
    const hosted = await spec.host.attach(agent, job, { outDir, signal });
    return () => hosted.close();
  };
}

/**
 * Runs the episode to its end with fresh roles and scores it. An engine failure (in the episode or
 * the evaluation) becomes a failed, unscored result (the trajectory then has no end or no
 * evaluation event). So does a problem of this job alone: a value no trajectory can hold (a number
 * too large for a float), or a symbolic link where its trajectory goes. A trajectory that cannot be
 * written for any other reason (a full disk) stops everything (ExitError, exit 3).
 */
export async function playJob(job: BatchJob, options: PlayOptions): Promise<PlayOutcome> {
  const path = join(options.outDir, job.trajectory);
  const { onEvent, onHeader, human } = options;
  const scope = { trial: job.trial, seed: job.seed };
  const { agent, user } = human
    ? createRolesWithHuman(human, human.as === "agent" ? options.user : options.agent, job.scenario, process.env, scope)
    : createRoles(options.agent, options.user, job.scenario, process.env, scope);
  const outside = outsideAgent(typeof options.agent === "string" ? null : options.agent, agent, job, options.outDir);
  const played = await playEpisode({
    scenario: job.scenario,
    agent,
    user,
    seed: job.seed,
    file: path,
    signal: options.signal,
    ...(options.judge ? { judge: options.judge.withScope({ trial: job.trial, seed: job.seed }) } : {}),
    ...(options.reviewer ? { reviewer: options.reviewer.withScope({ trial: job.trial, seed: job.seed }) } : {}),
    ...(options.beforeTurn ? { beforeTurn: options.beforeTurn } : {}),
    ...(outside ? { around: outside } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(onEvent || onHeader
      ? {
          onLine: (line: TrajectoryHeader | TrajectoryEvent) => {
            if (line.type === "header") onHeader?.(line);
            else onEvent?.(line);
          },
        }
      : {}),
  });
  const { writeError } = played;
  if (writeError?.atStart) {
    const alone = jobOnlyProblem(writeError.error, path);
    if (alone === null) throw fsError(writeError.error, path);
    return { result: unplayedResult(job, alone), engineError: null };
  }

  let engineError = played.engineError;
  let peers: PeerSummary | null = null;
  if (engineError === null) {
    try {
      peers = summarizePeers(episodePeers(job.scenario, played.messages));
    } catch (error) {
      engineError = { error };
    }
  }
  if (writeError) {
    if (!(writeError.error instanceof UnwritableValueError)) throw fsError(writeError.error, path);
    engineError ??= writeError;
  }

  const end = engineError === null ? played.end : null;
  const result = jobResult(job, {
    end: end ? { reason: end.reason, detail: end.detail ?? null } : null,
    evaluation: played.evaluation,
    peers,
    messageCount: played.messages.length,
    turnCount: played.evaluation?.turn_count ?? effectiveTurnCount(played.messages),
    engineError: engineError === null ? null : errorMessage(engineError.error),
    telemetry: telemetryTotals(played.modelCalls),
    ...(played.judgement ? { rolePlay: played.judgement.overall } : {}),
    ...(played.review ? { review: reviewSummary(played.review) } : {}),
    messages: played.messages,
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

interface JobFacts {
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
  /** The role-play judge's overall score, when the episode was judged. */
  readonly rolePlay?: number | null;
  /** The failure reviewer's verdict, when the episode was reviewed. */
  readonly review?: ReviewSummary;
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
    ...(facts.telemetry.calls > 0 || (facts.telemetry.cached_calls ?? 0) > 0 ? { telemetry: facts.telemetry } : {}),
    ...(facts.rolePlay !== undefined ? { role_play: facts.rolePlay } : {}),
    ...(facts.review !== undefined ? { review: facts.review } : {}),
  };
}
