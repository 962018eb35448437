// The debugger's model of an episode, apart from the protocol: a position (a message index, or
// the end once the episode is over), the breakpoints, and the moves (continue, the steps, their
// reverse on what has been recorded). The adapter (adapter.ts) turns requests into these calls and
// their results into events; the tests of the protocol go through it as a client would.
import type { JsonValue } from "../base/json.js";
import { callableTools } from "../episode/tool-calls.js";
import type { Message } from "../episode/types.js";
import type { ToolDefinition } from "../tools/types.js";
import { evaluate, EvaluationError, type EvaluationResult } from "../evaluation/evaluate.js";
import { type MatchedHere, matchedHere } from "../evaluation/prefix-evaluation.js";
import type { Tables } from "../world/types.js";
import {
  bindFunctionBreakpoints,
  bindLineBreakpoints,
  type Breakpoint,
  type ExceptionFilter,
  type FunctionRequest,
  hitMatches,
  type LineRequest,
} from "./breakpoints.js";
import { ExpressionError, type ExprValue, type NameResolver } from "./expressions.js";
import type { LineTarget, ScenarioSourceMap } from "./source-map.js";
import { endScoreLine } from "./score-line.js";
import { MessageOrigins, type Timeline } from "./timeline.js";
import { PrefixScores, ScoringCancelled } from "./prefix-scores.js";

export type StopReason = "entry" | "step" | "breakpoint" | "function breakpoint" | "exception" | "pause" | "goto";

export interface Stop {
  readonly reason: StopReason;
  /** Shown by the client beside the reason ("milestone cellular_on matched"). */
  readonly description: string;
  /** For an exception stop: which filter, and what happened. */
  readonly text?: string;
  readonly hitBreakpointIds: readonly number[];
  /**
   * The scenario line (0-based) of the line breakpoint that stopped, where the top frame is
   * highlighted: a milestone's `- id:` line, not the reference step the message came from.
   */
  readonly line?: number;
}

export type Move = "continue" | "next" | "stepIn" | "stepOut" | "stepBack" | "reverseContinue";

export type MoveResult = { readonly stopped: Stop } | { readonly terminated: true };

/** How often a long continue gives the event loop a turn, so a pause request gets read. */
const YIELD_EVERY = 256;
/** Prefixes a move has scored ahead of the message it looks at (the scoring thread works while the session checks). */
const SCORE_AHEAD = 32;
/** A condition that reads the milestones needs the whole evaluation of the prefix it is checked at. */
const READS_MILESTONES = /\bmilestones\b/;

export class DebugSession {
  /** A message index, or messages.length once the episode has ended (the "end" position). */
  private current = 0;
  /** The message of the stop before this one, for "changed since the last stop". */
  private previousStop: number | null = null;
  /** The message of the current stop. */
  private stopIndex: number | null = null;
  private lineBreakpoints: Breakpoint[] = [];
  private functionBreakpoints: Breakpoint[] = [];
  private filters = new Set<ExceptionFilter>();
  private pauseRequested = false;
  /** The furthest message every breakpoint's hit count has been counted at. */
  private counted = -1;
  readonly origins: MessageOrigins;
  private evaluationCache: { index: number; result: EvaluationResult | null } | null = null;
  /** What had matched by each message, scored off the event loop and kept per prefix (prefix-scores.ts). */
  readonly scores: PrefixScores;
  /** Settles when the move under way is paused (or the session ends): its scoring is given up. */
  private moveCancelled = cancelSignal();
  /** The agent's tools by the name it sees them under (scrambled names differ from the real ones). */
  private agentTools: ReadonlyMap<string, ToolDefinition> | null = null;
  /** Evaluation problems seen on this thread (a scenario whose milestones cannot be scored), reported once. */
  private readonly ownWarnings: string[] = [];
  private readonly reportedWarnings = new Set<string>();

  constructor(
    readonly timeline: Timeline,
    readonly sourceMap: ScenarioSourceMap | null,
  ) {
    this.origins = new MessageOrigins(timeline);
    this.scores = new PrefixScores(timeline);
  }

