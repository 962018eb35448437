// The Debug Adapter Protocol side of the debugger (type `toolsandbox`): requests from the client
// (VS Code, nvim-dap, dape) become calls on DebugSession, and its stops become events. It runs
// inline in the extension and standalone as `toolsandbox dap` over stdio. Everything a client
// sends is checked here before use (launch arguments in launch-arguments.ts, breakpoint lines,
// expressions); the moves and their stops are stepping.ts's.
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import {
  ExitedEvent,
  InitializedEvent,
  DebugSession as ProtocolSession,
  OutputEvent,
  ProgressEndEvent,
  ProgressStartEvent,
  ProgressUpdateEvent,
  Response,
  Scope as DapScope,
  Source,
  StackFrame,
  TerminatedEvent,
  Thread,
} from "@vscode/debugadapter";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { formatDiagnostic } from "../base/diagnostics.js";
import { errorMessage } from "../base/text.js";
import { checkLaunchArguments, type LaunchArguments } from "./launch-arguments.js";
import { ScoringCancelled, type ScoringProgress } from "./prefix-scores.js";
import { Stepping } from "./stepping.js";
import type { RoleSpec } from "../runner/role-specs.js";
import { loadScenarioFile } from "../scenario/load.js";
import type { Scenario } from "../scenario/model.js";
import { formatWarning, TrajectoryError } from "../trajectory/errors.js";
import { EXCEPTION_FILTERS, isExceptionFilter, type Breakpoint } from "./breakpoints.js";
import { evaluateExpression, runConsoleLine, type ConsoleResult } from "./console.js";
import { consoleCompletions } from "./console-completion.js";
import { ColumnValues, type ExprValue } from "./expressions.js";
import { type Frame, FrameReader } from "./framing.js";
import { EPISODE_THREAD_ID, requestProblem } from "./request-checks.js";
import { DebugSession } from "./debug-session.js";
import { ScenarioSourceMap } from "./source-map.js";
import { LiveTimeline, type LiveObserver, ReplayTimeline } from "./timeline.js";
import { jsonNode, scopes, type VarNode } from "./variables.js";

const THREAD_ID = EPISODE_THREAD_ID;

/** Why a standalone adapter (`toolsandbox dap`) stopped: the CLI's exit code and last line come from it. */
type AdapterEnd =
  | { readonly kind: "disconnected" }
  | { readonly kind: "input-closed" }
  | { readonly kind: "protocol-error"; readonly problem: string }
  | { readonly kind: "signal"; readonly signal: string };

export { STOPPED_AT_EVENT, type StoppedAt } from "./stepping.js";

/** Turns the launch's role ids (and endpoints) into what the runner plays; the CLI supplies one that reads model settings. */
type RoleResolver = (args: LaunchArguments) => { agent: string | RoleSpec; user: string | RoleSpec };

const isTrajectoryFile = (path: string): boolean => path.endsWith(".jsonl");

export class ToolSandboxDebugAdapter extends ProtocolSession {
  private session: DebugSession | null = null;
  private configured!: () => void;
  private readonly configurationDone = new Promise<void>((resolve) => {
    this.configured = resolve;
  });
  /** Expandable values handed out since the last stop; a reference is its index + 1. */
  private handles: Handle[] = [];
  /** Settles when the session leaves the stop the handles are for: a Milestones scope still being scored is let go. */
  private leftStop = settleOnce();
  /** The client shows DAP progress (its initialize said so); else a long scoring is told in the console. */
  private progressEvents = false;
  private readonly stepping = new Stepping({
    currentSession: () => this.session,
    sendResponse: (r) => this.sendResponse(r),
    sendEvent: (e) => this.sendEvent(e),
    fail: (r, m) => this.fail(r, m),
    sendTerminated: () => this.sendTerminated(),
    leaveStop: () => {
      this.handles = [];
      this.leftStop.settle();
      this.leftStop = settleOnce();
    },
  });
  /** A launch was asked for: a debug session plays one episode. */
  private launched = false;
  private terminatedSent = false;
  private ending = false;
  private announceEnd!: (end: AdapterEnd) => void;
  /** Settles once the adapter has stopped for good, its live episode closed (ended, scored, its agent's processes gone). */
  readonly ended = new Promise<AdapterEnd>((resolve) => {
    this.announceEnd = resolve;
  });

