// A live run for the editor: the runner's episode loop (engine/runner/play-episode.ts) into a run
// file, every line handed to the panel as the file holds it, the milestones scored so far before
// each turn, pause and step through `beforeTurn`. Here only what the host makes of the outcome: a
// file that cannot be written refuses the run, an engine failure is one line. No VS Code here, so
// the whole run is tested under node.
import type { EpisodeEnd } from "../../engine/episode/episode.js";
import type { EvaluationResult } from "../../engine/evaluation/evaluate.js";
import type { TrajectoryLine } from "../../engine/panel/protocol.js";
import type { RolePlayJudge } from "../../engine/benchmarks/dialogtool/role-play/role-play-judge.js";
import type { AgentRole, UserRole } from "../../engine/episode/role.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { errorMessage } from "../../engine/base/text.js";
import { playEpisode } from "../../engine/runner/play-episode.js";

/** A line of the file: the header, an episode event, the evaluation or the judgement. */
export type StreamedLine = TrajectoryLine;

interface LiveRunOptions {
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
  /** The milestones scored so far, before each turn; never written to the file. */
  readonly onProgress?: (evaluation: EvaluationResult) => void;
  /** Rates the agent's role play after the evaluation (a scenario with a persona, toolsandbox.judge.model set). */
  readonly judge?: RolePlayJudge;
  /** An outside agent's command and MCP server, started before the episode and taken down after it (command-agent-run.ts). */
  readonly around?: (signal: AbortSignal) => Promise<(() => Promise<void>) | undefined>;
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

/** Plays the scenario to its end. Throws TrajectoryWriteError when the file cannot be written. */
export async function playToFile(options: LiveRunOptions): Promise<LiveRunOutcome> {
  const played = await playEpisode(options);
  if (played.writeError !== null) throw new TrajectoryWriteError(`cannot write ${options.file}: ${errorMessage(played.writeError.error)}`);
  return {
    file: options.file,
    evaluation: played.evaluation,
    end: played.end,
    engineError: played.engineError === null ? null : errorMessage(played.engineError.error),
    messageCount: played.messages.length,
  };
}
