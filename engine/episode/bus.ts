// The message bus (upstream SANDBOX table): an append-only list whose position is the message
// index. It fills the columns a sender leaves out the way upstream does and decides who sees what.
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

export function isVisibleTo(message: Message, role: RoleName): boolean {
  return message.visible_to.includes(role);
}

export class MessageBus {
  private readonly list: Message[] = [];

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
    this.onAppend(message);
    return message;
  }

  /** The messages a role may see, oldest first. */
  visibleTo(role: RoleName): Message[] {
    return this.list.filter((m) => isVisibleTo(m, role));
  }

  /** The trailing run of messages addressed to `role` (parallel calls arrive as several). */
  trailingTo(role: RoleName): Message[] {
    let start = this.list.length;
    while (start > 0 && this.list[start - 1]!.recipient === role) start--;
    return this.list.slice(start);
  }
}
