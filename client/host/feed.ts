// One trajectory as the panel views receive it: the lines so far (all of a saved file, or those a
// live run has written), the live state, and whoever is showing it. A view that opens (or reloads)
// late gets everything in one batch, then each new line as it comes, so every view of a run shows
// the same lines as the file. A later evaluation (a re-score) replaces the one before.
import type { Message, TrajectoryHeader } from "../../engine/episode/types.js";
import type { EvaluationResult } from "../../engine/evaluation/result.js";
import { dialogToolMessage } from "../../engine/panel/dialogtool-message.js";
import type { HostMessage, LiveState, RunControl } from "../../engine/panel/protocol.js";
import type { PlayFormMessage, PlayRequest } from "../../engine/panel/play-protocol.js";
import type { Rescored } from "../../engine/panel/score-source.js";
import { Trajectory } from "../../engine/trajectory/trajectory.js";
import type { RunDamage } from "../../engine/trajectory/run-damage.js";
import type { StreamedLine } from "./live-run.js";
import { pathsIn } from "../../engine/panel/paths-in-text.js";

export type FeedMessage = HostMessage;

type FeedListener = (message: FeedMessage) => void;

export class TrajectoryFeed {
  private readonly lines: StreamedLine[] = [];
  private liveState: LiveState | null = null;
  /** Where a saved file is damaged (cut short, no end), for the panel's banner; null when whole. */
  private damage: string | null = null;
  private readonly listeners = new Set<FeedListener>();
  /** DialogTool's scores of the run, once it is complete (a saved file, or a live run that finished). */
  private dialogTool: FeedMessage | null = null;
  /** Set while the evaluation is a re-score against another version of the scenario than the run played. */
  private rescored: Rescored | null = null;
  /** Set while a live run can be paused and stepped. */
  private controller: ((action: RunControl) => void) | null = null;
  /** A run a person plays in the panel: its form as last published, and where the form's requests go (play-seat.ts). */
  private playForm: PlayFormMessage | null = null;
  private player: ((request: PlayRequest) => void) | null = null;

  /** `path` is the trajectory file, `title` what the panel's tab says. */
  constructor(
    readonly path: string,
    readonly title: string,
  ) {}

  /** A saved trajectory: its lines as the file holds them, with `evaluation` in place of the recorded one. */
  static fromTrajectory(path: string, title: string, trajectory: Trajectory, evaluation: EvaluationResult | null): TrajectoryFeed {
    const feed = new TrajectoryFeed(path, title);
    feed.lines.push(...savedLines(trajectory, evaluation));
    feed.damage = damageOf(trajectory);
    feed.dialogTool = scoredTurns(trajectory.header, trajectory.messages);
    return feed;
  }

  /** The file changed on disk: every view starts over with its new lines (a header clears a panel). */
  reload(trajectory: Trajectory, evaluation: EvaluationResult | null): void {
    this.lines.splice(0, this.lines.length, ...savedLines(trajectory, evaluation));
    this.liveState = null;
    this.controller = null;
    this.rescored = null;
    this.damage = damageOf(trajectory);
    this.dialogTool = scoredTurns(trajectory.header, trajectory.messages);
    this.broadcast({ type: "lines", lines: [...this.lines] });
    if (this.damage !== null) this.broadcast({ type: "damaged", problem: this.damage });
    if (this.dialogTool !== null) this.broadcast(this.dialogTool);
  }

  get live(): LiveState | null {
    return this.liveState;
  }

  get lineCount(): number {
    return this.lines.length;
  }

  append(line: StreamedLine): void {
    // A live run's final evaluation replaces its progress reports: one evaluation line at most.
    if (line.type === "evaluation") {
      const at = this.lines.findIndex((l) => l.type === "evaluation");
      if (at !== -1) this.lines.splice(at, 1);
    }
    this.lines.push(line);
    this.broadcast(line);
  }

  /** A new score (a live run's progress, or a re-score: `rescored` when against another version of the scenario). */
  setEvaluation(result: EvaluationResult, rescored: Rescored | null = null): void {
    const line: StreamedLine = { type: "evaluation", result };
    const at = this.lines.findIndex((l) => l.type === "evaluation");
    if (at === -1) this.lines.push(line);
    else this.lines[at] = line;
    this.broadcast(line);
    if (rescored !== null || this.rescored !== null) {
      this.rescored = rescored;
      this.broadcast({ type: "score-source", rescored });
    }
  }

