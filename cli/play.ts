// `toolsandbox play <scenario> --as agent|user`: a person plays one side of an episode in the
// terminal, and the run is written and scored as `run`'s are (the one runner, playJob, with the
// person's role from engine/roles/human.ts). This file is the terminal: the lines read (typed with
// completion, or piped), and what is shown as the episode goes, from the runner's hooks: the other
// side's messages, each call's result and the rows it changed, and a line per milestone as it
// matches. At the end: the score, the milestones still missing, and the trajectory's path.
import { basename } from "node:path";
import { createInterface, type Interface } from "node:readline";
import type { Command } from "commander";
import { formatDiagnostic } from "../engine/base/diagnostics.js";
import { plural } from "../engine/base/text.js";
import { changeLines } from "../engine/compare/world-diff.js";
import type { EvaluationResult } from "../engine/evaluation/evaluate.js";
import { formatScore } from "../engine/evaluation/highlights.js";
import { callableTools } from "../engine/episode/tool-calls.js";
import type { Message } from "../engine/episode/types.js";
import { packTables } from "../engine/packs/tables.js";
import { createHumanAgent, createHumanUser, QUIT_COMMAND, type LineSource } from "../engine/roles/human.js";
import { ExitError, EXIT, fsError, type ExitCode } from "../engine/runner/errors.js";
import { planJobs } from "../engine/runner/jobs.js";
import { playJob } from "../engine/runner/play.js";
import { roleSpecs, type HumanSide, type ModelRoleFlags } from "../engine/runner/role-specs.js";
import { hasErrors, loadScenario } from "../engine/runner/scenario-files.js";
import { resultStatus } from "../engine/runner/summary.js";
import type { Scenario } from "../engine/scenario/model.js";
import { completeCallLine, type CompletableTool } from "../engine/tools/call-completion.js";
import { callLineText } from "../engine/tools/call-line.js";
import type { ToolParameter } from "../engine/tools/types.js";
import { applyChanges } from "../engine/world/changes.js";
import type { RowChange, Tables } from "../engine/world/types.js";
import type { TrajectoryEvent } from "../engine/trajectory/events.js";
import { claimRunFile } from "../engine/trajectory/run-files.js";
import { problemLine, type CliIO } from "./io.js";
import { abortOnStopSignal } from "./stop-signals.js";
import { addOptions } from "./option-table.js";
import { MODEL_ROLE_OPTIONS } from "./role-options.js";
import { PLAY_OPTIONS, type PlayFlags } from "./run-options.js";

const TOOLS_COMMAND = "/tools";
const HELP_COMMAND = "/help";
const COMMANDS = [HELP_COMMAND, QUIT_COMMAND, TOOLS_COMMAND];

export function registerPlay(program: Command, io: CliIO, setExit: (code: ExitCode) => void): void {
  const play = program
    .command("play")
    .description("play one side of a scenario yourself, the agent or the user, in the terminal; the run is written and scored as run's")
    .argument("<scenario>", "the scenario file")
    .addHelpText("after", PLAY_HELP);
  addOptions(addOptions(play, PLAY_OPTIONS), MODEL_ROLE_OPTIONS);
  play.action(async (file: string, flags: PlayFlags & ModelRoleFlags) => setExit(await playCommand(file, flags, io)));
}

const PLAY_HELP = `
As the agent: a line name(arg=value, ...) calling one of the listed tools is a call (Python or JSON
literals; Tab completes tool names, argument names and values from the world); any other line is said
to the user and ends your turn. As the user: each line is said to the agent. /tools lists the tools,
/quit (or the end of the input) ends the episode. Lines are read from stdin when it is not a terminal,
so a session can be scripted. Exits 0 once the run is written and scored, 1 when it errored, 130 after
Ctrl-C (the episode is cancelled, still written and scored). See docs/play.md.`;

