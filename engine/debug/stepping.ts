// The moves of the adapter (continue, the steps, their reverse) and what comes of them: the
// answer to the request at once, then, once DebugSession has come to a stop, the `stopped` event
// with its reason and breakpoints, or the end of the episode with its score. The request table
// (adapter.ts) hands every move request here.
import { Event as ProtocolEvent, OutputEvent, StoppedEvent } from "@vscode/debugadapter";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { errorMessage } from "../base/text.js";
import type { DebugSession, Move, MoveResult, Stop } from "./debug-session.js";
import { ScoringCancelled } from "./prefix-scores.js";
import { EPISODE_THREAD_ID } from "./request-checks.js";
import { endScoreLine } from "./score-line.js";
import { LiveTimeline } from "./timeline.js";

/** A custom event after each stop: which trajectory and message the session stands at. */
export const STOPPED_AT_EVENT = "toolsandboxStoppedAt";

export interface StoppedAt {
  readonly trajectory: string;
  readonly index: number;
  /** A saved run (its file is complete); false while a live episode is still writing it. */
  readonly replay: boolean;
}

/** What the moves need of the adapter. */
interface StepHost {
  currentSession(): DebugSession | null;
  sendResponse(response: DebugProtocol.Response): void;
  sendEvent(event: DebugProtocol.Event): void;
  fail(response: DebugProtocol.Response, message: string): void;
  sendTerminated(): void;
  /** A move starts: what was handed out for the last stop (variable handles, a pending Milestones scope) is let go. */
  leaveStop(): void;
}

export class Stepping {
  /** The stop the session stands at (its line and text, for the top frame and exceptionInfo). */
  lastStop: Stop | null = null;
  private moving = false;

  constructor(private readonly host: StepHost) {}

  /** Answers a move request, then moves; a second move while one runs is refused. */
  moveAfter(response: DebugProtocol.Response, move: Move): void {
    const session = this.host.currentSession();
    if (!session) {
      this.host.fail(response, "no episode is being debugged");
      return;
    }
    if (this.moving) {
      this.host.fail(response, "the episode is already running");
      return;
    }
    this.host.sendResponse(response);
    void this.report(session, session.move(move));
  }

  /** Sends the stop (or the end) a move came to. */
  async report(session: DebugSession, moving: Promise<MoveResult>): Promise<void> {
    this.moving = true;
    this.host.leaveStop();
    let result: MoveResult;
    try {
      result = await moving;
    } catch (e) {
      this.moving = false;
      this.print(`Internal error: ${errorMessage(e)}`, "stderr");
      this.host.sendTerminated();
      return;
    }
    this.moving = false;
    this.printWarnings(session);
    if ("terminated" in result) {
      await this.finish(session);
      return;
    }
    const stop = result.stopped;
    this.lastStop = stop;
    if (stop.text) this.print(stop.text, stop.reason === "exception" ? "stderr" : "console");
    const event = new StoppedEvent(stop.reason, EPISODE_THREAD_ID, stop.text) as DebugProtocol.StoppedEvent;
    event.body.description = stop.description;
    if (stop.hitBreakpointIds.length > 0) event.body.hitBreakpointIds = [...stop.hitBreakpointIds];
    event.body.allThreadsStopped = true;
    this.host.sendEvent(event);
    // For the extension's panel, which follows the session to the message it stopped at.
    const where: StoppedAt = { trajectory: session.timeline.trajectoryPath, index: session.messageIndex, replay: session.timeline.replay };
    this.host.sendEvent(new ProtocolEvent(STOPPED_AT_EVENT, where));
    session.markStopped();
  }

  private async finish(session: DebugSession): Promise<void> {
    const timeline = session.timeline;
    if (timeline instanceof LiveTimeline) await timeline.settled();
    const end = timeline.end;
    const how = end ? `${end.reason}${end.detail ? ` (${end.detail})` : ""}` : "without an end event";
    const score = await this.endScore(session);
    this.print(`The episode ended: ${how}. ${timeline.messages.length} messages; trajectory: ${timeline.trajectoryPath}\n${score}`);
    if (timeline instanceof LiveTimeline && timeline.failure) this.print(`The run failed: ${timeline.failure}`, "stderr");
    this.host.sendTerminated();
  }

  /** The score of the whole episode, for the console once it has ended (scored off the event loop). */
  private async endScore(session: DebugSession): Promise<string> {
    const last = session.timeline.messages.length - 1;
    let result = null;
    if (last >= 0) {
      try {
        await session.prepareEvaluation(last, new Promise<void>(() => {}));
        result = session.evaluationAt(last);
      } catch (e) {
        if (!(e instanceof ScoringCancelled)) throw e;
      }
    }
    this.printWarnings(session);
    return endScoreLine(result, session.timeline.end?.reason ?? null);
  }

  private printWarnings(session: DebugSession): void {
    for (const warning of session.takeWarnings()) this.print(`Cannot score the milestones: ${warning}`, "stderr");
  }

  private print(text: string, category: "console" | "stderr" = "console"): void {
    this.host.sendEvent(new OutputEvent(`${text}\n`, category));
  }
}
