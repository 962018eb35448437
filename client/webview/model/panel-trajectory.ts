// The trajectory the panel shows, built one line at a time: the same whether the lines come from a
// live run or a saved file. Like the engine's TrajectoryBuilder it refuses a line that does not
// fit (a message out of order, a change that does not apply to the world as it stands), so every
// view can trust it; unlike the builder it accepts a later evaluation that replaces the first
// (the host re-scored the trajectory after a milestone was edited).
import type { Message } from "../../../engine/episode/types.js";
import { effectiveTurnCount } from "../../../engine/evaluation/turn-count.js";
import { addTelemetry, NO_TELEMETRY, telemetryTotals, type TelemetryTotals } from "../../../engine/trajectory/telemetry-totals.js";
import { packTables } from "../../../engine/packs/tables.js";
import { applyChanges, changeConflict } from "../../../engine/world/changes.js";
import { WorldHistory } from "../../../engine/world/world-history.js";
import type { RowChange, TableSchema, Tables } from "../../../engine/world/types.js";
import type { NodeKind, PanelEvaluation, PanelHeader, PanelJudgement, PanelLine } from "../../../engine/panel/protocol.js";
import type { NodeResult } from "../../../engine/evaluation/result.js";
import type { Rescored } from "../../../engine/panel/score-source.js";
import type { DialogToolReport, ScoredDialogToolTurn } from "../../../engine/benchmarks/dialogtool/tasks/types.js";

export class LineOrderError extends Error {}

type PanelEnd = Extract<PanelLine, { type: "end" }>;
export type PanelModelCall = Extract<PanelLine, { type: "model_call" }>;

/** A milestone or minefield result pinned to a message: where it matched, or its closest miss. */
export interface NodeMark {
  readonly kind: NodeKind;
  readonly node: NodeResult;
  readonly matched: boolean;
}

export class PanelTrajectory {
  private readonly messageList: Message[] = [];
  /** The world tables of the header's pack (checked at the wire). */
  readonly schemas: ReadonlyMap<string, TableSchema>;
  private readonly history: WorldHistory;
  private current: Tables;
  private readonly changes = new Map<number, RowChange[]>();
  private endLine: PanelEnd | null = null;
  private evaluationResult: PanelEvaluation | null = null;
  private judgementLine: PanelJudgement | null = null;
  private marks = new Map<number, NodeMark[]>();
  /** Model calls by the index of the first message they produced (a failed call's index has none). */
  private readonly calls = new Map<number, PanelModelCall[]>();
  private callTotals: TelemetryTotals = NO_TELEMETRY;
  private firstReal: number | undefined;
  /** DialogTool's scores of the run, by the index where each agent turn starts; null until the host sends them. */
  private dialogTool: { readonly report: DialogToolReport; readonly byIndex: ReadonlyMap<number, readonly ScoredDialogToolTurn[]> } | null =
    null;
  private searchTexts: string[] = [];

  constructor(readonly header: PanelHeader) {
    this.current = header.scenario.world.tables;
    this.schemas = packTables(header.scenario.world.pack).schemas;
    this.history = new WorldHistory(this.schemas, this.current);
  }

  get messages(): readonly Message[] {
    return this.messageList;
  }

  get end(): PanelEnd | null {
    return this.endLine;
  }

  get evaluation(): PanelEvaluation | null {
    return this.evaluationResult;
  }

  /** The role-play judge's verdict (`run --judge` on a scenario with a persona); null when there is none. */
  get judgement(): PanelJudgement | null {
    return this.judgementLine;
  }

  /** The turn count the evaluation reports, or, before there is one, the count so far. */
  get turnCount(): number {
    return this.evaluationResult?.turn_count ?? effectiveTurnCount(this.messageList);
  }

  /** Adds one line after the header; throws LineOrderError (and changes nothing) when it does not fit. */
  add(line: Exclude<PanelLine, PanelHeader>): void {
    if (line.type === "evaluation") {
      this.setEvaluation(line.result);
      return;
    }
    if (line.type === "judgement") {
      // The judge rates the finished run; a later verdict (the file reloaded) replaces the first.
      if (!this.endLine) throw new LineOrderError('a "judgement" line arrived before the end of the run');
      this.judgementLine = line;
      return;
    }
    if (this.endLine) throw new LineOrderError(`a "${line.type}" line follows the end of the run`);
    switch (line.type) {
      case "message":
        this.addMessage(line.message);
        break;
      case "world":
        this.addChanges(line.index, line.changes);
        break;
      case "model_call":
        if (line.index !== this.messageList.length) {
          throw new LineOrderError(`a model call for message ${line.index} arrived where message ${this.messageList.length} was next`);
        }
        this.calls.set(line.index, [...(this.calls.get(line.index) ?? []), line]);
        this.callTotals = addTelemetry(this.callTotals, telemetryTotals([line]));
        break;
      case "end":
        if (line.message_count !== this.messageList.length) {
          throw new LineOrderError(`the end counts ${line.message_count} messages but ${this.messageList.length} arrived`);
        }
        this.endLine = line;
        break;
    }
  }

  /** The world as it was when message `index` was on the bus. */
  worldAt(index: number): Tables {
    return this.history.at(index);
  }

  /** The row changes recorded at message `index` (made while answering the messages before it). */
  changesAt(index: number): readonly RowChange[] {
    return this.changes.get(index) ?? [];
  }

