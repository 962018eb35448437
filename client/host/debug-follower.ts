// The panel during a debug session that plays a scenario: the inline adapter hands over each line
// of the trajectory as it is written (engine/debug/timeline.ts's LiveObserver; nothing of this goes
// over DAP), so the panel shows the episode live, as for Run Scenario, and at every stop selects
// the message the session stands at, with its world diff and the milestones matched so far. The
// panel's Pause, Step, Continue and Stop act on the debug session.
import * as vscode from "vscode";
import type { LiveObserver } from "../../engine/debug/timeline.js";
import type { RunControl } from "../../engine/panel/protocol.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import type { TrajectoryFeed } from "./feed.js";
import type { PanelViews } from "./main-panel.js";
import type { RunStore } from "./run-store.js";
import { fileStamp, trajectoryTitle } from "./trajectories.js";

/** The DAP requests after which the episode runs until its next stop. */
export const MOVE_REQUESTS: ReadonlySet<string> = new Set(["continue", "next", "stepIn", "stepOut", "stepBack", "reverseContinue"]);

/** What each panel button does in a debug session (the workbench's own commands, so VS Code's toolbar agrees). */
const DEBUG_COMMANDS: Readonly<Record<Exclude<RunControl, "stop">, string>> = {
  pause: "workbench.action.debug.pause",
  continue: "workbench.action.debug.continue",
  step: "workbench.action.debug.stepOver",
};

interface Followed {
  readonly path: string;
  readonly feed: TrajectoryFeed;
  finished: boolean;
}

export class DebugFollower {
  private readonly sessions = new Map<string, Followed>();

  constructor(
    private readonly store: RunStore,
    private readonly views: PanelViews,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** The observer of one session's live episode (a replay never calls it). */
  observer(session: vscode.DebugSession): LiveObserver {
    const program: unknown = session.configuration.program;
    return {
      started: (path) => {
        const feed = this.store.addLive(path, trajectoryTitle(path), typeof program === "string" ? program : path);
        this.sessions.set(session.id, { path, feed, finished: false });
        feed.setController((action) => this.control(session, action));
        feed.setLive("running");
        this.views.open(feed);
      },
      line: (line) => this.sessions.get(session.id)?.feed.append(line),
      progress: (evaluation) => this.sessions.get(session.id)?.feed.setEvaluation(evaluation),
      finished: () => this.finish(session.id),
    };
  }

  /** The session stopped at message `index`; false when it is not one this follower plays. */
  stopped(sessionId: string, index: number): boolean {
    const followed = this.sessions.get(sessionId);
    if (!followed) return false;
    if (!followed.finished) followed.feed.setLive("paused");
    this.views.open(followed.feed, { reveal: index });
    return true;
  }

  moving(sessionId: string): void {
    const followed = this.sessions.get(sessionId);
    if (followed && !followed.finished) followed.feed.setLive("running");
  }

  /** The debug session is gone (the adapter closed the episode first). */
  ended(sessionId: string): void {
    this.finish(sessionId);
    this.sessions.delete(sessionId);
  }

  private control(session: vscode.DebugSession, action: RunControl): void {
    if (action === "stop") {
      void vscode.debug.stopDebugging(session);
      return;
    }
    // The workbench's commands act on the focused session (the one the panel follows, unless several run).
    void vscode.commands.executeCommand(DEBUG_COMMANDS[action]);
  }

  private finish(sessionId: string): void {
    const followed = this.sessions.get(sessionId);
    if (!followed || followed.finished) return;
    followed.finished = true;
    let trajectory = null;
    try {
      trajectory = readTrajectoryFile(followed.path);
    } catch (e) {
      this.log.error(`cannot read back ${followed.path}: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.store.finishLive(followed.path, trajectory, trajectory?.evaluation ?? null, fileStamp(followed.path));
  }
}