  /**
   * `observer` (inline use only) sees a live session's trajectory as it is written, for the
   * extension's panel; `toolsandbox dap` has none and speaks nothing but DAP.
   */
  constructor(
    private readonly resolveRoles: RoleResolver = (args) => ({ agent: args.agent, user: args.user }),
    private readonly cwd: string = process.cwd(),
    private readonly observer?: LiveObserver,
  ) {
    super();
    this.setDebuggerLinesStartAt1(false);
    this.setDebuggerColumnsStartAt1(false);
  }

  /**
   * Reads `input` with a strict frame reader (framing.ts) instead of the library's, which skips
   * what it cannot parse; the library still writes the output.
   */
  override start(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): void {
    super.start(new PassThrough(), output);
    const reader = new FrameReader();
    input.on("data", (chunk: Buffer | string) => {
      for (const frame of reader.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)) this.onFrame(frame);
    });
    const closed = (): void => {
      const left = reader.leftover();
      void this.endSession(left === null ? { kind: "input-closed" } : { kind: "protocol-error", problem: left });
    };
    input.on("end", closed);
    input.on("close", closed);
    input.on("error", closed);
  }

  /**
   * Ends the session for good (a signal, the input's end, a bad frame): a live episode is cancelled,
   * its trajectory gets its end line and score and a `cmd:` agent's process group is killed; the
   * client is told (`exited`, `terminated`) while it may still listen. Once only.
   */
  async endSession(end: AdapterEnd): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    if (end.kind === "protocol-error") this.print(`The debug session ends: ${end.problem}.`, "stderr");
    await this.closeSession();
    this.sendTerminated();
    this.announceEnd(end);
  }

  /** The library's shutdown (its streams' close or error, its default disconnect) is ours. */
  override shutdown(): void {
    void this.endSession({ kind: "input-closed" });
  }

  private onFrame(frame: Frame): void {
    if (this.ending) return;
    if (frame.kind !== "message") {
      void this.endSession({ kind: "protocol-error", problem: frame.problem });
      return;
    }
    const m = frame.message;
    if (m.type === "response") return; // the adapter sends no requests of its own
    if (m.type !== "request" || typeof m.seq !== "number") {
      void this.endSession({
        kind: "protocol-error",
        problem: `a message that is not a request (type ${JSON.stringify(m.type ?? null)}, seq ${JSON.stringify(m.seq ?? null)})`,
      });
      return;
    }
    if (typeof m.command !== "string") {
      const response = new Response({ seq: m.seq, type: "request", command: String(m.command ?? "") });
      this.fail(response, "the request has no command");
      return;
    }
    this.handleMessage(m as unknown as DebugProtocol.Request);
  }

  /** Every request's arguments are checked before its handler reads them; a request not announced is refused. */
  protected override dispatchRequest(request: DebugProtocol.Request): void {
    const problem = requestProblem(request.command, request.arguments);
    if (problem !== null) {
      this.fail(new Response(request), `${request.command}: ${problem}`);
      return;
    }
    super.dispatchRequest(request.arguments === undefined ? { ...request, arguments: {} } : request);
  }

  /** The library answers a handler's exception with its stack; the message alone is what a client is shown. */
  protected override sendErrorResponse(
    response: DebugProtocol.Response,
    codeOrMessage: number | DebugProtocol.Message,
    format?: string,
    variables?: unknown,
  ): void {
    const raw = typeof codeOrMessage === "number" ? (format ?? "") : codeOrMessage.format;
    const vars = (typeof variables === "object" && variables !== null ? variables : {}) as Record<string, unknown>;
    const text =
      raw === "{_stack}" ? String(vars._exception ?? "internal error") : raw.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ""));
    this.fail(response, `${response.command}: ${text}`);
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse, args: DebugProtocol.InitializeRequestArguments): void {
    this.progressEvents = args.supportsProgressReporting === true;
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsFunctionBreakpoints: true,
      supportsStepBack: true,
      supportsEvaluateForHovers: false,
      supportsExceptionInfoRequest: true,
      supportsTerminateRequest: true,
      supportsDelayedStackTraceLoading: true,
      supportsCompletionsRequest: true,
      completionTriggerCharacters: ["."],
      exceptionBreakpointFilters: EXCEPTION_FILTERS.map((f) => ({
        filter: f.filter,
        label: f.label,
        description: f.description,
        default: false,
      })),
    };
    this.sendResponse(response);
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.configured();
    this.sendResponse(response);
  }

  protected override async launchRequest(response: DebugProtocol.LaunchResponse, raw: DebugProtocol.LaunchRequestArguments): Promise<void> {
    if (this.launched) {
      this.fail(response, "this debug session has launched its episode already; start another debug session for another");
      return;
    }
    this.launched = true;
    const args = checkLaunchArguments(raw, this.cwd);
    if (typeof args === "string") {
      this.fail(response, args);
      return;
    }
    let session: DebugSession;
    try {
      session = isTrajectoryFile(args.program) ? this.replaySession(args) : this.liveSession(args);
    } catch (e) {
      this.fail(response, launchProblem(e, args.program));
      return;
    }
    this.session = session;
    session.scores.progress = this.scoringProgress();
    // Breakpoints come after this event, so they bind against what was just loaded.
    this.sendEvent(new InitializedEvent());
    await this.configurationDone;
    this.sendResponse(response);
    const where = session.timeline.replay ? `Replaying ${session.timeline.trajectoryPath}` : `Playing ${session.timeline.scenario.name}`;
    this.print(`${where} (${session.timeline.messages.length} messages so far); trajectory: ${session.timeline.trajectoryPath}`);
    await this.stepping.report(session, session.start(args.stopOnEntry));
  }

  private replaySession(args: LaunchArguments): DebugSession {
    const timeline = ReplayTimeline.read(args.program);
    for (const warning of timeline.warnings) this.print(formatWarning(args.program, warning), "stderr");
    const file = args.scenario ?? findScenarioFile(args.program, timeline.scenario.name);
    if (!file)
      this.print(
        `No scenario file found for ${timeline.scenario.name}: line breakpoints stay unverified (set "scenario" in the launch configuration).`,
      );
    return new DebugSession(timeline, file ? sourceMapFor(file, timeline.scenario) : null);
  }

  private liveSession(args: LaunchArguments): DebugSession {
    const scenario = checkedScenario(args.program);
    const roles = this.resolveRoles(args);
    const timeline = new LiveTimeline({
      scenario,
      scenarioFile: args.program,
      agent: roles.agent,
      user: roles.user,
      seed: args.seed,
      outDir: args.out ?? join(dirname(args.program), ".toolsandbox", "runs"),
      ...(this.observer ? { observer: this.observer } : {}),
    });
    return new DebugSession(timeline, sourceMapFor(args.program, scenario, readFileSync(args.program, "utf8")));
  }

  protected override setBreakPointsRequest(
    response: DebugProtocol.SetBreakpointsResponse,
    args: DebugProtocol.SetBreakpointsArguments,
  ): void {
    const session = this.session;
    const lines = (args.breakpoints ?? []).map((b) => ({
      line: this.convertClientLineToDebugger(b.line),
      ...(b.condition === undefined ? {} : { condition: b.condition }),
      ...(b.hitCondition === undefined ? {} : { hitCondition: b.hitCondition }),
    }));
    if (!session) {
      // Clients set breakpoints after the initialized event, which comes once the launch has loaded.
      response.body = { breakpoints: lines.map((l) => this.dapBreakpoint(unboundBreakpoint(l.line, "the debug session has not started"))) };
      this.sendResponse(response);
      return;
    }
    const path = args.source.path ? resolve(this.convertClientPathToDebugger(args.source.path)) : null;
    const own = session.sourceMap && path !== null && samePath(path, session.sourceMap.file);
    if (!own) {
      // Left where the client put them: their source is the client's own, not the scenario.
      const elsewhere = lines.map((l) => unboundBreakpoint(l.line, "this file is not the scenario of this debug session"));
      response.body = { breakpoints: elsewhere.map((b) => ({ ...this.dapBreakpoint(b, null), source: args.source })) };
      this.sendResponse(response);
      return;
    }
    const bound = session.setLineBreakpoints(lines);
    response.body = { breakpoints: bound.map((b) => this.dapBreakpoint(b)) };
    this.sendResponse(response);
  }

  protected override setFunctionBreakPointsRequest(
    response: DebugProtocol.SetFunctionBreakpointsResponse,
    args: DebugProtocol.SetFunctionBreakpointsArguments,
  ): void {
    const bound = this.session?.setFunctionBreakpoints(args.breakpoints.map((b) => ({ ...b }))) ?? [];
    response.body = { breakpoints: bound.map((b) => this.dapBreakpoint(b)) };
    this.sendResponse(response);
  }

  protected override setExceptionBreakPointsRequest(
    response: DebugProtocol.SetExceptionBreakpointsResponse,
    args: DebugProtocol.SetExceptionBreakpointsArguments,
  ): void {
    const unknown = args.filters.filter((f) => !isExceptionFilter(f));
    this.session?.setExceptionFilters(args.filters.filter(isExceptionFilter));
    response.body = { breakpoints: args.filters.map((f) => ({ verified: !unknown.includes(f) })) };
    this.sendResponse(response);
  }

  /** `file`: the scenario's file the breakpoint is in (by default the session's); null: none of ours. */
  private dapBreakpoint(b: Breakpoint, file: string | null | undefined = this.session?.sourceMap?.file): DebugProtocol.Breakpoint {
    const out: DebugProtocol.Breakpoint = { id: b.id, verified: b.verified };
    if (b.line !== undefined) out.line = this.convertDebuggerLineToClient(b.line);
    if (b.message !== undefined) out.message = b.message;
    if (b.line !== undefined && file) out.source = this.source(file);
    return out;
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = { threads: [new Thread(THREAD_ID, "episode")] };
    this.sendResponse(response);
  }

  /** One frame per turn: the current message on top, then the first message of each earlier turn. */
  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    const session = this.session;
    if (!session) {
      this.fail(response, "no episode is being debugged");
      return;
    }
    const index = session.messageIndex;
    const turn = session.origins.turnOf(index);
    const starts = session.origins.turnStarts(index);
    const frames: number[] = [index];
    for (let t = turn - 1; t >= 1; t--) frames.push(starts[t - 1]!);
    if (turn >= 1) frames.push(0);
    const first = args.startFrame ?? 0;
    const count = args.levels && args.levels > 0 ? args.levels : frames.length;
    const shown = frames.slice(first, first + count).map((at, i) => this.frame(session, at, i + first === 0));
    response.body = { stackFrames: shown, totalFrames: frames.length };
    this.sendResponse(response);
  }

  private frame(session: DebugSession, index: number, top: boolean): StackFrame {
    const message = session.timeline.messages[index];
    const turn = session.origins.turnOf(index);
    // "user turn": the stretch a user message to the agent opens (upstream's multiple-user-turn
    // sense); upstream's turn count, the header's, counts role messages and is not a frame.
    const label = turn === 0 ? "set-up" : `user turn ${turn}`;
    const what = message ? `#${index} ${message.sender} → ${message.recipient}: ${summary(message.content)}` : `#${index}`;
    const ended = top && session.atEnd ? " (episode ended)" : "";
    const map = session.sourceMap;
    // A line breakpoint's stop is shown on the breakpoint's own line (a milestone's `- id:`, which
    // stands for no one message); every other frame on the line its message came from.
    const lastStop = this.stepping.lastStop;
    const stopLine = top && lastStop?.line !== undefined ? lastStop.line : null;
    const line = map ? (stopLine ?? map.lineOf(session.origins.originOf(index))) : null;
    // Frame ids are message index + 1: each frame's scopes show the world at its message.
    const frame = new StackFrame(index + 1, `${label} · ${what}${ended}`);
    if (map && line !== null) {
      frame.source = this.source(map.file);
      frame.line = this.convertDebuggerLineToClient(line);
      frame.column = this.convertDebuggerColumnToClient(0);
    } else {
      frame.line = 0;
      frame.column = 0;
    }
    return frame;
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const session = this.session;
    if (!session) {
      this.fail(response, "no episode is being debugged");
      return;
    }
    const index = Math.max(0, args.frameId - 1);
    response.body = {
      scopes: scopes(session, index).map((s) => new DapScope(s.name, this.handle(s.children, s.evaluationAt), s.expensive)),
    };
    this.sendResponse(response);
  }

  /** A scope that shows the evaluation (Milestones) is answered once it is scored, off the event loop. */
  protected override async variablesRequest(
    response: DebugProtocol.VariablesResponse,
    args: DebugProtocol.VariablesArguments,
  ): Promise<void> {
    const handle = this.handles[args.variablesReference - 1];
    if (handle?.evaluationAt !== undefined && this.session) {
      try {
        await this.session.prepareEvaluation(handle.evaluationAt, this.leftStop.promise);
      } catch (e) {
        if (!(e instanceof ScoringCancelled)) throw e;
        this.fail(response, "the session has moved on from this stop");
        return;
      }
      for (const warning of this.session.takeWarnings()) this.print(`Cannot score the milestones: ${warning}`, "stderr");
    }
    const nodes = handle ? handle.children() : [];
    const start = args.start ?? 0;
    const shown = args.count ? nodes.slice(start, start + args.count) : nodes.slice(start);
    response.body = {
      variables: shown.map((n) => ({
        name: n.name,
        value: n.value,
        variablesReference: n.children ? this.handle(n.children) : 0,
        ...(n.evaluateName === undefined ? {} : { evaluateName: n.evaluateName }),
      })),
    };
    this.sendResponse(response);
  }

  private handle(children: () => readonly VarNode[], evaluationAt?: number): number {
    this.handles.push(evaluationAt === undefined ? { children } : { children, evaluationAt });
    return this.handles.length;
  }

  /** The Debug Console's completion: names, tools, and after a dot the fields of what is before it. */
  protected override async completionsRequest(
    response: DebugProtocol.CompletionsResponse,
    args: DebugProtocol.CompletionsArguments,
  ): Promise<void> {
    const session = this.session;
    if (!session) {
      this.fail(response, "no episode is being debugged");
      return;
    }
    // `milestones.` completes the ids of the evaluation so far: scored first, off the event loop.
    if (!(await this.evaluationReady(response, args.text))) return;
    // DAP columns count UTF-16 code units from the client's base (1 unless it said otherwise).
    const column = this.convertClientColumnToDebugger(args.column);
    const targets = consoleCompletions(session, args.text, column).map((c) => ({
      label: c.label,
      type: c.type,
      start: this.convertDebuggerColumnToClient(c.start),
      length: c.length,
    }));
    response.body = { targets };
    this.sendResponse(response);
  }

  protected override async evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): Promise<void> {
    const session = this.session;
    if (!session) {
      this.fail(response, "no episode is being debugged");
      return;
    }
    if (!(await this.evaluationReady(response, args.expression))) return;
    const result: ConsoleResult =
      args.context === "repl" ? runConsoleLine(session, args.expression) : evaluateExpression(session, args.expression);
    if ("error" in result) {
      this.fail(response, result.error);
      return;
    }
    const value = result.value;
    const node = value !== undefined && value !== null && typeof value === "object" ? jsonNode("", plain(value), args.expression) : null;
    response.body = { result: result.text, variablesReference: node?.children ? this.handle(node.children) : 0 };
    this.sendResponse(response);
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse): void {
    const stop = this.stepping.lastStop;
    response.body = {
      exceptionId: stop?.description ?? "none",
      description: stop?.text ?? stop?.description ?? "",
      breakMode: "always",
    };
    this.sendResponse(response);
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    response.body = { allThreadsContinued: true };
    this.stepping.moveAfter(response, "continue");
  }

  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    this.stepping.moveAfter(response, "next");
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    this.stepping.moveAfter(response, "stepIn");
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.stepping.moveAfter(response, "stepOut");
  }

  protected override stepBackRequest(response: DebugProtocol.StepBackResponse): void {
    this.stepping.moveAfter(response, "stepBack");
  }

  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    this.stepping.moveAfter(response, "reverseContinue");
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    this.session?.pause();
    this.sendResponse(response);
  }

  protected override async terminateRequest(response: DebugProtocol.TerminateResponse): Promise<void> {
    await this.closeSession();
    this.sendResponse(response);
    this.sendTerminated();
  }

  protected override async disconnectRequest(response: DebugProtocol.DisconnectResponse): Promise<void> {
    // A live episode is cancelled, scored and its trajectory closed: nothing written is lost.
    this.ending = true;
    await this.closeSession();
    this.sendTerminated();
    this.sendResponse(response);
    this.announceEnd({ kind: "disconnected" });
  }

  /** `exited` (the episode's outcome as an exit code: 0 when it reached an end of its own) and `terminated`, once per session. */
  private sendTerminated(): void {
    if (this.terminatedSent) return;
    this.terminatedSent = true;
    const timeline = this.session?.timeline;
    if (timeline) {
      const failed = timeline.end === null || (timeline instanceof LiveTimeline && timeline.failure !== null);
      this.sendEvent(new ExitedEvent(failed ? 1 : 0));
    }
    this.sendEvent(new TerminatedEvent());
  }

  /**
   * An expression that reads `milestones` waits for the evaluation at the current message off the
   * event loop, as the Milestones scope does. False: the session moved on first (`response` is failed).
   */
  private async evaluationReady(response: DebugProtocol.Response, expression: string): Promise<boolean> {
    const session = this.session;
    if (!session || !/\bmilestones\b/.test(expression)) return true;
    try {
      await session.prepareEvaluation(session.messageIndex, this.leftStop.promise);
      return true;
    } catch (e) {
      if (!(e instanceof ScoringCancelled)) throw e;
      this.fail(response, "the session has moved on from this stop");
      return false;
    }
  }

  /** The episode closed (a live one cancelled and scored) and the scoring thread let go. */
  private async closeSession(): Promise<void> {
    await this.session?.timeline.close();
    await this.session?.close();
  }

  /** A long scoring shown as DAP progress when the client takes it, else as a console line. */
  private scoringProgress(): ScoringProgress {
    let id = 0;
    return {
      start: (title, message) => {
        id++;
        if (this.progressEvents) this.sendEvent(new ProgressStartEvent(`scoring-${id}`, title, message));
        else this.print(`${title}: ${message}…`);
      },
      update: (message, percent) => {
        if (!this.progressEvents) return;
        const event = new ProgressUpdateEvent(`scoring-${id}`, message) as DebugProtocol.ProgressUpdateEvent;
        event.body.percentage = percent;
        this.sendEvent(event);
      },
      end: () => {
        if (this.progressEvents) this.sendEvent(new ProgressEndEvent(`scoring-${id}`));
      },
    };
  }

  private print(text: string, category: "console" | "stderr" = "console"): void {
    this.sendEvent(new OutputEvent(`${text}\n`, category));
  }

  private source(file: string): Source {
    return new Source(basename(file), this.convertDebuggerPathToClient(file));
  }

  /** An error response whose message is shown as it is (the library's formatter would read {braces} in it). */
  private fail(response: DebugProtocol.Response, message: string): void {
    response.success = false;
    response.message = message;
    response.body = { error: { id: 1, format: message.replace(/[{}]/g, ""), showUser: true } };
    this.sendResponse(response);
  }
}

