// One run of a scenario (reference 4.2): the scripted start, then turns until the user ends the
// conversation, the message budget runs out, a role fails or the caller cancels. Every message,
// world change and the end go out as events, in order, exactly once.
import type { AgentRole, AgentRequest, AgentTurn, UserRequest, UserRole, UserTurn } from "./role.js";
import { RoleError } from "./role.js";
import { agentSystemMessage } from "../scenario/prompts/persona-prompt.js";
import { renderUserSystemMessage } from "../scenario/prompts/prompts.js";
import type { Scenario } from "../scenario/model.js";
import { packById } from "../packs/registry.js";
import type { PackRuntime } from "../packs/types.js";
import { WorldHistory } from "../world/world-history.js";
import { MessageBus, type MessageDraft } from "./bus.js";
import { ExecutionEnvironment, type ExecutionOutcome } from "./execution-environment.js";
import { DEFAULT_MAX_ORDERINGS } from "./parallel-orderings.js";
import { END_CONVERSATION_CODE } from "./python-code.js";
import { SeededRandom } from "./random.js";
import { callableTools, checkToolCall, cleanToolCall, requestContent, toolsFor } from "./tool-calls.js";
import { agentTurnProblem, userTurnProblem } from "./turn-checks.js";
import type { EndReason, EpisodeEvent, Message, ModelCall, ModelCallRole, RoleName, ToolCall } from "./types.js";

export interface EpisodeOptions {
  scenario: Scenario;
  agent: AgentRole;
  user: UserRole;
  seed: number;
  /** Called synchronously, in order, once per event. It must not throw. */
  onEvent?: (event: EpisodeEvent) => void;
  /** Aborting ends the episode with reason "cancelled", at once even while a role is answering. */
  signal?: AbortSignal;
  /** Cap on the orderings the parallel-call check runs (default 5040 = 7!). */
  maxOrderings?: number;
  /** Awaited by run() before each turn: a debugger pauses here. Aborting while paused cancels. */
  beforeTurn?: (speaker: RoleName, nextIndex: number) => Promise<void> | void;
}

export interface EpisodeEnd {
  readonly reason: EndReason;
  readonly detail?: string;
}

/** The call a user's end_conversation becomes (the user turn carries no id of its own). */
const END_CONVERSATION_CALL: ToolCall = { id: "end_conversation", name: "end_conversation", arguments: {} };

class Cancelled extends Error {}

