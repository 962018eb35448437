// The message bus (upstream SANDBOX table): an append-only list whose position is the message
// index. It fills the columns a sender leaves out the way upstream does and decides who sees what.
// Visibility is indexed: each role's list of visible messages grows as messages arrive, so a
// turn's "what may this role see" no longer tests every message of the history against the
// role (that filter was 16% of a 10,000-message episode's time); it copies the role's list.
import type { Message, RoleName, ToolCall, ToolTrace } from "./types.js";

/** What a sender writes; the bus fills in the index and the carried-forward columns. */
export interface MessageDraft {
  readonly sender: RoleName;
  readonly recipient: RoleName;
  readonly content: string;
  /** Default [sender, recipient]. */
  readonly visible_to?: readonly RoleName[];
  /** Default: carried forward from the previous message (true for the first). */
  readonly conversation_active?: boolean;
  readonly openai_tool_call_id?: string | null;
  readonly openai_function_name?: string | null;
  readonly tool_call_exception?: string | null;
  readonly tool_trace?: readonly ToolTrace[] | null;
  readonly tool_call?: ToolCall;
  readonly scripted?: boolean;
}

export class MessageBus {
  private readonly list: Message[] = [];
  /** Per role, the messages it may see, oldest first, appended with the list. */
  private readonly visible = new Map<RoleName, Message[]>();

  constructor(private readonly onAppend: (message: Message) => void) {}

  get messages(): readonly Message[] {
    return this.list;
  }

  get length(): number {
    return this.list.length;
  }

  last(): Message | undefined {
    return this.list[this.list.length - 1];
  }

  /** Appends a message, tells the listener, and returns it. Keys are always in the same order. */
  append(draft: MessageDraft): Message {
    const previous = this.last();
    // Frozen: every consumer (roles, the trajectory writer, the panel) shares these objects.
    const message: Message = Object.freeze({
      sandbox_message_index: this.list.length,
      sender: draft.sender,
      recipient: draft.recipient,
      content: draft.content,
      visible_to: Object.freeze(draft.visible_to ? [...draft.visible_to] : [draft.sender, draft.recipient]),
      conversation_active: draft.conversation_active ?? previous?.conversation_active ?? true,
      openai_tool_call_id: draft.openai_tool_call_id ?? null,
      openai_function_name: draft.openai_function_name ?? null,
      tool_call_exception: draft.tool_call_exception ?? null,
      tool_trace: draft.tool_trace ?? null,
      ...(draft.tool_call ? { tool_call: draft.tool_call } : {}),
      ...(draft.scripted ? { scripted: true } : {}),
    });
    this.list.push(message);
    for (const role of new Set(message.visible_to)) this.visibleList(role).push(message);
    this.onAppend(message);
    return message;
  }

  /**
   * The messages a role may see, oldest first: a copy of the role's index (a role may keep what
   * it was shown), i.e. one block copy, with no look at the messages it may not see.
   */
  visibleTo(role: RoleName): Message[] {
    return this.visibleList(role).slice();
  }

  private visibleList(role: RoleName): Message[] {
    let list = this.visible.get(role);
    if (!list) this.visible.set(role, (list = []));
    return list;
  }

  /** The trailing run of messages addressed to `role` (parallel calls arrive as several). */
  trailingTo(role: RoleName): Message[] {
    let start = this.list.length;
    while (start > 0 && this.list[start - 1]!.recipient === role) start--;
    return this.list.slice(start);
  }
}