/** An expandable value handed out; `evaluationAt`: it shows the evaluation of the messages up to that index. */
interface Handle {
  readonly children: () => readonly VarNode[];
  readonly evaluationAt?: number;
}

function settleOnce(): { readonly promise: Promise<void>; settle(): void } {
  let settle!: () => void;
  const promise = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

function unboundBreakpoint(line: number, message: string): Breakpoint {
  return { id: 0, verified: false, message, line, target: null, condition: null, hit: null, hits: new Map() };
}

/** The scenario checked as `run` checks it: the first error stops the launch, with file:line:col. */
function checkedScenario(file: string): Scenario {
  if (!existsSync(file)) throw new LaunchError(`${file}: no such file`);
  const checked = loadScenarioFile(file);
  const error = checked.diagnostics.find((d) => d.severity === "error");
  if (error) throw new LaunchError(`The scenario has errors; fix them first: ${formatDiagnostic(error)}`);
  if (!checked.scenario) throw new LaunchError(`${file}: the scenario could not be read`);
  return checked.scenario;
}

class LaunchError extends Error {}

function launchProblem(e: unknown, program: string): string {
  if (e instanceof LaunchError) return e.message;
  if (e instanceof TrajectoryError) return e.message;
  const code = typeof e === "object" && e !== null && "code" in e ? String((e as { code: unknown }).code) : "";
  if (code === "ENOENT") return `${program}: no such file`;
  return `Cannot start the debug session: ${errorMessage(e)}`;
}

function sourceMapFor(file: string, fallback: Scenario, text?: string): ScenarioSourceMap | null {
  let source: string;
  try {
    source = text ?? readFileSync(file, "utf8");
  } catch {
    return null;
  }
  // A replay binds lines with the file as it is now when it checks; else with the run's own scenario.
  const checked = text === undefined ? loadScenarioFile(file) : null;
  const scenario = checked?.scenario && !checked.diagnostics.some((d) => d.severity === "error") ? checked.scenario : fallback;
  return new ScenarioSourceMap(file, source, scenario);
}

/** `<name>.scenario.yaml` beside the trajectory, or up to two folders above it (runs live in .toolsandbox/runs). */
function findScenarioFile(trajectory: string, name: string): string | null {
  let dir = dirname(trajectory);
  for (let i = 0; i < 4; i++) {
    for (const ext of [".scenario.yaml", ".scenario.yml"]) {
      const candidate = join(dir, `${name}${ext}`);
      if (existsSync(candidate)) return candidate;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

function samePath(a: string, b: string): boolean {
  return process.platform === "win32" || process.platform === "darwin" ? a.toLowerCase() === b.toLowerCase() : a === b;
}

function summary(content: string): string {
  const line = content.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

/** An expression's value as plain JSON for the Variables tree. */
function plain(value: ExprValue): unknown {
  if (value instanceof ColumnValues) return value.values.map(plain);
  return value;
}