  setLive(state: LiveState): void {
    this.liveState = state;
    if (state === "finished") this.controller = null;
    this.broadcast({ type: "live", state });
    if (state === "finished") {
      const header = this.lines[0];
      const messages = this.lines.flatMap((l) => (l.type === "message" ? [l.message] : []));
      this.dialogTool = header?.type === "header" ? scoredTurns(header, messages) : null;
      if (this.dialogTool !== null) this.broadcast(this.dialogTool);
    }
  }

  setController(controller: ((action: RunControl) => void) | null): void {
    this.controller = controller;
  }

  /** A played run's form changed: every view redraws it, and a view that opens later gets it. */
  setPlayForm(form: PlayFormMessage): void {
    this.playForm = form;
    this.broadcast(form);
  }

  setPlayer(player: ((request: PlayRequest) => void) | null): void {
    this.player = player;
  }

  /** A request of a view's play form; ignored unless a person is playing this run. */
  play(request: PlayRequest): boolean {
    if (this.player === null) return false;
    this.player(request);
    return true;
  }

  /** Whether the run's end names `path` (an errored run's reason: the command agent's stderr log). */
  namesFile(path: string): boolean {
    const end = this.lines.find((l) => l.type === "end");
    return end?.type === "end" && typeof end.detail === "string" && pathsIn(end.detail).includes(path);
  }

  /** A run-control request from a view; ignored unless a live run is going. */
  control(action: RunControl): boolean {
    if (this.controller === null) return false;
    this.controller(action);
    return true;
  }

  /** What a view that just became ready needs: every line so far, then the live state. */
  snapshot(): FeedMessage[] {
    const messages: FeedMessage[] = [{ type: "lines", lines: [...this.lines] }];
    if (this.liveState !== null) messages.push({ type: "live", state: this.liveState });
    if (this.damage !== null) messages.push({ type: "damaged", problem: this.damage });
    if (this.dialogTool !== null) messages.push(this.dialogTool);
    if (this.rescored !== null) messages.push({ type: "score-source", rescored: this.rescored });
    if (this.playForm !== null) messages.push(this.playForm);
    return messages;
  }

  subscribe(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private broadcast(message: FeedMessage): void {
    for (const listener of this.listeners) listener(message);
  }
}

/** DialogTool's message for the run; none when it cannot be scored (no reference, or a scoring failure, which must not cost the panel its run). */
function scoredTurns(header: TrajectoryHeader, messages: readonly Message[]): FeedMessage | null {
  try {
    return dialogToolMessage(header, messages);
  } catch {
    return null;
  }
}

/**
 * What the panel shows of a checked file (engine/trajectory/run-damage.ts): a file broken in the
 * middle is shown up to the break, with the break as its one warning, so the banner says where it
 * broke; a whole or cut-short file as it read.
 */
export function panelTrajectory(trajectory: Trajectory, damage: RunDamage | null): Trajectory {
  if (damage === null || damage.line === null || trajectory.warnings.some((w) => w.line === damage.line)) return trajectory;
  return new Trajectory(
    trajectory.header,
    trajectory.events,
    trajectory.messages,
    trajectory.end,
    trajectory.world,
    [{ line: damage.line, message: `${damage.reason}; only the ${damage.line - 1} lines before it are shown` }],
    trajectory.evaluation,
    trajectory.judgement,
  );
}

/** "Cut short at line 27: …" for a file the reader had to warn about; null for a whole file. */
function damageOf(trajectory: Trajectory): string | null {
  const [warning] = trajectory.warnings;
  if (!warning) return null;
  const where = warning.line === null ? "This file" : `This file is cut at line ${warning.line}:`;
  const score = "the score covers only the messages before the cut, so it is not the agent's result";
  return `${where} ${warning.message}; ${score}.`;
}

function savedLines(trajectory: Trajectory, evaluation: EvaluationResult | null): StreamedLine[] {
  const result = evaluation ?? trajectory.evaluation;
  return [
    trajectory.header,
    ...trajectory.events,
    ...(result === null ? [] : [{ type: "evaluation" as const, result }]),
    ...(trajectory.judgement === null ? [] : [trajectory.judgement]),
  ];
}
