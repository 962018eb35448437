// Plays one scenario into a trajectory file and hands every line to a listener as it is written:
// the panel of a live run shows exactly the lines of the file, in the same order. Then scores the
// finished episode and appends the evaluation, as `toolsandbox run` does. No VS Code here, so the
// whole run is tested under node.
import { feedbackRunOptions } from "../../engine/episode/call-feedback.js";
import { Episode, type EpisodeEnd } from "../../engine/episode/episode.js";
import type { RunConfig, TrajectoryHeader } from "../../engine/episode/types.js";
import { evaluate, type EvaluationResult } from "../../engine/evaluation/evaluate.js";
import type { TrajectoryLine } from "../../engine/panel/protocol.js";
import { judgeEpisode, type RolePlayJudge } from "../../engine/benchmarks/dialogtool/role-play/judge.js";
import type { AgentRole, UserRole } from "../../engine/episode/role.js";
import type { Scenario } from "../../engine/scenario/model.js";
import type { TrajectoryEvent } from "../../engine/trajectory/events.js";
import { serializeLine, TrajectoryWriter } from "../../engine/trajectory/writer.js";

/** A line of the file: the header, an episode event, the evaluation or the judgement. */
export type StreamedLine = TrajectoryLine;

export interface LiveRunOptions {
  readonly scenario: Scenario;
  readonly agent: AgentRole;
  readonly user: UserRole;
  readonly seed: number;
  /** The trajectory file to write (run-files.ts claims it). */
  readonly file: string;
  /** Aborting ends the episode with reason "cancelled"; it is still scored and the file closed. */
  readonly signal: AbortSignal;
  /** Awaited before every turn (the pause gate). */
  readonly beforeTurn?: () => Promise<void>;
  /** Each line as the file holds it (written, then read back from its text), header first. */
  readonly onLine: (line: StreamedLine) => void;
  /**
   * The milestones scored so far, before each turn once the conversation has started: a live
   * panel shows progress as it happens. Never written to the file (the finished run is scored once).
   */
  readonly onProgress?: (evaluation: EvaluationResult) => void;
  /** Rates the agent's role play after the evaluation (a scenario with a persona, toolsandbox.judge.model set). */
  readonly judge?: RolePlayJudge;
}

export interface LiveRunOutcome {
  readonly file: string;
  /** Null when the engine failed before the episode could be scored. */
  readonly evaluation: EvaluationResult | null;
  readonly end: EpisodeEnd | null;
  /** What the engine threw, as one line; null when it did not. */
  readonly engineError: string | null;
  readonly messageCount: number;
}

export class TrajectoryWriteError extends Error {
  override readonly name = "TrajectoryWriteError";
}

export function runConfig(agent: AgentRole, user: UserRole, seed: number, scenario: Scenario): RunConfig {
  return {
    agent: agent.id,
    user: user.id,
    seed,
    options: feedbackRunOptions(scenario),
    ...(agent.settings ? { agent_settings: agent.settings } : {}),
    ...(user.settings ? { user_settings: user.settings } : {}),
  };
}

/** Plays the scenario to its end. Throws TrajectoryWriteError when the file cannot be written. */
export async function playToFile(options: LiveRunOptions): Promise<LiveRunOutcome> {
  const { scenario, agent, user, seed, file } = options;
  const header: TrajectoryHeader = {
    type: "header",
    format: "toolsandbox-trajectory",
    version: 1,
    scenario,
    run: runConfig(agent, user, seed, scenario),
  };
  const echo = (line: TrajectoryHeader | TrajectoryEvent): void => options.onLine(JSON.parse(serializeLine(line)) as StreamedLine);

  let writer: TrajectoryWriter;
  try {
    writer = TrajectoryWriter.create(file, header);
  } catch (e) {
    throw new TrajectoryWriteError(`cannot write ${file}: ${describe(e)}`);
  }
  echo(header);

  // A failed write stops the episode (the listener must not throw into the engine).
  const stop = new AbortController();
  let writeError: string | null = null;
  const onEvent = (event: TrajectoryEvent): void => {
    if (writeError !== null) return;
    try {
      writer.write(event);
    } catch (e) {
      writeError = describe(e);
      stop.abort();
      return;
    }
    echo(event);
  };

  let scoredAt = -1;
  const progress = (): void => {
    const { onProgress } = options;
    const count = episode.messages.length;
    if (!onProgress || count <= episode.firstUserIndex || count === scoredAt) return;
    scoredAt = count;
    try {
      onProgress(evaluate(scenario, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, { endReason: null }));
    } catch {
      // A run whose milestones cannot be matched yet shows no progress; the final score says why.
    }
  };
  const beforeTurn = async (): Promise<void> => {
    progress();
    await options.beforeTurn?.();
  };
  const episode: Episode = new Episode({
    scenario,
    agent,
    user,
    seed,
    onEvent,
    signal: AbortSignal.any([options.signal, stop.signal]),
    beforeTurn,
  });
  let evaluation: EvaluationResult | null = null;
  let engineError: string | null = null;
  try {
    await episode.run();
    evaluation = evaluate(scenario, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, {
      endReason: episode.ended?.reason ?? null,
    });
    onEvent({ type: "evaluation", result: evaluation });
    // As `toolsandbox run`: the verdict is the file's last line.
    const judgement = await judgeEpisode(options.judge, scenario, episode.messages, AbortSignal.any([options.signal, stop.signal]));
    if (judgement) onEvent(judgement);
  } catch (e) {
    engineError = describe(e);
  } finally {
    writer.close();
  }
  if (writeError !== null) throw new TrajectoryWriteError(`cannot write ${file}: ${writeError}`);
  return { file, evaluation, end: engineError === null ? episode.ended : null, engineError, messageCount: episode.messages.length };
}

const describe = (e: unknown): string => (e instanceof Error ? e.message || e.name : String(e));
