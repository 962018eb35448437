// The messages a debug session moves through, with the world at each one: a live episode played
// by the runner (engine/runner/play.ts, the same code and trajectory as `run`), held before each
// turn until the session needs a message it has not got yet; or a saved trajectory, read whole.
// Either way the session sees one thing: messages so far, the world at each, the model calls, and
// whether (and how) the episode ended.
import { basename, dirname } from "node:path";
import type { Message, TrajectoryHeader } from "../episode/types.js";
import { type EvaluationResult, firstUserMessageIndex } from "../evaluation/evaluate.js";
import { packTables } from "../packs/tables.js";
import type { Scenario } from "../scenario/model.js";
import { playJob, type PlayOutcome } from "../runner/play.js";
import type { RoleSpec } from "../runner/role-specs.js";
import type { TrajectoryWarning } from "../trajectory/errors.js";
import type { TrajectoryEvent } from "../trajectory/events.js";
import { readTrajectoryFile } from "../trajectory/reader.js";
import { claimRunFile } from "../trajectory/run-files.js";
import { type EndEvent, type ModelCallEvent, type Trajectory, TrajectoryBuilder } from "../trajectory/trajectory.js";
import type { WorldHistory } from "../world/world-history.js";
import type { TableSchema } from "../world/types.js";
import type { MessageOrigin } from "./source-map.js";

export interface Timeline {
  readonly scenario: Scenario;
  readonly seed: number;
  /** Which roles play the reference (their messages then come from its steps). */
  readonly scripted: { readonly agent: boolean; readonly user: boolean };
  readonly messages: readonly Message[];
  readonly world: WorldHistory;
  readonly schemas: ReadonlyMap<string, TableSchema>;
  /** The end event once the episode has ended; null before (or for a run that was cut short). */
  readonly end: EndEvent | null;
  /** No message will be added any more. */
  readonly finished: boolean;
  /** A replay of a saved file (false: a live episode). */
  readonly replay: boolean;
  /** The trajectory file: the one replayed, or the one the live episode writes. */
  readonly trajectoryPath: string;
  firstUserIndex(): number;
  /** The model calls that produced message `index` (their index is that of the first message they produced). */
  modelCallsAt(index: number): readonly ModelCallEvent[];
  /** The last model call at or before `index`, or null. */
  lastModelCallAt(index: number): ModelCallEvent | null;
  /** Plays turns until message `index` exists or the episode is over; true when it exists. */
  ensure(index: number): Promise<boolean>;
  /** Stops a live episode (it ends "cancelled", is scored and its trajectory closed). */
  close(): Promise<void>;
}

/** Model calls by the index they point at, kept in order. */
class ModelCalls {
  private readonly byIndex = new Map<number, ModelCallEvent[]>();
  private readonly indices: number[] = [];

  add(event: ModelCallEvent): void {
    let list = this.byIndex.get(event.index);
    if (!list) {
      list = [];
      this.byIndex.set(event.index, list);
      this.indices.push(event.index);
    }
    list.push(event);
  }

  at(index: number): readonly ModelCallEvent[] {
    return this.byIndex.get(index) ?? [];
  }

  lastAt(index: number): ModelCallEvent | null {
    let lo = 0;
    let hi = this.indices.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.indices[mid]! <= index) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0) return null;
    const list = this.byIndex.get(this.indices[found]!)!;
    return list[list.length - 1]!;
  }
}

export class ReplayTimeline implements Timeline {
  readonly replay = true;
  readonly finished = true;
  readonly scenario: Scenario;
  readonly seed: number;
  readonly scripted: { readonly agent: boolean; readonly user: boolean };
  readonly schemas: ReadonlyMap<string, TableSchema>;
  private readonly calls = new ModelCalls();

  constructor(
    private readonly trajectory: Trajectory,
    readonly trajectoryPath: string,
  ) {
    this.scenario = trajectory.header.scenario;
    this.seed = trajectory.header.run.seed;
    this.scripted = scriptedRoles(trajectory.header);
    this.schemas = packTables(this.scenario.world.pack).schemas;
    for (const call of trajectory.modelCalls) this.calls.add(call);
  }

