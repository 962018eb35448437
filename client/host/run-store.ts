// The trajectories the extension has open and which scenario each one scores. A scenario shows the
// results of one trajectory at a time (the last run, replay or re-score of it); the inline results,
// the status bar and the panels all read them from here and redraw when they change. Keyed by file
// path; no VS Code here.
import type { EvaluationResult } from "../../engine/evaluation/result.js";
import type { Rescored } from "../../engine/panel/score-source.js";
import type { LiveState } from "../../engine/panel/protocol.js";
import type { EndEvent, Trajectory } from "../../engine/trajectory/trajectory.js";
import { TrajectoryFeed } from "./feed.js";

/** Something to say about the results shown: `stale` when they are older than the scenario's text. */
interface ResultsNote {
  readonly stale: boolean;
  readonly text: string;
}

interface ScenarioResults {
  readonly scenarioPath: string;
  readonly trajectoryPath: string;
  /** Null while a run is still going. */
  readonly evaluation: EvaluationResult | null;
  /** Why the results are older than the text (the scenario has errors), or a warning; null when neither. */
  readonly note: ResultsNote | null;
  /** How the episode ended (null while going, or when the engine failed before the end). */
  readonly end: EndEvent | null;
  /** Whether the run has finished (a saved file, or a live run that is over). */
  readonly finished: boolean;
  /** Set when `evaluation` is a re-score against another version of the scenario than the run played. */
  readonly rescored: Rescored | null;
}

interface Entry {
  readonly feed: TrajectoryFeed;
  /** The parsed file, for re-scoring; null while a live run is writing it. */
  trajectory: Trajectory | null;
  evaluation: EvaluationResult | null;
  /** The file's size and modification time when it was read; null while a run writes it. */
  stamp: string | null;
  /** Set while `evaluation` is a re-score against another version of the scenario. */
  rescored: Rescored | null;
}

/** Runs kept in memory beyond those a scenario shows, a view shows or that are still going. */
const SPARE_RUNS = 16;

export class RunStore {
  private readonly entries = new Map<string, Entry>();
  /** Scenario path → the trajectory whose results it shows, and a note about them. */
  private readonly shown = new Map<string, { trajectoryPath: string; note: ResultsNote | null }>();
  private readonly listeners = new Set<(scenarioPath: string) => void>();

  /** `inView(path)`: whether a panel shows that trajectory (such runs are never dropped). */
  constructor(private readonly inView: (trajectoryPath: string) => boolean = () => false) {}

