// Plays one episode into a trajectory file, the one episode loop of `toolsandbox run` and of the
// extension's live runs: the header, then every event as it happens (each line flushed as it is
// written), then the evaluation of the finished episode, with a judge the judgement, and with a reviewer
// the review of a failed or errored run as the last line. A failed write must not throw into the engine: it stops the episode and is reported in
// the outcome, for the caller to decide what it ends (`run`: this job or the whole run; the
// extension: the run is refused).
import { feedbackRunOptions } from "../episode/call-feedback.js";
import { Episode, type EpisodeEnd } from "../episode/episode.js";
import type { AgentRole, UserRole } from "../episode/role.js";
import type { Message, RoleName, RunConfig, TrajectoryHeader } from "../episode/types.js";
import type { JsonValue } from "../base/json.js";
import { evaluate, type EvaluationResult } from "../evaluation/evaluate.js";
import { judgeEpisode, type RolePlayJudge } from "../benchmarks/dialogtool/role-play/role-play-judge.js";
import { reviewEpisode, type FailureReviewer } from "./failure-review.js";
import type { Scenario } from "../scenario/model.js";
import type { JudgementEvent, ReviewEvent, TrajectoryEvent } from "../trajectory/events.js";
import type { ModelCallEvent } from "../trajectory/trajectory.js";
import { scenarioDigest } from "../trajectory/scenario-digest.js";
import { serializeLine, TrajectoryWriter } from "../trajectory/writer.js";

interface EpisodeFileOptions {
  readonly scenario: Scenario;
  readonly agent: AgentRole;
  readonly user: UserRole;
  readonly seed: number;
  /** The trajectory file to create (or replace). */
  readonly file: string;
  /** Aborting ends the episode with the reason "cancelled"; it is still scored and its file closed. */
  readonly signal: AbortSignal;
  /** Rates the agent's role play after the evaluation (a scenario with a persona). */
  readonly judge?: RolePlayJudge;
  /** Says who is to blame when the run failed or errored, after the evaluation and judgement (`run --review`). */
  readonly reviewer?: FailureReviewer;
  /**
   * Runs before the episode, inside its error handling (an outside agent's server and process made
   * reachable); the function it returns runs once the episode has ended, before it is scored.
   */
  readonly around?: (signal: AbortSignal) => Promise<(() => Promise<void>) | undefined>;
  /** Awaited before every turn, told who speaks next and at which message: a live run pauses and steps here. */
  readonly beforeTurn?: (speaker: RoleName, nextIndex: number) => Promise<void> | void;
  /**
   * Each line once it is in the file, header first, as read back from the text written: a live
   * panel shows exactly what a reader of the file will see.
   */
  readonly onLine?: (line: TrajectoryHeader | TrajectoryEvent) => void;
  /**
   * The milestones scored so far, before each turn once the conversation has started, for a live
   * panel. Never written to the file (the finished episode is scored once).
   */
  readonly onProgress?: (evaluation: EvaluationResult) => void;
}

interface PlayedEpisode {
  readonly header: TrajectoryHeader;
  /** The episode's messages (none when the file could not be created and nothing was played). */
  readonly messages: readonly Message[];
  /** How the episode ended; null when the engine failed or nothing was played. */
  readonly end: EpisodeEnd | null;
  /** Null when the engine failed before the episode could be scored. */
  readonly evaluation: EvaluationResult | null;
  /** What the engine threw (in the episode, the evaluation or the judge), if it did. */
  readonly engineError: { readonly error: unknown } | null;
  /**
   * Why the file could not be written, if it could not: when it was being created (nothing was
   * played) or later (the episode was stopped and the file holds the lines before).
   */
  readonly writeError: { readonly error: unknown; readonly atStart: boolean } | null;
  /** The episode's model calls, in order (none for scripted roles). */
  readonly modelCalls: readonly ModelCallEvent[];
  /** The role-play judge's verdict, when a judge rated the episode. */
  readonly judgement: JudgementEvent | null;
  /** The failure reviewer's verdict, when a reviewer read the failed or errored episode. */
  readonly review: ReviewEvent | null;
}

/** The header's run configuration: the roles' ids and, for model-backed ones, their settings. */
export function runConfigFor(agent: AgentRole, user: UserRole, seed: number, options: Readonly<Record<string, JsonValue>> = {}): RunConfig {
  return {
    agent: agent.id,
    user: user.id,
    seed,
    options,
    ...(agent.settings ? { agent_settings: agent.settings } : {}),
    ...(user.settings ? { user_settings: user.settings } : {}),
  };
}