  /** What reading the file found (a last line cut short, no end event). */
  get warnings(): readonly TrajectoryWarning[] {
    return this.trajectory.warnings;
  }

  static read(path: string): ReplayTimeline {
    return new ReplayTimeline(readTrajectoryFile(path), path);
  }

  get messages(): readonly Message[] {
    return this.trajectory.messages;
  }

  get world(): WorldHistory {
    return this.trajectory.world;
  }

  get end(): EndEvent | null {
    return this.trajectory.end;
  }

  firstUserIndex(): number {
    return firstUserMessageIndex(this.messages);
  }

  modelCallsAt(index: number): readonly ModelCallEvent[] {
    return this.calls.at(index);
  }

  lastModelCallAt(index: number): ModelCallEvent | null {
    return this.calls.lastAt(index);
  }

  async ensure(index: number): Promise<boolean> {
    return index < this.messages.length;
  }

  async close(): Promise<void> {}
}

interface LiveOptions {
  readonly scenario: Scenario;
  readonly scenarioFile: string;
  readonly agent: string | RoleSpec;
  readonly user: string | RoleSpec;
  readonly seed: number;
  /** The folder the run's trajectory goes in: the next `<scenario>.run-<n>.trajectory.jsonl` there. */
  readonly outDir: string;
  /** Sees the live episode as a panel would (the extension's panel follows the session); not part of DAP. */
  readonly observer?: LiveObserver;
}

/**
 * What a live session writes, for a front end in the same process: each line once it is in the
 * trajectory file (header first), the milestones scored so far before each turn, and the end once
 * the file is closed. A throwing observer must not break the episode: its errors are dropped.
 */
export interface LiveObserver {
  started(trajectoryPath: string): void;
  line(line: TrajectoryHeader | TrajectoryEvent): void;
  progress(evaluation: EvaluationResult): void;
  finished(): void;
}

export class LiveTimeline implements Timeline {
  readonly replay = false;
  readonly scenario: Scenario;
  readonly seed: number;
  readonly scripted: { readonly agent: boolean; readonly user: boolean };
  readonly schemas: ReadonlyMap<string, TableSchema>;
  readonly trajectoryPath: string;
  private readonly builder: TrajectoryBuilder;
  private readonly view: Trajectory;
  private readonly calls = new ModelCalls();
  private endEvent: EndEvent | null = null;
  private done = false;
  private readonly stop = new AbortController();
  /** Releases the episode held before its next turn; null while a turn plays. */
  private release: (() => void) | null = null;
  /** Wakes whoever waits for the episode to reach its next hold (or its end). */
  private wake: (() => void) | null = null;
  private readonly played: Promise<PlayOutcome>;
  /** Set when the runner failed; the session reports it. */
  failure: string | null = null;
  private readonly observer: LiveObserver | null;

  constructor(options: LiveOptions) {
    this.scenario = options.scenario;
    this.seed = options.seed;
    this.scripted = { agent: isScripted(options.agent), user: isScripted(options.user) };
    this.schemas = packTables(this.scenario.world.pack).schemas;
    this.trajectoryPath = claimRunFile(options.outDir, this.scenario.name);
    const observer = options.observer ? guarded(options.observer) : null;
    this.observer = observer;
    observer?.started(this.trajectoryPath);
    this.builder = new TrajectoryBuilder(placeholderHeader(this.scenario));
    // The view shares the builder's message list and world history, so it grows with them.
    this.view = this.builder.build([]);
    const job = {
      index: 0,
      file: options.scenarioFile,
      scenario: this.scenario,
      trial: null,
      seed: options.seed,
      trajectory: basename(this.trajectoryPath),
    };
    this.played = playJob(job, {
      agent: options.agent,
      user: options.user,
      outDir: dirname(this.trajectoryPath),
      signal: this.stop.signal,
      beforeTurn: () =>
        new Promise<void>((resolve) => {
          this.release = resolve;
          this.notify();
        }),
      onEvent: (event) => {
        this.take(event);
        observer?.line(event);
      },
      ...(observer
        ? { onHeader: (header: TrajectoryHeader) => observer.line(header), onProgress: (e: EvaluationResult) => observer.progress(e) }
        : {}),
    });
    this.played.then(
      (outcome) => {
        if (outcome.engineError !== null || outcome.result.end_reason === null) this.failure = outcome.result.detail;
        this.finish();
      },
      (error: unknown) => {
        this.failure = error instanceof Error ? error.message : String(error);
        this.finish();
      },
    );
  }