  /** Called with the scenario path whenever that scenario's results change. */
  onDidChange(listener: (scenarioPath: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  feed(trajectoryPath: string): TrajectoryFeed | null {
    return this.entries.get(trajectoryPath)?.feed ?? null;
  }

  trajectory(trajectoryPath: string): Trajectory | null {
    return this.entries.get(trajectoryPath)?.trajectory ?? null;
  }

  /**
   * A saved trajectory, with the evaluation to show (the recorded one, or a fresh score). A file
   * already open keeps its feed, so the views showing it stay attached and get the new lines.
   */
  addSaved(
    trajectoryPath: string,
    title: string,
    trajectory: Trajectory,
    evaluation: EvaluationResult | null,
    stamp: string | null,
  ): TrajectoryFeed {
    const existing = this.entries.get(trajectoryPath);
    if (existing?.feed.live === "running" || existing?.feed.live === "paused") return existing.feed;
    const shown = evaluation ?? trajectory.evaluation;
    if (existing) {
      existing.feed.reload(trajectory, evaluation);
      Object.assign(existing, { trajectory, evaluation: shown, stamp, rescored: null });
    } else {
      this.entries.set(trajectoryPath, {
        feed: TrajectoryFeed.fromTrajectory(trajectoryPath, title, trajectory, evaluation),
        trajectory,
        evaluation: shown,
        stamp,
        rescored: null,
      });
      this.dropSpareRuns();
    }
    this.notifyScenariosOf(trajectoryPath);
    return this.entries.get(trajectoryPath)!.feed;
  }

  /** The stamp of the file as last read (null when never read, or written by a run still going). */
  stampOf(trajectoryPath: string): string | null {
    return this.entries.get(trajectoryPath)?.stamp ?? null;
  }

  /** A run about to write `trajectoryPath`: its feed starts empty and fills as lines are written. */
  addLive(trajectoryPath: string, title: string, scenarioPath: string): TrajectoryFeed {
    const feed = new TrajectoryFeed(trajectoryPath, title);
    this.entries.set(trajectoryPath, { feed, trajectory: null, evaluation: null, stamp: null, rescored: null });
    this.show(scenarioPath, trajectoryPath);
    this.dropSpareRuns();
    return feed;
  }

  /** The run is over and its file complete (`stamp` as it was written). */
  finishLive(trajectoryPath: string, trajectory: Trajectory | null, evaluation: EvaluationResult | null, stamp: string | null): void {
    const entry = this.entries.get(trajectoryPath);
    if (!entry) return;
    entry.trajectory = trajectory;
    entry.evaluation = evaluation;
    entry.stamp = stamp;
    if (entry.feed.live !== "finished") entry.feed.setLive("finished" satisfies LiveState);
    this.notifyScenariosOf(trajectoryPath);
  }

  /** A live run paused, went on or finished: its views and the scenarios showing it hear of it. */
  setLive(trajectoryPath: string, state: LiveState): void {
    const entry = this.entries.get(trajectoryPath);
    if (!entry) return;
    entry.feed.setLive(state);
    this.notifyScenariosOf(trajectoryPath);
  }

  /** The scenario shows this trajectory's results from now on. */
  show(scenarioPath: string, trajectoryPath: string, note: ResultsNote | null = null): void {
    this.shown.set(scenarioPath, { trajectoryPath, note });
    this.notify(scenarioPath);
  }

  /**
   * A new score of the trajectory (a re-score); every view of it gets the new evaluation line and
   * the scenarios showing it take `note` (null: the results are current). `rescored` is set when
   * the score is against another version of the scenario than the run played.
   */
  setEvaluation(
    trajectoryPath: string,
    evaluation: EvaluationResult,
    note: ResultsNote | null = null,
    rescored: Rescored | null = null,
  ): void {
    const entry = this.entries.get(trajectoryPath);
    if (!entry) return;
    entry.evaluation = evaluation;
    entry.rescored = rescored;
    entry.feed.setEvaluation(evaluation, rescored);
    for (const [scenario, shown] of this.shown) {
      if (shown.trajectoryPath !== trajectoryPath) continue;
      shown.note = note;
      this.notify(scenario);
    }
  }

  /** Keeps the results but says why they may be out of date (null clears the note). */
  setNote(scenarioPath: string, note: ResultsNote | null): void {
    const shown = this.shown.get(scenarioPath);
    if (!shown || (shown.note?.text === note?.text && shown.note?.stale === note?.stale)) return;
    shown.note = note;
    this.notify(scenarioPath);
  }

  results(scenarioPath: string): ScenarioResults | null {
    const shown = this.shown.get(scenarioPath);
    if (!shown) return null;
    const entry = this.entries.get(shown.trajectoryPath);
    if (!entry) return null;
    const live = entry.feed.live;
    return {
      scenarioPath,
      trajectoryPath: shown.trajectoryPath,
      evaluation: entry.evaluation,
      note: shown.note,
      end: entry.trajectory?.end ?? null,
      finished: live !== "running" && live !== "paused",
      rescored: entry.rescored,
    };
  }

  /** The scenario whose results come from this trajectory, if any. */
  scenarioOf(trajectoryPath: string): string | null {
    for (const [scenario, shown] of this.shown) if (shown.trajectoryPath === trajectoryPath) return scenario;
    return null;
  }

  /**
   * Forgets the oldest runs nothing needs (no scenario shows it, no view shows it, not going), so a
   * long session of test runs does not keep every trajectory in memory. They reload from disk.
   */
  private dropSpareRuns(): void {
    const needed = new Set([...this.shown.values()].map((s) => s.trajectoryPath));
    const spare = [...this.entries].filter(
      ([path, entry]) => !needed.has(path) && entry.feed.live !== "running" && entry.feed.live !== "paused" && !this.inView(path),
    );
    for (const [path] of spare.slice(0, Math.max(0, spare.length - SPARE_RUNS))) this.entries.delete(path);
  }

  private notifyScenariosOf(trajectoryPath: string): void {
    for (const [scenario, shown] of this.shown) if (shown.trajectoryPath === trajectoryPath) this.notify(scenario);
  }

  private notify(scenarioPath: string): void {
    for (const listener of this.listeners) listener(scenarioPath);
  }
}