async function playCommand(file: string, flags: PlayFlags & ModelRoleFlags, io: CliIO): Promise<ExitCode> {
  const side = flags.as;
  if (side === "agent" && flags.agent !== undefined)
    throw new ExitError("--agent does not apply to --as agent: you play the agent", EXIT.usage);
  if (side === "user" && flags.user !== undefined) throw new ExitError("--user does not apply to --as user: you play the user", EXIT.usage);
  // The person's side is named "scripted" here only so the other side's options are checked as run checks them.
  const specs = roleSpecs(
    side === "user" ? (flags.agent ?? "scripted") : "scripted",
    side === "agent" ? (flags.user ?? "scripted") : "scripted",
    flags,
    process.env,
  );
  const loaded = loadScenario(file);
  for (const d of loaded.diagnostics) io.err(formatDiagnostic(d));
  if (hasErrors(loaded.diagnostics) || !loaded.scenario) return EXIT.failed;
  const scenario = loaded.scenario;

  let trajectoryPath: string;
  try {
    trajectoryPath = claimRunFile(flags.out, scenario.name);
  } catch (e) {
    throw fsError(e, flags.out);
  }
  const [planned] = planJobs([{ file, scenario }], 1, flags.seed);
  if (!planned) throw new Error("a scenario planned no job");
  const job = { ...planned, trajectory: basename(trajectoryPath) };

  const interactive = process.stdin.isTTY === true;
  const session = new PlaySession(scenario, side, io);
  const lines = new InputLines(interactive ? (line) => session.complete(line) : null);
  const interrupt = new AbortController();
  lines.onInterrupt(() => interrupt.abort());
  const read: LineSource = async (prompt, signal) => {
    for (;;) {
      session.flush();
      const line = await lines.next(prompt, signal);
      if (line !== null && !interactive) io.out(`${prompt}${line}`);
      if (line?.trim() === TOOLS_COMMAND) session.printTools();
      else if (line?.trim() === HELP_COMMAND) session.printHelp();
      else return line;
    }
  };
  const refuse = (problem: string): void => io.err(problemLine(problem));
  const human: HumanSide =
    side === "agent" ? { as: "agent", role: createHumanAgent({ read, refuse }) } : { as: "user", role: createHumanUser({ read, refuse }) };

  session.printIntro(side === "agent" ? specs.user : specs.agent);
  // Ctrl-C at the prompt reaches readline, elsewhere the process: either cancels the episode, which is still scored and written.
  const releaseStop = abortOnStopSignal(interrupt);
  try {
    const { result, engineError } = await playJob(job, {
      agent: specs.agent,
      user: specs.user,
      human,
      outDir: flags.out,
      signal: interrupt.signal,
      onEvent: (event) => session.onEvent(event),
      onProgress: (evaluation) => session.onProgress(evaluation),
      beforeTurn: () => session.flush(),
    });
    if (engineError !== null && io.debug) io.err(String(engineError instanceof Error ? engineError.stack : engineError));
    session.flush();
    const status = resultStatus(result);
    const detail = result.detail === null ? "" : ` (${result.detail})`;
    io.out(`end: ${result.end_reason ?? "an engine error"}${detail}, ${plural(result.message_count, "message")}`);
    io.out(status === "errored" ? "score: errored, not counted" : `score ${formatScore(result.score)}`);
    for (const line of session.missingLines()) io.out(line);
    io.out(`trajectory in ${trajectoryPath}`);
    if (interrupt.signal.aborted) return EXIT.interrupted;
    return status === "errored" ? EXIT.failed : EXIT.ok;
  } finally {
    releaseStop();
    lines.close();
  }
}

/** What the terminal shows of one episode, from the runner's events; the world as it stands, for completion. */
class PlaySession {
  private world: Tables;
  private pendingChanges: RowChange[] = [];
  /** The similarity last shown per milestone (and minefield), so a line is printed only when it rises. */
  private readonly shown = new Map<string, number>();
  private latest: EvaluationResult | null = null;
  private readonly tools: readonly CompletableTool[];

  constructor(
    private readonly scenario: Scenario,
    private readonly side: "agent" | "user",
    private readonly io: CliIO,
  ) {
    this.world = scenario.world.tables;
    this.tools = [...callableTools(scenario, "agent")].map(([name, tool]) => ({ name, parameters: tool.parameters }));
  }

  printIntro(other: { readonly kind: string }): void {
    const { scenario, io } = this;
    const otherName = this.side === "agent" ? "user" : "agent";
    io.out(
      `play ${scenario.name} as the ${this.side} (the ${otherName}: ${other.kind === "openai" ? "a model" : other.kind === "mcp" ? "an outside agent" : "scripted"})`,
    );
    if (scenario.description) io.out(scenario.description.trim());
    if (this.side === "user") {
      io.out(`your goal: ${scenario.user.goal}`);
      for (const k of scenario.user.knowledge) io.out(`you know: ${k.fact}`);
      io.out("Type what the user says; /quit ends the conversation.");
    } else {
      this.printTools();
      io.out("Type a call as name(arg=value, ...), or a message for the user; /quit ends the episode, /help says more.");
    }
  }

  printTools(): void {
    this.io.out(`tools you may call (${this.tools.length}):`);
    const byName = callableTools(this.scenario, "agent");
    for (const tool of this.tools) {
      const summary = byName.get(tool.name)?.docstring.split("\n")[0]?.trim() ?? "";
      this.io.out(`  ${tool.name}(${tool.parameters.map(parameterText).join(", ")})${summary ? `  ${summary}` : ""}`);
    }
  }

  printHelp(): void {
    for (const line of PLAY_HELP.trim().split("\n")) this.io.out(line);
  }

  complete(line: string): [string[], string] {
    const commands = line.trimStart().startsWith("/") ? COMMANDS : [];
    const { candidates, fragment } = completeCallLine(line, this.side === "agent" ? this.tools : [], this.world, commands);
    return [[...candidates], fragment];
  }

