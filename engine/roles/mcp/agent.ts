// The agent played by a program outside the process, whose turns arrive as MCP requests (serve,
// `run --agent cmd:`). The episode asks for a turn as it asks any agent; this role answers with
// whatever the client has sent: one message for the user, or the tool calls that arrived together
// (a parallel batch). Each request waits here until the episode has its answer on the bus: the
// call's result, the user's reply, or the end of the episode.
//
// Batching: MCP has no notion of a turn, so calls that arrive within `batchWindowMs` of each other
// (counted from the last one) while no result is due form one turn, which the execution
// environment answers as parallel calls; a message for the user is always a turn of its own.
import type { AgentRequest, AgentRole, AgentTurn } from "../../episode/role.js";
import { RoleError } from "../../episode/role.js";
import type { EndReason, EpisodeEvent, Message, ModelCall, ToolCall } from "../../episode/types.js";
import type { JsonValue } from "../../base/json.js";

/** How long a batch of calls stays open after its latest call (milliseconds). */
export const DEFAULT_BATCH_WINDOW_MS = 10;

/** What a waiting MCP request is answered with. */
export type McpAnswer =
  /** The execution environment's answer to a call; `error` when it raised (tool_call_exception). */
  | { readonly kind: "result"; readonly text: string; readonly error: boolean }
  /** The simulated user's next message. */
  | { readonly kind: "reply"; readonly text: string }
  /**
   * The episode ended. `refused`: the request was not answered by the episode (it was made after
   * the end, or was still waiting at it); false only for the message the user ended the
   * conversation in reply to, a normal answer.
   */
  | { readonly kind: "ended"; readonly reason: EndReason; readonly text: string; readonly refused: boolean };

type Action =
  | { readonly kind: "call"; readonly call: ToolCall; readonly answer: (a: McpAnswer) => void }
  | { readonly kind: "message"; readonly text: string; readonly answer: (a: McpAnswer) => void };

interface McpAgentOptions {
  /** The run header's agent id, e.g. "mcp" or "cmd:node agent.mjs". */
  readonly id: string;
  readonly batchWindowMs?: number;
}

/** The text a request gets once the episode is over: the model reads it, so it says what to do. */
export function endedText(reason: EndReason, detail?: string): string {
  if (reason === "end_conversation") return "The user ended the conversation. The episode is over; make no more calls.";
  const why = detail ? ` (${detail})` : "";
  return `The episode has ended: ${reason}${why}. Make no more calls.`;
}

export class McpAgentRole implements AgentRole {
  readonly id: string;
  private readonly batchWindowMs: number;
  /** Requests not yet handed to the episode, in arrival order. */
  private readonly queue: Action[] = [];
  /** The episode's open request for a turn, if it is waiting. */
  private waiting: { readonly resolve: (turn: AgentTurn) => void; readonly reject: (error: unknown) => void } | null = null;
  private batchTimer: { readonly cancel: () => void } | null = null;
  /** Calls handed to the episode, by id, until their result is on the bus. */
  private readonly dueResults = new Map<string, (a: McpAnswer) => void>();
  /** Messages handed to the episode, oldest first, until the user answers. */
  private readonly dueReplies: ((a: McpAnswer) => void)[] = [];
  private readonly usedIds = new Set<string>();
  private callCount = 0;
  private stopped: RoleError | null = null;
  private endedWith: { readonly reason: EndReason; readonly detail?: string } | null = null;
  private latestUserMessage: string | null = null;
  private readonly endListeners: ((reason: EndReason) => void)[] = [];
  /** Where the episode takes the agent's telemetry: the latest turn request's hook. */
  private modelCallSink: ((call: ModelCall) => void) | null = null;
  private readonly unreported: ModelCall[] = [];

  constructor(options: McpAgentOptions) {
    this.id = options.id;
    this.batchWindowMs = options.batchWindowMs ?? DEFAULT_BATCH_WINDOW_MS;
  }

  /** The episode's end, once it has one. */
  get ended(): { readonly reason: EndReason; readonly detail?: string } | null {
    return this.endedWith;
  }

  /** The user's latest message to the agent (the opening until the user says more); null before the episode starts. */
  get userMessage(): string | null {
    return this.latestUserMessage;
  }

  /** Called once when the episode ends (at once when it already has). */
  onEnd(listener: (reason: EndReason) => void): void {
    if (this.endedWith) listener(this.endedWith.reason);
    else this.endListeners.push(listener);
  }

  /**
   * A tool call from the client. `id`: the id the client asked for (unique within the episode),
   * else one is made up (call_1, call_2, ...). `raw`: arguments that were not a JSON object, as JSON text.
   */
  call(name: string, args: Readonly<Record<string, JsonValue>> | undefined, id?: string, raw?: string): Promise<McpAnswer> {
    return new Promise((answer) => {
      if (this.refuse(answer)) return;
      const call: ToolCall = {
        id: this.callId(id),
        name,
        ...(args === undefined ? {} : { arguments: args }),
        ...(raw === undefined ? {} : { raw_arguments: raw }),
      };
      this.queue.push({ kind: "call", call, answer });
      this.offer();
    });
  }

  /** The agent's message to the user; answered with the user's reply or the end. */
  sendMessage(text: string): Promise<McpAnswer> {
    return new Promise((answer) => {
      if (this.refuse(answer)) return;
      this.queue.push({ kind: "message", text, answer });
      this.offer();
    });
  }

