// Pause, step and continue for a live run. The episode awaits `beforeTurn` before every turn; while
// the gate is paused that wait lasts until the panel says continue (let every turn through) or
// step (let exactly one through, then hold again). A pause asked for during a turn takes effect
// before the next one: a turn already under way (a model answering) is never cut in half.
import type { LiveState, RunControl } from "../../engine/panel/protocol.js";

export class RunGate {
  private paused: boolean;
  /** Turns allowed through while paused (a step asked for before the run reached the gate). */
  private passes = 0;
  private release: (() => void) | null = null;
  private reported: LiveState | null = null;

  constructor(
    private readonly onState: (state: LiveState) => void,
    options: { readonly startPaused?: boolean } = {},
  ) {
    this.paused = options.startPaused ?? false;
    this.report(this.paused ? "paused" : "running");
  }

  get state(): LiveState | null {
    return this.reported;
  }

  /** The episode's beforeTurn hook. */
  beforeTurn = async (): Promise<void> => {
    if (!this.paused) return;
    if (this.passes > 0) {
      this.passes--;
      this.report("running");
      return;
    }
    this.report("paused");
    await new Promise<void>((resolve) => {
      this.release = resolve;
    });
  };

  control(action: RunControl): void {
    if (this.reported === "finished") return;
    switch (action) {
      case "pause":
        this.paused = true;
        this.report("paused");
        break;
      case "continue":
        this.paused = false;
        this.passes = 0;
        this.letOneThrough();
        break;
      case "step":
        // Running: the turn under way is the step, and the gate holds before the next one.
        if (!this.paused) {
          this.paused = true;
          this.report("paused");
        } else if (!this.letOneThrough()) {
          this.passes = 1;
        }
        break;
    }
  }

  /** The run is over: let a waiting turn go (it ends at once) and report "finished". */
  finish(): void {
    this.paused = false;
    const release = this.release;
    this.release = null;
    this.report("finished");
    release?.();
  }

  /** Releases a turn waiting at the gate; false when none is waiting. */
  private letOneThrough(): boolean {
    const release = this.release;
    this.release = null;
    if (release === null) {
      if (!this.paused) this.report("running");
      return false;
    }
    this.report("running");
    release();
    return true;
  }

  private report(state: LiveState): void {
    if (this.reported === state || this.reported === "finished") return;
    this.reported = state;
    this.onState(state);
  }
}