  get messages(): readonly Message[] {
    return this.view.messages;
  }

  get world(): WorldHistory {
    return this.view.world;
  }

  get end(): EndEvent | null {
    return this.endEvent;
  }

  get finished(): boolean {
    return this.done;
  }

  firstUserIndex(): number {
    return firstUserMessageIndex(this.messages);
  }

  modelCallsAt(index: number): readonly ModelCallEvent[] {
    return this.calls.at(index);
  }

  lastModelCallAt(index: number): ModelCallEvent | null {
    return this.calls.lastAt(index);
  }

  async ensure(index: number): Promise<boolean> {
    while (index >= this.messages.length && !this.done) {
      const held = this.release;
      const next = new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      if (held) {
        this.release = null;
        held();
      }
      await next;
    }
    return index < this.messages.length;
  }

  /** The run, scored and closed: what `run` would have written. */
  async close(): Promise<void> {
    if (!this.done) this.stop.abort();
    const held = this.release;
    this.release = null;
    held?.();
    await this.played.catch(() => undefined);
  }

  /** Waits until the episode has played out (for a session that runs to the end). */
  async settled(): Promise<void> {
    await this.played.catch(() => undefined);
  }

  private take(event: TrajectoryEvent): void {
    if (event.type === "evaluation" || event.type === "judgement") return;
    if (event.type === "model_call") this.calls.add(event);
    if (event.type === "end") this.endEvent = event;
    this.builder.add(event);
  }