  /** The evaluation problems not reported yet, each once (whichever thread found them). */
  takeWarnings(): string[] {
    const found = [...this.ownWarnings.splice(0), ...this.scores.warnings.splice(0)];
    return found.filter((w) => !this.reportedWarnings.has(w) && this.reportedWarnings.add(w));
  }

  /** Every evaluation problem seen so far, reported or not. */
  get evaluationProblems(): readonly string[] {
    return [...new Set([...this.reportedWarnings, ...this.ownWarnings, ...this.scores.warnings])];
  }

  get position(): number {
    return this.current;
  }

  /** The message shown at the current position (the last one at the end). */
  get messageIndex(): number {
    return Math.min(this.current, this.timeline.messages.length - 1);
  }

  get atEnd(): boolean {
    return this.timeline.finished && this.current >= this.timeline.messages.length;
  }

  get lastStop(): number | null {
    return this.previousStop;
  }

  setLineBreakpoints(requests: readonly LineRequest[]): readonly Breakpoint[] {
    this.lineBreakpoints = bindLineBreakpoints(requests, this.sourceMap, (t) => this.stepReason(t));
    return this.lineBreakpoints;
  }

  /** Why a reference step cannot stop: its role is played by a model, not the script. */
  private stepReason(target: Extract<LineTarget, { kind: "reference" }>): string | null {
    const step = this.timeline.scenario.reference[target.step];
    if (!step) return "this reference step is not in the scenario the session runs";
    const agentStep = step.kind === "agent_text" || step.kind === "agent_calls";
    const scripted = agentStep ? this.timeline.scripted.agent : this.timeline.scripted.user;
    if (scripted) return null;
    return `the ${agentStep ? "agent" : "user"} is played by a model, so it does not say the reference's lines`;
  }

  setFunctionBreakpoints(requests: readonly FunctionRequest[]): readonly Breakpoint[] {
    this.functionBreakpoints = bindFunctionBreakpoints(requests);
    return this.functionBreakpoints;
  }

  setExceptionFilters(filters: readonly ExceptionFilter[]): void {
    this.filters = new Set(filters);
  }

  pause(): void {
    this.pauseRequested = true;
    this.moveCancelled.resolve();
    this.scores.cancel();
  }

  /** Ends the scoring for good (the session is over). */
  async close(): Promise<void> {
    this.moveCancelled.resolve();
    await this.scores.close();
  }

  /**
   * Makes the evaluation of the messages up to `index` ready for evaluationAt() without blocking
   * the event loop; rejects with ScoringCancelled once `cancelled` settles.
   */
  async prepareEvaluation(index: number, cancelled: Promise<void>): Promise<void> {
    if (index < 0 || this.evaluationCache?.index === index) return;
    await this.scores.result(index, cancelled);
  }

  /** Records a stop at the current position; what changed is shown against the stop before it. */
  markStopped(): void {
    this.previousStop = this.stopIndex;
    this.stopIndex = this.messageIndex;
    if (this.messageIndex < this.timeline.messages.length) this.scores.prefetch(this.messageIndex);
  }

  /** Positions at message 0 and tells whether it is a stop of its own (a breakpoint there, or stopOnEntry). */
  async start(stopOnEntry: boolean): Promise<MoveResult> {
    await this.timeline.ensure(0);
    this.current = 0;
    if (this.timeline.messages.length === 0) return this.finishedResult();
    if (!(await this.scored(0, SCORE_AHEAD))) return this.pausedAt(0);
    if (stopOnEntry) {
      this.countHits(0);
      return { stopped: { reason: "entry", description: "Paused on entry", hitBreakpointIds: [] } };
    }
    this.countHits(0);
    const stop = this.stopAt(0);
    return stop ? { stopped: stop } : this.move("continue");
  }