/** The first line of the trajectory of `scenario` played by these roles with this seed. */
export function episodeHeader(scenario: Scenario, agent: AgentRole, user: UserRole, seed: number): TrajectoryHeader {
  return {
    type: "header",
    format: "toolsandbox-trajectory",
    version: 1,
    scenario_digest: scenarioDigest(scenario),
    scenario,
    run: runConfigFor(agent, user, seed, feedbackRunOptions(scenario)),
  };
}

/** Plays the scenario to its end into `options.file`; never throws for the engine or the file (see the outcome). */
export async function playEpisode(options: EpisodeFileOptions): Promise<PlayedEpisode> {
  const { scenario, agent, user, seed, file, onLine } = options;
  const header = episodeHeader(scenario, agent, user, seed);
  const echo = onLine ? (line: TrajectoryHeader | TrajectoryEvent): void => onLine(JSON.parse(serializeLine(line))) : null;
  const modelCalls: ModelCallEvent[] = [];

  let writer: TrajectoryWriter;
  try {
    writer = TrajectoryWriter.create(file, header);
  } catch (error) {
    return {
      header,
      messages: [],
      end: null,
      evaluation: null,
      engineError: null,
      writeError: { error, atStart: true },
      modelCalls,
      judgement: null,
      review: null,
    };
  }
  echo?.(header);

  // The episode must not see a throwing listener: a failed write stops the episode instead.
  const stop = new AbortController();
  let writeError: { readonly error: unknown; readonly atStart: false } | null = null;
  const onEvent = (event: TrajectoryEvent): void => {
    if (event.type === "model_call") modelCalls.push(event);
    if (writeError !== null) return;
    try {
      writer.write(event);
    } catch (error) {
      writeError = { error, atStart: false };
      stop.abort();
      return;
    }
    echo?.(event);
  };

  // The score so far, once per new message after the first user message; then the caller's hook.
  let scoredAt = -1;
  const { onProgress } = options;
  const progress = (): void => {
    const count = episode.messages.length;
    if (!onProgress || count <= episode.firstUserIndex || count === scoredAt) return;
    scoredAt = count;
    try {
      onProgress(evaluate(scenario, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, { endReason: null }));
    } catch {
      // A run whose milestones cannot be matched yet shows no progress; the final score says why.
    }
  };
  const beforeTurn = async (speaker: RoleName, nextIndex: number): Promise<void> => {
    progress();
    await options.beforeTurn?.(speaker, nextIndex);
  };

  const signal = AbortSignal.any([options.signal, stop.signal]);
  const episode: Episode = new Episode({
    scenario,
    agent,
    user,
    seed,
    onEvent,
    signal,
    // Without hooks the episode runs its turns back to back, as it always has for `run`.
    ...(options.beforeTurn || onProgress ? { beforeTurn } : {}),
  });
  let evaluation: EvaluationResult | null = null;
  let engineError: { readonly error: unknown } | null = null;
  let judgement: JudgementEvent | null = null;
  let review: ReviewEvent | null = null;
  let release: (() => Promise<void>) | undefined;
  try {
    release = await options.around?.(signal);
    await episode.run();
    const done = release;
    release = undefined;
    await done?.();
    evaluation = evaluate(scenario, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, {
      endReason: episode.ended?.reason ?? null,
    });
    onEvent({ type: "evaluation", result: evaluation });
    // The verdict follows the evaluation; only the review (`run --review`) may come after it.
    judgement = (await judgeEpisode(options.judge, scenario, episode.messages, signal)) ?? null;
    if (judgement) onEvent(judgement);
    const ended = episode.ended;
    review = await reviewEpisode(
      options.reviewer,
      { scenario, messages: episode.messages, endReason: ended?.reason ?? null, endDetail: ended?.detail ?? null, evaluation },
      signal,
    );
    if (review) onEvent(review);
  } catch (error) {
    engineError = { error };
  } finally {
    await release?.().catch(() => undefined);
    writer.close();
  }
  return {
    header,
    messages: episode.messages,
    end: engineError === null ? episode.ended : null,
    evaluation,
    engineError,
    writeError,
    modelCalls,
    judgement,
    review,
  };
}