  /**
   * The agent cannot go on (it disconnected, or ran out of time): the episode's open request for a
   * turn fails with this reason, and so does any later one. Requests still queued are answered
   * with the end when the episode reports it.
   */
  stop(reason: "agent_disconnected" | "timed_out" | "role_error", detail: string): void {
    if (this.stopped || this.endedWith) return;
    this.stopped = new RoleError(detail, reason);
    this.clearTimer();
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(this.stopped);
  }

  /**
   * A request the agent's host made for it (an A2A message and its answer): recorded as the agent's
   * model call, at the index of the message it precedes, like a model-backed agent's.
   */
  reportModelCall(call: ModelCall): void {
    if (this.endedWith) return;
    if (this.modelCallSink) this.modelCallSink(call);
    else this.unreported.push(call);
  }

  respond(request: AgentRequest): Promise<AgentTurn> {
    this.modelCallSink = request.onModelCall ?? null;
    // Reported before the episode first asked for a turn: recorded now, before the agent's first message.
    for (const call of this.unreported.splice(0)) this.modelCallSink?.(call);
    if (this.stopped) return Promise.reject(this.stopped);
    if (this.waiting) return Promise.reject(new RoleError("the episode asked the MCP agent for two turns at once"));
    return new Promise<AgentTurn>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.offer();
    });
  }

  observe(event: EpisodeEvent): void {
    if (event.type === "message") this.onMessage(event.message);
    else if (event.type === "end") this.onEpisodeEnd(event.reason, event.detail);
  }

  private onMessage(m: Message): void {
    if (m.sender === "user" && m.recipient === "agent") {
      this.latestUserMessage = m.content;
      // The opening is scripted; only a reply answers a message the agent sent.
      if (!m.scripted) this.dueReplies.shift()?.({ kind: "reply", text: m.content });
      return;
    }
    if (m.sender === "execution_environment" && m.recipient === "agent" && m.openai_tool_call_id !== null) {
      const answer = this.dueResults.get(m.openai_tool_call_id);
      if (!answer) return;
      this.dueResults.delete(m.openai_tool_call_id);
      answer({ kind: "result", text: m.content, error: m.tool_call_exception !== null });
    }
  }

  private onEpisodeEnd(reason: EndReason, detail: string | undefined): void {
    this.endedWith = detail === undefined ? { reason } : { reason, detail };
    this.clearTimer();
    const refused: McpAnswer = { kind: "ended", reason, text: endedText(reason, detail), refused: true };
    for (const answer of this.dueResults.values()) answer(refused);
    this.dueResults.clear();
    // The message the user answered by ending the conversation has its answer; any other end refuses it.
    const replied: McpAnswer = { ...refused, refused: reason !== "end_conversation" };
    for (const answer of this.dueReplies.splice(0)) answer(replied);
    for (const action of this.queue.splice(0)) action.answer(refused);
    for (const listener of this.endListeners.splice(0)) listener(reason);
  }

  /** What every request made after the end is answered with (an error, whatever the end); null before the end. */
  get afterEnd(): McpAnswer | null {
    if (!this.endedWith) return null;
    return { kind: "ended", reason: this.endedWith.reason, text: endedText(this.endedWith.reason, this.endedWith.detail), refused: true };
  }

  /** Answers at once a request made after the end; true when it did. */
  private refuse(answer: (a: McpAnswer) => void): boolean {
    const refused = this.afterEnd;
    if (!refused) return false;
    answer(refused);
    return true;
  }

  private callId(requested: string | undefined): string {
    let id = requested;
    if (id === undefined || id === "" || this.usedIds.has(id)) {
      do id = `call_${++this.callCount}`;
      while (this.usedIds.has(id));
    }
    this.usedIds.add(id);
    return id;
  }

  /** Hands the episode its turn when it is waiting and something is queued. */
  private offer(): void {
    if (!this.waiting) return;
    const head = this.queue[0];
    if (!head) return;
    if (head.kind === "message") {
      this.queue.shift();
      this.dueReplies.push(head.answer);
      this.hand({ kind: "text", text: head.text });
      return;
    }
    // Calls: (re)start the window; the batch closes when no call has come for its length.
    this.clearTimer();
    // A window of 0 still takes what arrived in the same turn of the event loop (one stdio chunk).
    if (this.batchWindowMs === 0) {
      const immediate = setImmediate(() => this.closeBatch());
      this.batchTimer = { cancel: () => clearImmediate(immediate) };
    } else {
      const timeout = setTimeout(() => this.closeBatch(), this.batchWindowMs);
      this.batchTimer = { cancel: () => clearTimeout(timeout) };
    }
  }

  private closeBatch(): void {
    this.batchTimer = null;
    if (!this.waiting) return;
    const calls: ToolCall[] = [];
    while (this.queue[0]?.kind === "call") {
      const action = this.queue.shift() as Extract<Action, { kind: "call" }>;
      this.dueResults.set(action.call.id, action.answer);
      calls.push(action.call);
    }
    if (calls.length > 0) this.hand({ kind: "calls", calls });
  }

  private hand(turn: AgentTurn): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.resolve(turn);
  }

  private clearTimer(): void {
    this.batchTimer?.cancel();
    this.batchTimer = null;
  }
}