  async move(kind: Move): Promise<MoveResult> {
    this.pauseRequested = false;
    this.moveCancelled = cancelSignal();
    switch (kind) {
      case "continue":
        return this.forward(() => false, "step");
      case "stepIn":
        return this.forward(() => true, "step");
      case "next": {
        const from = this.messageIndex;
        const batchEnd = this.batchEnd(from);
        return this.forward((at) => at > batchEnd, "step");
      }
      case "stepOut": {
        const from = this.messageIndex;
        // Out to the last message of the turn; from the last message of a turn, out of the next one.
        let inTurn = !(await this.endsTurn(from));
        return this.forward(async (at) => {
          if (!inTurn && this.isTurnStart(this.timeline.messages[at]!, at)) inTurn = true;
          return inTurn && (await this.endsTurn(at));
        }, "step");
      }
      case "stepBack":
        return this.backward(true);
      case "reverseContinue":
        return this.backward(false);
    }
  }

  /** Moves forward message by message until `arrived` or a breakpoint; past the last message is the end. */
  private async forward(arrived: (at: number) => boolean | Promise<boolean>, reason: StopReason): Promise<MoveResult> {
    if (this.atEnd) return { terminated: true };
    let steps = 0;
    for (;;) {
      const next = this.current + 1;
      const exists = await this.timeline.ensure(next);
      if (!exists) {
        if (this.current >= this.timeline.messages.length) return { terminated: true };
        if (this.filters.has("end") && !(await this.scored(this.timeline.messages.length - 1, 0, true))) return this.pausedAt(this.current);
        this.current = this.timeline.messages.length;
        const stop = this.stopAtEnd();
        return stop ? { stopped: stop } : this.finishedResult();
      }
      if (!(await this.scored(next, SCORE_AHEAD))) return this.pausedAt(this.current);
      this.current = next;
      this.countHits(next);
      const stop = this.stopAt(next);
      if (stop) return { stopped: stop };
      if (await arrived(next)) return { stopped: { reason, description: `Message ${next}`, hitBreakpointIds: [] } };
      if (this.pauseRequested) {
        this.pauseRequested = false;
        return { stopped: { reason: "pause", description: `Paused at message ${next}`, hitBreakpointIds: [] } };
      }
      if (++steps % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Step Back (one message) and Reverse Continue (to the previous breakpoint, or the first message). */
  private async backward(oneStep: boolean): Promise<MoveResult> {
    let at = Math.min(this.current, this.timeline.messages.length);
    let steps = 0;
    while (at > 0) {
      at--;
      if (!(await this.scored(at, oneStep ? 0 : -SCORE_AHEAD))) return this.pausedAt(at + 1);
      this.current = at;
      const stop = this.stopAt(at);
      if (stop) return { stopped: stop };
      if (oneStep) return { stopped: { reason: "step", description: `Message ${at}`, hitBreakpointIds: [] } };
      if (this.pauseRequested) {
        this.pauseRequested = false;
        return { stopped: { reason: "pause", description: `Paused at message ${at}`, hitBreakpointIds: [] } };
      }
      if (++steps % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    this.current = 0;
    return { stopped: { reason: "entry", description: "At the first message", hitBreakpointIds: [] } };
  }

  /** A pause that came while a message's scores were being computed: the stop is the message before it, fully checked. */
  private pausedAt(index: number): MoveResult {
    this.pauseRequested = false;
    this.current = Math.min(index, this.timeline.messages.length);
    return { stopped: { reason: "pause", description: `Paused at message ${this.messageIndex}`, hitBreakpointIds: [] } };
  }

  /**
   * Scores what the stop checks at message `index` need (milestone breakpoints, the minefield
   * filter, conditions reading the milestones), off the event loop. False: paused meanwhile.
   */
  private async scored(index: number, ahead: number, full = false): Promise<boolean> {
    const breakpoints = [...this.lineBreakpoints, ...this.functionBreakpoints].filter((b) => b.verified);
    const matching =
      this.filters.has("minefield") || breakpoints.some((b) => b.target?.kind === "line" && b.target.at.kind === "milestone");
    const reading = breakpoints.filter((b) => b.condition !== null && READS_MILESTONES.test(b.condition.text));
    try {
      if (matching || reading.length > 0) await this.scores.matchedHere(index, this.moveCancelled.promise, ahead);
      if (full || reading.some((b) => this.locationMatches(b, index))) await this.scores.result(index, this.moveCancelled.promise);
      return true;
    } catch (e) {
      if (e instanceof ScoringCancelled) return false;
      throw e;
    }
  }

  private finishedResult(): MoveResult {
    return { terminated: true };
  }

  /** The end position: a stop when "End of episode" is on, or when a model error ended it and that filter is on. */
  private stopAtEnd(): Stop | null {
    const end = this.timeline.end;
    const how = end ? `${end.reason}${end.detail ? `: ${end.detail}` : ""}` : "cut short (no end event)";
    if (this.filters.has("modelError") && end?.reason === "model_error") {
      return { reason: "exception", description: "Model error", text: `The episode ended: ${how}`, hitBreakpointIds: [] };
    }
    if (this.filters.has("end")) {
      const last = this.timeline.messages.length - 1;
      const score = endScoreLine(last >= 0 ? this.evaluationAt(last) : null, end?.reason ?? null);
      return { reason: "exception", description: "End of episode", text: `The episode ended: ${how}. ${score}`, hitBreakpointIds: [] };
    }
    return null;
  }

  /** Records, the first time a message is passed going forward, which hit it is for each breakpoint. */
  private countHits(index: number): void {
    if (index <= this.counted) return;
    this.counted = index;
    for (const bp of [...this.lineBreakpoints, ...this.functionBreakpoints]) {
      if (!bp.verified || bp.hits.has(index)) continue;
      if (!this.locationMatches(bp, index) || !this.conditionHolds(bp, index).holds) continue;
      bp.hits.set(index, bp.hits.size + 1);
    }
  }

  /** The stop at message `index`, if a breakpoint or an exception filter stops there. */
  private stopAt(index: number): Stop | null {
    const hitIds: number[] = [];
    let description = "";
    let text: string | undefined;
    let kind: StopReason = "breakpoint";
    let line: number | undefined;
    for (const bp of [...this.lineBreakpoints, ...this.functionBreakpoints]) {
      if (!bp.verified || !this.locationMatches(bp, index)) continue;
      const condition = this.conditionHolds(bp, index);
      if (!condition.holds) continue;
      const ordinal = bp.hits.get(index);
      // A message passed before the breakpoint was set has no hit number: a hit-counted breakpoint does not stop there.
      if (bp.hit && !(ordinal !== undefined && hitMatches(bp.hit, ordinal))) continue;
      hitIds.push(bp.id);
      if (description === "") {
        description = this.describeTarget(bp);
        kind = bp.target?.kind === "function" ? "function breakpoint" : "breakpoint";
        if (bp.target?.kind === "line") line = bp.line;
        if (condition.error) text = condition.error;
      }
    }
    if (hitIds.length > 0)
      return { reason: kind, description, hitBreakpointIds: hitIds, ...(text ? { text } : {}), ...(line !== undefined ? { line } : {}) };
    const exception = this.exceptionAt(index);
    if (exception) return { reason: "exception", description: exception.label, text: exception.text, hitBreakpointIds: [] };
    return null;
  }

  private describeTarget(bp: Breakpoint): string {
    const target = bp.target;
    if (!target) return "Breakpoint";
    if (target.kind === "function") return target.at.kind === "turn" ? `User turn ${target.at.turn}` : `Message ${target.at.index}`;
    const at = target.at;
    switch (at.kind) {
      case "milestone":
        return at.list === "milestones" ? `Milestone ${at.id} matched` : `Minefield ${at.id} hit`;
      case "tool":
        return `Call of ${at.name}`;
      case "reference":
        return at.call === null ? `Reference step ${at.step + 1}` : `Reference step ${at.step + 1}, call ${at.call + 1}`;
      case "demonstration":
        return `Demonstration ${at.demo + 1}, message ${at.message + 1}`;
      case "opening":
        return "Opening message";
    }
  }

  private locationMatches(bp: Breakpoint, index: number): boolean {
    const target = bp.target;
    if (!target) return false;
    const message = this.timeline.messages[index];
    if (!message) return false;
    if (target.kind === "function") {
      if (target.at.kind === "message") return target.at.index === index;
      return this.origins.turnStart(target.at.turn, index) === index;
    }
    return this.lineMatches(target.at, message, index);
  }

  private lineMatches(target: LineTarget, message: Message, index: number): boolean {
    switch (target.kind) {
      case "milestone": {
        const here = this.matchedHere(index);
        return (target.list === "milestones" ? here?.milestones : here?.minefields)?.includes(target.id) ?? false;
      }
      case "tool":
        return message.sender === "agent" && message.recipient === "execution_environment" && this.toolNameOf(message) === target.name;
      case "reference": {
        const origin = this.origins.originOf(index);
        if (origin.kind !== "reference" || origin.response || origin.step !== target.step) return false;
        // A breakpoint on a whole step stops at its first message only.
        return target.call === null ? origin.call === null || origin.call === 0 : origin.call === target.call;
      }
      case "demonstration": {
        const origin = this.origins.originOf(index);
        return origin.kind === "demonstration" && origin.demo === target.demo && origin.message === target.message;
      }
      case "opening":
        return this.origins.originOf(index).kind === "opening";
    }
  }

  /** The real tool a request runs (a scrambled name as the agent saw it is mapped back). */
  toolNameOf(message: Message): string {
    const name = message.tool_call?.name ?? message.openai_function_name ?? "";
    this.agentTools ??= callableTools(this.timeline.scenario, "agent");
    return this.agentTools.get(name)?.name ?? name;
  }

  private conditionHolds(bp: Breakpoint, index: number): { holds: boolean; error?: string } {
    if (!bp.condition) return { holds: true };
    try {
      return { holds: bp.condition.holds(this.resolver(index)) };
    } catch (e) {
      // A condition that cannot be evaluated stops, and says why: silently never stopping hides the mistake.
      if (e instanceof ExpressionError) return { holds: true, error: `The condition "${bp.condition.text}" failed: ${e.message}` };
      throw e;
    }
  }

  private exceptionAt(index: number): { label: string; text: string } | null {
    const message = this.timeline.messages[index]!;
    if (this.filters.has("toolError") && message.sender === "execution_environment" && message.tool_call_exception !== null) {
      return { label: "Tool error", text: `${message.openai_function_name ?? "tool"}: ${message.tool_call_exception}` };
    }
    if (this.filters.has("minefield")) {
      const hit = this.matchedHere(index)?.minefields[0];
      if (hit !== undefined) return { label: "Minefield hit", text: `Minefield ${hit} matches message ${index}` };
    }
    if (this.filters.has("modelError")) {
      const failed = this.timeline.modelCallsAt(index).find((c) => c.call.error !== undefined);
      if (failed) return { label: "Model error", text: `The ${failed.role}'s model call failed: ${failed.call.error}` };
    }
    if (this.filters.has("knowledgeLeak")) {
      const leak = knowledgeLeak(message, this.timeline.scenario.user.knowledge);
      if (leak !== null) return { label: "Knowledge leak", text: `The user revealed "${leak}", which it must never reveal` };
    }
    return null;
  }

  /** Whether message `index` is the last of its turn (the next one starts a turn, or there is none). */
  private async endsTurn(index: number): Promise<boolean> {
    if (!(await this.timeline.ensure(index + 1))) return true;
    return this.isTurnStart(this.timeline.messages[index + 1]!, index + 1);
  }

  private isTurnStart(message: Message, index: number): boolean {
    return index >= this.timeline.firstUserIndex() && message.sender === "user" && message.recipient === "agent";
  }

  /** The last index of the parallel batch `index` is in (consecutive requests, or the responses to them). */
  private batchEnd(index: number): number {
    const messages = this.timeline.messages;
    const m = messages[index];
    if (!m || !(isRequest(m) || isResponse(m))) return index;
    const same = isRequest(m) ? isRequest : isResponse;
    let end = index;
    while (messages[end + 1] && same(messages[end + 1]!)) end++;
    return end;
  }

  /** The ids the messages up to `index` match at `index` itself: scored already by scored(), else here and now. */
  private matchedHere(index: number): MatchedHere | null {
    const known = this.scores.matchedHereNow(index);
    if (known !== undefined) return known;
    const result = this.evaluationAt(index);
    return result ? matchedHere(result, index) : null;
  }

  /**
   * The evaluation of the messages up to and including `index`: prepared off the event loop by
   * prepareEvaluation() (every request that shows it awaits that first); scored here and now, on
   * this thread, only by a caller that did not.
   */
  evaluationAt(index: number): EvaluationResult | null {
    const prepared = this.scores.resultNow(index);
    if (prepared !== undefined) return prepared;
    if (this.evaluationCache?.index === index) return this.evaluationCache.result;
    let result: EvaluationResult | null = null;
    try {
      const messages = this.timeline.messages.slice(0, index + 1);
      result = evaluate(this.timeline.scenario, messages, (i) => this.timeline.world.at(i), this.timeline.firstUserIndex(), {
        endReason: index >= this.timeline.messages.length - 1 ? (this.timeline.end?.reason ?? null) : null,
      });
    } catch (e) {
      if (!(e instanceof EvaluationError)) throw e;
      if (!this.ownWarnings.includes(e.message)) this.ownWarnings.push(e.message);
    }
    this.evaluationCache = { index, result };
    return result;
  }

  worldAt(index: number): Tables {
    return this.timeline.world.at(index);
  }

  /** The names an expression may use at message `index`: message, index, turn, milestones, world and each table. */
  resolver(index: number): NameResolver {
    const timeline = this.timeline;
    return (name) => {
      const message = timeline.messages[index];
      switch (name) {
        case "message":
          return message ? messageValue(message) : null;
        case "index":
          return index;
        case "turn":
          return this.origins.turnOf(index);
        case "milestones":
          return milestonesValue(this.evaluationAt(index));
        case "world":
          return tablesValue(timeline.world.at(index));
        case "end":
          return timeline.end && index >= timeline.messages.length - 1 ? timeline.end.reason : null;
      }
      const tables = timeline.world.at(index);
      // Own tables only: a name such as "constructor" is not a way into the object's prototype.
      return Object.hasOwn(tables, name) ? (tables[name] as unknown as ExprValue) : undefined;
    };
  }
}

function isRequest(m: Message): boolean {
  return m.sender === "agent" && m.recipient === "execution_environment";
}

function isResponse(m: Message): boolean {
  return m.sender === "execution_environment" && m.recipient === "agent";
}

/** The value of a knowledge fact marked reveal: never that a user message contains, or null. */
function knowledgeLeak(message: Message, facts: readonly { readonly value: string | null; readonly reveal: string }[]): string | null {
  if (message.sender !== "user" || message.scripted) return null;
  const content = message.content.toLowerCase();
  for (const fact of facts) {
    if (fact.reveal === "never" && fact.value !== null && fact.value !== "" && content.includes(fact.value.toLowerCase()))
      return fact.value;
  }
  return null;
}

function messageValue(message: Message): ExprValue {
  return JSON.parse(JSON.stringify(message)) as JsonValue as ExprValue;
}

function tablesValue(tables: Tables): ExprValue {
  return tables as unknown as ExprValue;
}

function milestonesValue(result: EvaluationResult | null): ExprValue {
  const out: Record<string, ExprValue> = {};
  for (const node of [...(result?.milestones ?? []), ...(result?.minefields ?? [])]) {
    out[node.id] = { matched: node.matched_at !== null, matched_at: node.matched_at, similarity: node.similarity };
  }
  return out;
}

function cancelSignal(): { readonly promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