  private finish(): void {
    this.done = true;
    this.observer?.finished();
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/** The observer with each call's error dropped: what it does with a line must not stop the episode. */
function guarded(observer: LiveObserver): LiveObserver {
  const safe =
    <A extends unknown[]>(f: (...args: A) => void) =>
    (...args: A): void => {
      try {
        f(...args);
      } catch {
        // The observer's own problem (a closed panel); the episode and its file go on.
      }
    };
  return {
    started: safe((path: string) => observer.started(path)),
    line: safe((line: TrajectoryHeader | TrajectoryEvent) => observer.line(line)),
    progress: safe((evaluation: EvaluationResult) => observer.progress(evaluation)),
    finished: safe(() => observer.finished()),
  };
}

function isScripted(role: string | RoleSpec): boolean {
  return typeof role === "string" ? role === "scripted" : role.kind === "scripted";
}

function scriptedRoles(header: TrajectoryHeader): { agent: boolean; user: boolean } {
  return { agent: header.run.agent === "scripted", user: header.run.user === "scripted" };
}

/** The builder only reads the scenario from the header; the real header is the runner's to write. */
function placeholderHeader(scenario: Scenario): TrajectoryHeader {
  return { type: "header", format: "toolsandbox-trajectory", version: 1, scenario, run: { agent: "", user: "", seed: 0, options: {} } };
}

/** Which reference step (and call) each message was played from, worked out as messages arrive. */
export class MessageOrigins {
  private readonly origins: MessageOrigin[] = [];
  private agentTurns = 0;
  private userTurns = 0;
  private readonly agentSteps: number[];
  private readonly userSteps: number[];
  /** Reference call of each open tool call id, so a response points where its request came from. */
  private readonly callOrigins = new Map<string, MessageOrigin>();
  /** Start index of each turn (a user message to the agent from the opening on). */
  private readonly turns: number[] = [];

  constructor(private readonly timeline: Timeline) {
    const steps = timeline.scenario.reference;
    this.agentSteps = steps.flatMap((s, i) => (s.kind === "agent_text" || s.kind === "agent_calls" ? [i] : []));
    this.userSteps = steps.flatMap((s, i) => (s.kind === "user_text" || s.kind === "end_conversation" ? [i] : []));
  }

  originOf(index: number): MessageOrigin {
    this.extend(index);
    return this.origins[index] ?? { kind: "model" };
  }

  /** 1-based turn of a message; 0 for the scripted set-up before the opening. */
  turnOf(index: number): number {
    this.extend(index);
    let lo = 0;
    let hi = this.turns.length - 1;
    let count = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.turns[mid]! <= index) {
        count = mid + 1;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return count;
  }

  /** Index of the first message of turn `turn` (1-based), if the messages so far reach it. */
  turnStart(turn: number, upTo: number): number | null {
    this.extend(upTo);
    return this.turns[turn - 1] ?? null;
  }

  /** Every turn's first message up to `index`, oldest first. */
  turnStarts(index: number): readonly number[] {
    this.extend(index);
    return this.turns;
  }

  private extend(index: number): void {
    const messages = this.timeline.messages;
    const last = Math.min(index, messages.length - 1);
    const firstUser = this.timeline.firstUserIndex();
    const demoSizes = this.timeline.scenario.user.demonstrations.map((d) => d.messages.length);
    for (let i = this.origins.length; i <= last; i++) {
      const m = messages[i]!;
      const previous = messages[i - 1];
      const origin = this.origin(m, previous, i, firstUser, demoSizes);
      this.origins.push(origin);
      if (i >= firstUser && m.sender === "user" && m.recipient === "agent") this.turns.push(i);
    }
  }

  private origin(m: Message, previous: Message | undefined, i: number, firstUser: number, demoSizes: readonly number[]): MessageOrigin {
    if (i < firstUser) {
      if (i === 0) return { kind: "system" };
      if (i === firstUser - 1) return { kind: "goal" };
      // After the agent's system prompt come the demonstrations: each one's system row, then its messages.
      let at = 1;
      for (const [demo, size] of demoSizes.entries()) {
        if (i === at) return { kind: "demonstration", demo, message: null };
        if (i < at + 1 + size) return { kind: "demonstration", demo, message: i - at - 1 };
        at += 1 + size;
      }
      return { kind: "system" };
    }
    if (i === firstUser) return { kind: "opening" };
    const continuing = previous !== undefined && previous.sender === m.sender && i - 1 >= firstUser + 1;
    if (m.sender === "agent") {
      if (!continuing) this.agentTurns++;
      if (m.recipient === "execution_environment") {
        const batchStart = this.batchStart(i);
        const origin: MessageOrigin = this.timeline.scripted.agent
          ? { kind: "reference", step: this.agentSteps[this.agentTurns - 1] ?? -1, call: i - batchStart, response: false }
          : { kind: "tool", name: m.tool_call?.name ?? m.openai_function_name ?? "" };
        const id = m.openai_tool_call_id ?? m.tool_call?.id;
        if (id) this.callOrigins.set(id, origin);
        return origin.kind === "reference" && origin.step < 0 ? { kind: "model" } : origin;
      }
      const step = this.agentSteps[this.agentTurns - 1];
      return this.timeline.scripted.agent && step !== undefined
        ? { kind: "reference", step, call: null, response: false }
        : { kind: "model" };
    }
    if (m.sender === "user") {
      if (!continuing) this.userTurns++;
      const step = this.userSteps[this.userTurns - 1];
      return this.timeline.scripted.user && step !== undefined
        ? { kind: "reference", step, call: null, response: false }
        : { kind: "model" };
    }
    if (m.sender === "execution_environment") {
      const request = m.openai_tool_call_id ? this.callOrigins.get(m.openai_tool_call_id) : undefined;
      if (request?.kind === "reference") return { ...request, response: true };
      return { kind: "tool", name: m.openai_function_name ?? "" };
    }
    return { kind: "model" };
  }

  /** Index of the first of the consecutive agent requests that message `i` belongs to. */
  private batchStart(i: number): number {
    const messages = this.timeline.messages;
    let start = i;
    while (start - 1 >= 0 && messages[start - 1]!.sender === "agent" && messages[start - 1]!.recipient === "execution_environment") start--;
    return start;
  }
}