  /**
   * The index of the first real user message (the scripted opening the agent sees): everything
   * before it is setup (system prompts, demonstrations). Null until it has arrived.
   */
  get setupEnd(): number | null {
    if (this.firstReal === undefined) {
      const at = this.messageList.findIndex((m) => m.sender === "user" && m.recipient === "agent" && m.visible_to.includes("agent"));
      if (at === -1) return null;
      this.firstReal = at;
    }
    return this.firstReal;
  }

  /** The messages the evaluation scored (its window), or before there is one, from the first real user message on. */
  get scoredWindow(): { readonly first: number; readonly last: number } | null {
    if (this.evaluationResult) return this.evaluationResult.window;
    const first = this.setupEnd;
    return first === null ? null : { first, last: this.messageList.length - 1 };
  }

  /**
   * Where a finished run is best read: the earliest message of a milestone that failed (not
   * matched: its closest miss; or matched below similarity 1) or of a minefield stepped on; null
   * when everything passed or nothing is scored yet.
   */
  firstFailure(): number | null {
    const e = this.evaluationResult;
    if (!e) return null;
    const at: number[] = [];
    for (const m of e.milestones) {
      const where = m.matched_at ?? m.explained_at;
      if (where !== null && (m.matched_at === null || m.similarity < 1)) at.push(where);
    }
    for (const m of e.minefields) if (m.matched_at !== null) at.push(m.matched_at);
    return at.length === 0 ? null : Math.min(...at);
  }

  /** The model calls made for message `index` (the call that produced it, and failed calls before it). */
  callsAt(index: number): readonly PanelModelCall[] {
    return this.calls.get(index) ?? [];
  }

  /** The run's model calls summed (all zero for a scripted run). */
  get telemetry(): TelemetryTotals {
    return this.callTotals;
  }

  /** Set while the evaluation shown is a re-score against another version of the scenario (the host says so after it). */
  rescored: Rescored | null = null;

  /** DialogTool's per-turn scores for this run (replacing any sent before). */
  setDialogTool(report: DialogToolReport): void {
    const byIndex = new Map<number, ScoredDialogToolTurn[]>();
    for (const t of report.turns) byIndex.set(t.index, [...(byIndex.get(t.index) ?? []), t]);
    this.dialogTool = { report, byIndex };
  }

  get dialogToolMetrics(): DialogToolReport["metrics"] | null {
    return this.dialogTool?.report.metrics ?? null;
  }

  /** The agent turn that starts at message `index`, scored; reference turns the agent never took sit where their dialogue turn ended. */
  dialogToolAt(index: number): readonly ScoredDialogToolTurn[] {
    return this.dialogTool?.byIndex.get(index) ?? [];
  }

  marksAt(index: number): readonly NodeMark[] {
    return this.marks.get(index) ?? [];
  }

  /** Message indices where a milestone or minefield matched, ascending. */
  matchIndices(): number[] {
    return [...this.marks.entries()]
      .filter(([, marks]) => marks.some((m) => m.matched))
      .map(([i]) => i)
      .sort((a, b) => a - b);
  }

  /** Lower-cased text a search looks through: the content, the tool call and the error. */
  searchText(index: number): string {
    let text = this.searchTexts[index];
    if (text === undefined) {
      const m = this.messageList[index];
      if (!m) return "";
      const call = m.tool_call;
      // A call message's content is the engine's rendering of the call; the panel shows (and searches) the call itself.
      const parts = [call ? "" : m.content, m.tool_call_exception ?? "", m.openai_function_name ?? ""];
      if (call) parts.push(call.name, call.arguments !== undefined ? JSON.stringify(call.arguments) : (call.raw_arguments ?? ""));
      text = parts.join("\n").toLowerCase();
      this.searchTexts[index] = text;
    }
    return text;
  }

  private addMessage(message: Message): void {
    const expected = this.messageList.length;
    if (message.sandbox_message_index !== expected) {
      throw new LineOrderError(`message ${message.sandbox_message_index} arrived where message ${expected} was expected`);
    }
    this.messageList.push(message);
  }

  private addChanges(index: number, changes: readonly RowChange[]): void {
    const latest = this.history.latest().index;
    if (index < latest) throw new LineOrderError(`world changes at message ${index} arrived after changes at message ${latest}`);
    if (index > this.messageList.length) {
      throw new LineOrderError(`world changes at message ${index} are ahead of the messages (${this.messageList.length} so far)`);
    }
    // Check every change before keeping any, so a bad line leaves the world as it was.
    let tables = this.current;
    changes.forEach((change, i) => {
      const problem = changeConflict(tables, change);
      if (problem) throw new LineOrderError(`world change ${i} (${change.op} ${change.table} row ${change.position}): ${problem}`);
      tables = applyChanges(tables, [change]);
    });
    this.current = tables;
    this.history.commit(index, tables, changes);
    this.changes.set(index, [...(this.changes.get(index) ?? []), ...changes]);
  }

  private setEvaluation(result: PanelEvaluation): void {
    this.evaluationResult = result;
    const marks = new Map<number, NodeMark[]>();
    const pin = (kind: NodeKind, node: NodeResult): void => {
      // A milestone that never matched is pinned at its closest miss, which is where to look; a
      // minefield that was not stepped on needs no marker.
      const at = kind === "milestone" ? (node.matched_at ?? node.explained_at) : node.matched_at;
      if (at === null) return;
      marks.set(at, [...(marks.get(at) ?? []), { kind, node, matched: node.matched_at !== null }]);
    };
    for (const node of result.milestones) pin("milestone", node);
    for (const node of result.minefields) pin("minefield", node);
    this.marks = marks;
  }
}