/** Settles with `promise`, or rejects with Cancelled as soon as the signal aborts. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Cancelled());
    if (signal.aborted) {
      onAbort();
      // The role's late answer or failure is dropped, never left as an unhandled rejection.
      promise.catch(() => undefined);
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

export class Episode {
  readonly world: WorldHistory;
  /** Index of the scripted opening USER->AGENT message: the evaluation's initial world state. */
  readonly firstUserIndex: number;
  private readonly scenario: Scenario;
  private readonly bus: MessageBus;
  private readonly environment: ExecutionEnvironment;
  private random: SeededRandom;
  /** The pack's tool state for this episode, carried from one environment turn to the next like `random`. */
  private runtime: PackRuntime;
  private started = false;
  private end: EpisodeEnd | null = null;
  /** Serialises step() calls: a second call waits for the turn in progress. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: EpisodeOptions) {
    this.scenario = options.scenario;
    this.random = SeededRandom.fromSeed(options.seed);
    const pack = packById(this.scenario.world.pack);
    this.runtime = pack.createRuntime();
    this.world = new WorldHistory(pack.schemas, this.scenario.world.tables);
    this.environment = new ExecutionEnvironment(this.scenario, pack);
    this.bus = new MessageBus((message) => this.emit({ type: "message", message }));
    // System prompt, each demonstration (its own SYSTEM->USER plus its messages), the real SYSTEM->USER.
    const demonstrationRows = this.scenario.user.demonstrations.reduce((n, d) => n + 1 + d.messages.length, 0);
    this.firstUserIndex = 1 + demonstrationRows + 1;
  }

  get messages(): readonly Message[] {
    return this.bus.messages;
  }

  get ended(): EpisodeEnd | null {
    return this.end;
  }

  /** Writes the scripted messages. Calling it again does nothing. */
  start(): void {
    if (this.started) return;
    this.started = true;
    const { agent, user } = this.scenario;
    const scripted = (draft: MessageDraft): void => void this.bus.append({ ...draft, scripted: true });
    scripted({ sender: "system", recipient: "agent", content: agentSystemMessage(agent) });
    for (const demo of user.demonstrations) {
      const onlyUser = { visible_to: ["user"] as const };
      scripted({ sender: "system", recipient: "user", content: renderUserSystemMessage(demo.goal, [], user.preamble), ...onlyUser });
      for (const m of demo.messages) scripted({ sender: m.sender, recipient: m.recipient, content: m.content, ...onlyUser });
    }
    scripted({ sender: "system", recipient: "user", content: renderUserSystemMessage(user.goal, user.knowledge, user.preamble) });
    const opening = this.bus.append({ sender: "user", recipient: "agent", content: user.opening, scripted: true });
    if (opening.sandbox_message_index !== this.firstUserIndex) throw new Error("scripted start is out of step");
    this.endIfOverBudget();
  }

  /** The recipient of the last message; null before start() and once the episode has ended. */
  nextSpeaker(): RoleName | null {
    if (!this.started || this.end) return null;
    return this.bus.last()?.recipient ?? null;
  }

  /** Plays one turn of whoever is to speak. Calls made while a turn runs wait for it. */
  step(): Promise<void> {
    const turn = this.queue.then(() => this.playTurn());
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  async run(): Promise<void> {
    this.start();
    const { beforeTurn, signal } = this.options;
    while (!this.end) {
      const speaker = this.nextSpeaker();
      if (beforeTurn && speaker) {
        try {
          await unlessAborted(Promise.resolve(beforeTurn(speaker, this.bus.length)), signal);
        } catch (error) {
          if (!(error instanceof Cancelled)) throw error;
        }
      }
      await this.step();
    }
  }

  private async playTurn(): Promise<void> {
    this.start();
    if (this.end) return;
    if (this.options.signal?.aborted) return this.finish("cancelled");
    const speaker = this.nextSpeaker();
    switch (speaker) {
      case "agent":
        await this.agentTurn();
        break;
      case "user":
        await this.userTurn();
        break;
      case "execution_environment":
        this.environmentTurn();
        break;
      default:
        return this.finish("role_error", `no role answers messages addressed to ${speaker ?? "nobody"}`);
    }
    this.endIfOverBudget();
  }

  /** Asks a role; on failure or cancellation ends the episode and returns null. */
  private async ask<T>(respond: () => Promise<T>): Promise<{ readonly answer: T } | null> {
    const { signal } = this.options;
    try {
      return { answer: await unlessAborted(Promise.resolve().then(respond), signal) };
    } catch (error) {
      if (error instanceof Cancelled || signal?.aborted) this.finish("cancelled");
      else if (error instanceof RoleError) this.finish(error.reason, error.message);
      else this.finish("role_error", describe(error));
      return null;
    }
  }

  private async agentTurn(): Promise<void> {
    const tools = toolsFor(this.scenario, "agent");
    const request: AgentRequest = {
      messages: this.bus.visibleTo("agent"),
      tools,
      scenario: this.scenario,
      ...(this.options.signal ? { signal: this.options.signal } : {}),
      onModelCall: (call) => this.recordModelCall("agent", call),
    };
    const agent = this.options.agent;
    const asked = await this.ask<AgentTurn>(() => agent.respond(request));
    if (!asked) return;
    const turn = asked.answer;
    const problem = agentTurnProblem(turn);
    if (problem) return this.finish("role_error", `agent ${agent.id}: ${problem}`);
    if (turn.kind === "text") {
      this.bus.append({ sender: "agent", recipient: "user", content: turn.text });
      return;
    }
    const calls = turn.calls.map(cleanToolCall);
    // Calls name tools as the agent sees them (scrambled or not); the code runs the real tool.
    const callable = callableTools(this.scenario, "agent");
    for (const call of calls) {
      this.bus.append({
        sender: "agent",
        recipient: "execution_environment",
        content: requestContent(call, callable.get(call.name)?.name),
        openai_tool_call_id: call.id,
        openai_function_name: call.name,
        tool_call: call,
      });
    }
    if (this.scenario.options.invalid_tool_call === "end") {
      // Upstream raises in the agent role and the scenario scores 0; the requests stay on record.
      for (const call of calls) {
        const checked = checkToolCall(call, callable);
        if (!checked.ok) return this.finish("invalid_tool_call", checked.text);
      }
    }
  }

  private async userTurn(): Promise<void> {
    const request: UserRequest = {
      messages: this.bus.visibleTo("user"),
      scenario: this.scenario,
      ...(this.options.signal ? { signal: this.options.signal } : {}),
      onModelCall: (call) => this.recordModelCall("user", call),
    };
    const user = this.options.user;
    const asked = await this.ask<UserTurn>(() => user.respond(request));
    if (!asked) return;
    const turn = asked.answer;
    const problem = userTurnProblem(turn);
    if (problem) return this.finish("role_error", `user ${user.id}: ${problem}`);
    if (turn.kind === "text") {
      this.bus.append({ sender: "user", recipient: "agent", content: turn.text });
      return;
    }
    // Upstream end_conversation flips conversation_active on this row while it runs; the
    // environment's answer carries it on and the episode ends there.
    this.bus.append({
      sender: "user",
      recipient: "execution_environment",
      content: END_CONVERSATION_CODE,
      conversation_active: false,
      openai_function_name: END_CONVERSATION_CALL.name,
      tool_call: END_CONVERSATION_CALL,
    });
  }

  private environmentTurn(): void {
    const requests = this.bus.trailingTo("execution_environment");
    let outcome: ExecutionOutcome;
    try {
      const maxOrderings = this.options.maxOrderings ?? DEFAULT_MAX_ORDERINGS;
      outcome = this.environment.respond(
        requests,
        this.world.latest().tables,
        { random: this.random, runtime: this.runtime },
        maxOrderings,
      );
    } catch (error) {
      // A tool that throws something other than a ToolError is a bug in the engine, not the agent's doing.
      this.finish("role_error", `execution environment: ${describe(error)}`);
      return;
    }
    if (outcome.responses.length === 0) {
      this.finish("role_error", "execution environment: nothing to answer");
      return;
    }
    this.random = outcome.random;
    this.runtime = outcome.runtime;
    // Changes made while answering belong to the index of the first response (reference 2.2).
    const index = this.bus.length;
    const changes = outcome.world.changes();
    if (changes.length > 0) {
      this.world.commit(index, outcome.world.tables(), changes);
      this.emit({ type: "world", index, changes });
    }
    for (const response of outcome.responses) this.bus.append(response);
    if (outcome.endsConversation) this.finish("end_conversation");
  }

  /** Upstream's loop runs while the last index is below L + max_messages (L = last scripted index). */
  private endIfOverBudget(): void {
    if (this.end) return;
    if (this.bus.length - 1 >= this.firstUserIndex + this.scenario.max_messages) this.finish("max_messages");
  }

  private finish(reason: EndReason, detail?: string): void {
    if (this.end) return;
    this.end = detail === undefined ? { reason } : { reason, detail };
    this.emit({ type: "end", reason, ...(detail === undefined ? {} : { detail }), message_count: this.bus.length });
  }

  /** A call that settles after the episode ended (cancelled while it ran) is not part of the run. */
  private recordModelCall(role: ModelCallRole, call: ModelCall): void {
    if (this.end) return;
    this.emit({ type: "model_call", role, index: this.bus.length, call });
  }

  private emit(event: EpisodeEvent): void {
    this.options.onEvent?.(event);
    this.options.agent.observe?.(event);
  }
}