  onEvent(event: TrajectoryEvent): void {
    if (event.type === "world") {
      this.pendingChanges.push(...event.changes);
      try {
        this.world = applyChanges(this.world, event.changes);
      } catch {
        // Completion offers what it knew last; the run itself never depends on this copy.
      }
    } else if (event.type === "message") this.showMessage(event.message);
    else if (event.type === "evaluation") this.onProgress(event.result);
  }

  onProgress(evaluation: EvaluationResult): void {
    this.latest = evaluation;
  }

  /** Shows the rows the last calls changed, then the milestones matched since the last turn. */
  flush(): void {
    if (this.pendingChanges.length > 0) {
      const { schemas } = packTables(this.scenario.world.pack);
      for (const line of changeLines(this.pendingChanges, this.scenario.clock.timezone, schemas)) this.io.out(`  world: ${line}`);
      this.pendingChanges = [];
    }
    const evaluation = this.latest;
    if (evaluation === null) return;
    // A partial run may match a milestone loosely and later better (or elsewhere): a line each time its similarity rises.
    for (const m of evaluation.milestones) {
      if (m.matched_at === null || m.similarity <= (this.shown.get(m.id) ?? 0)) continue;
      this.shown.set(m.id, m.similarity);
      this.io.out(`  milestone ${m.id} matched at message ${m.matched_at} (similarity ${formatScore(m.similarity)})`);
    }
    for (const m of evaluation.minefields) {
      const key = `minefield:${m.id}`;
      if (m.matched_at === null || this.shown.has(key)) continue;
      this.shown.set(key, m.similarity);
      this.io.out(`  minefield ${m.id} hit at message ${m.matched_at}: the score is 0`);
    }
  }

  /** After the final evaluation: a line per milestone the run did not match. */
  missingLines(): string[] {
    const evaluation = this.latest;
    if (evaluation === null) return [];
    const described = new Map(this.scenario.milestones.map((m) => [m.id, m.description]));
    return evaluation.milestones
      .filter((m) => m.matched_at === null)
      .map((m) => {
        const description = described.get(m.id);
        return `milestone ${m.id} not matched (best similarity ${formatScore(m.similarity)})${description ? `: ${description}` : ""}`;
      });
  }

  private showMessage(m: Message): void {
    const { io, side } = this;
    // The system prompts and the user simulator's demonstrations are not part of the conversation played.
    if (m.sender === "system" || (m.scripted === true && !m.visible_to.includes("agent"))) return;
    if (m.sender === "user" && m.recipient === "agent") {
      if (side === "agent" || m.scripted === true) io.out(`user: ${m.content}`);
    } else if (m.sender === "user") io.out("(the user ended the conversation)");
    else if (m.sender === "agent" && m.recipient === "user") {
      if (side === "user") io.out(`agent: ${m.content}`);
    } else if (m.sender === "agent") {
      const call = m.tool_call;
      if (side === "user" && call) {
        io.out(
          `agent calls ${call.arguments ? callLineText(call.name, call.arguments) : `${call.name}(${call.raw_arguments ?? ""}) (not a JSON object)`}`,
        );
      }
    } else if (m.sender === "execution_environment" && m.recipient === "agent") {
      io.out(`  ${m.tool_call_exception === null ? "result" : "error"}: ${m.content}`);
    }
  }
}

function parameterText(p: ToolParameter): string {
  return `${p.name}${p.required ? "" : "?"}: ${p.type}`;
}

/**
 * The person's lines, typed at a terminal (with a prompt and completion) or read from a pipe; read
 * ahead into a queue, so piped lines wait for the turn that asks for them.
 */
class InputLines {
  private readonly rl: Interface;
  private readonly queue: string[] = [];
  private ended = false;
  private waiting: ((line: string | null) => void) | null = null;

  constructor(completer: ((line: string) => [string[], string]) | null) {
    this.rl =
      completer === null
        ? createInterface({ input: process.stdin, terminal: false })
        : createInterface({ input: process.stdin, output: process.stdout, terminal: true, completer });
    this.rl.on("line", (line) => this.deliver(line));
    this.rl.on("close", () => {
      this.ended = true;
      this.deliver(null);
    });
  }

  /** Ctrl-C at the prompt: readline catches it, so it is passed on here. */
  onInterrupt(listener: () => void): void {
    this.rl.on("SIGINT", listener);
  }

  next(prompt: string, signal?: AbortSignal): Promise<string | null> {
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.ended || signal?.aborted) return Promise.resolve(null);
    if (this.waiting === null && this.rl.terminal) {
      this.rl.setPrompt(prompt);
      this.rl.prompt();
    }
    return new Promise((resolve) => {
      this.waiting = resolve;
      signal?.addEventListener("abort", () => this.deliver(null), { once: true });
    });
  }

  close(): void {
    this.rl.close();
  }

  private deliver(line: string | null): void {
    const waiting = this.waiting;
    if (waiting === null) {
      if (line !== null) this.queue.push(line);
      return;
    }
    this.waiting = null;
    waiting(line);
  }
}
