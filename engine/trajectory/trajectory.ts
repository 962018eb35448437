// A trajectory in memory: the header, the events in file order, the messages, and the world at
// every message index rebuilt from the initial tables plus the recorded changes. The builder
// checks that the events fit together (message indices in order, every change consistent with
// the state it applies to, after the end only the evaluation, the judgement and the review), so
// consumers can trust what they get.
import type { EndReason, EpisodeEvent, Message, TrajectoryHeader } from "../episode/types.js";
import { applyChanges, changeConflict } from "../world/changes.js";
import { packTables } from "../packs/tables.js";
import { WorldHistory } from "../world/world-history.js";
import type { Tables } from "../world/types.js";
import type { EvaluationResult } from "../evaluation/result.js";
import type { TrajectoryWarning } from "./errors.js";
import type { JudgementEvent, ReviewEvent, TrajectoryEvent } from "./events.js";

export type EndEvent = Extract<EpisodeEvent, { type: "end" }>;
export type WorldEvent = Extract<EpisodeEvent, { type: "world" }>;
export type ModelCallEvent = Extract<EpisodeEvent, { type: "model_call" }>;

export class Trajectory {
  constructor(
    readonly header: TrajectoryHeader,
    /** Every episode event in file order (the evaluation event is `evaluation`). */
    readonly events: readonly EpisodeEvent[],
    /** The message bus; messages[i].sandbox_message_index === i. */
    readonly messages: readonly Message[],
    /** The end event, or null when the run was cut short. */
    readonly end: EndEvent | null,
    readonly world: WorldHistory,
    readonly warnings: readonly TrajectoryWarning[],
    /** The score `run` recorded after the end (absent in older files and unscored runs). */
    readonly evaluation: EvaluationResult | null = null,
    /** The role-play judge's verdict, the last line of a `run --judge` of a scenario with a persona. */
    readonly judgement: JudgementEvent | null = null,
    /** The failure reviewer's verdict, the last line of a failed or errored run of `run --review`. */
    readonly review: ReviewEvent | null = null,
  ) {}

  /** The world as it was at message `index` (the latest snapshot at or before it). */
  worldAt(index: number): Tables {
    return this.world.at(index);
  }

  get endReason(): EndReason | null {
    return this.end?.reason ?? null;
  }

  /** The model calls of a model-backed run, in order (none for scripted runs and older files). */
  get modelCalls(): readonly ModelCallEvent[] {
    return this.events.filter((e): e is ModelCallEvent => e.type === "model_call");
  }
}

/** Thrown by the builder; the reader adds the file name and line number. */
export class EventOrderError extends Error {}

/** Accepts events one at a time (from a file, or live from an episode) and checks they fit. */
export class TrajectoryBuilder {
  private readonly events: EpisodeEvent[] = [];
  private readonly messages: Message[] = [];
  private readonly history: WorldHistory;
  private current: Tables;
  private end: EndEvent | null = null;
  private evaluation: EvaluationResult | null = null;
  private judgement: JudgementEvent | null = null;
  private review: ReviewEvent | null = null;

  constructor(readonly header: TrajectoryHeader) {
    this.current = header.scenario.world.tables;
    // The header's pack is checked at the wire (the schema lists the pack ids).
    this.history = new WorldHistory(packTables(header.scenario.world.pack).schemas, this.current);
  }

  add(event: TrajectoryEvent): void {
    // The reviewer reads the finished, scored (and judged) run: its verdict is the last line.
    if (this.review) throw new EventOrderError(`a "${event.type}" event follows the review event`);
    if (event.type === "review") {
      if (!this.end) throw new EventOrderError('a "review" event comes before the end event');
      this.review = event;
      return;
    }
    // The judge rates the finished episode after it was scored: only the review may follow its verdict.
    if (this.judgement) throw new EventOrderError(`a "${event.type}" event follows the judgement event`);
    if (event.type === "judgement") {
      if (!this.end) throw new EventOrderError('a "judgement" event comes before the end event');
      this.judgement = event;
      return;
    }
    if (event.type === "evaluation") {
      // The evaluation scores a finished episode: it comes once, right after the end.
      if (!this.end) throw new EventOrderError('an "evaluation" event comes before the end event');
      if (this.evaluation) throw new EventOrderError('a second "evaluation" event');
      this.evaluation = event.result;
      return;
    }
    if (this.evaluation) throw new EventOrderError(`a "${event.type}" event follows the evaluation event`);
    if (this.end) throw new EventOrderError(`a "${event.type}" event follows the end event`);
    switch (event.type) {
      case "message":
        this.addMessage(event.message);
        break;
      case "world":
        this.addWorld(event);
        break;
      case "model_call":
        // Written before the messages the call produced, so it points at the next message.
        if (event.index !== this.messages.length) {
          throw new EventOrderError(`a model call at index ${event.index} is out of order (expected ${this.messages.length})`);
        }
        break;
      case "end":
        if (event.message_count !== this.messages.length) {
          throw new EventOrderError(`the end event counts ${event.message_count} messages but the file has ${this.messages.length}`);
        }
        this.end = event;
        break;
    }
    this.events.push(event);
  }

  build(warnings: readonly TrajectoryWarning[]): Trajectory {
    return new Trajectory(
      this.header,
      this.events,
      this.messages,
      this.end,
      this.history,
      warnings,
      this.evaluation,
      this.judgement,
      this.review,
    );
  }

  private addMessage(message: Message): void {
    const expected = this.messages.length;
    if (message.sandbox_message_index !== expected) {
      throw new EventOrderError(`message index ${message.sandbox_message_index} is out of order (expected ${expected})`);
    }
    this.messages.push(message);
  }

  private addWorld(event: WorldEvent): void {
    const latest = this.history.latest().index;
    if (event.index < latest) {
      throw new EventOrderError(`world changes at index ${event.index} come after changes at index ${latest}`);
    }
    // Changes attach to the first response message, which is at most the next message to come.
    if (event.index > this.messages.length) {
      throw new EventOrderError(`world changes at index ${event.index} are ahead of the messages (${this.messages.length} so far)`);
    }
    event.changes.forEach((change, i) => {
      const problem = changeConflict(this.current, change);
      if (problem) throw new EventOrderError(`change ${i} (${change.op} ${change.table} row ${change.position}): ${problem}`);
      this.current = applyChanges(this.current, [change]);
    });
    this.history.commit(event.index, this.current, event.changes);
  }
}
