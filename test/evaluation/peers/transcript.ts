// Hand-built message buses for the peer-metric tests: the agent's requests and the environment's
// answers, written the way an episode records them, without running any tool.
import type { JsonValue } from "../../../engine/base/json.js";
import type { Message, RoleName, ToolCall } from "../../../engine/episode/types.js";

type Args = Readonly<Record<string, JsonValue>>;

export class Transcript {
  private readonly list: Message[] = [];
  private active = true;

  get messages(): readonly Message[] {
    return this.list;
  }

  private push(sender: RoleName, recipient: RoleName, content: string, extra: Partial<Message> = {}): number {
    const index = this.list.length;
    this.list.push({
      sandbox_message_index: index,
      sender,
      recipient,
      content,
      visible_to: [sender, recipient],
      conversation_active: this.active,
      openai_tool_call_id: null,
      openai_function_name: null,
      tool_call_exception: null,
      tool_trace: null,
      ...extra,
    });
    return index;
  }

  user(text: string): this {
    this.push("user", "agent", text);
    return this;
  }

  agentSays(text: string): this {
    this.push("agent", "user", text);
    return this;
  }

  /** An agent request; `raw` gives unparsed argument text instead of an object. Returns its index. */
  request(id: string, name: string, args: Args | { raw: string } = {}): number {
    const call: ToolCall =
      "raw" in args && typeof args.raw === "string" ? { id, name, raw_arguments: args.raw } : { id, name, arguments: args as Args };
    return this.push("agent", "execution_environment", `${name}(...)`, {
      openai_tool_call_id: id,
      openai_function_name: name,
      tool_call: call,
    });
  }

  /** The environment's answer to call `id`: a result, or a failure with `exception` text. */
  answer(id: string, exception: string | null = null): this {
    this.push("execution_environment", "agent", exception ?? "None", { openai_tool_call_id: id, tool_call_exception: exception });
    return this;
  }

  /** A request answered at once; returns the request's index. */
  call(id: string, name: string, args: Args | { raw: string } = {}, exception: string | null = null): number {
    const index = this.request(id, name, args);
    this.answer(id, exception);
    return index;
  }

  /** An agent message to the environment with no structured call on it. */
  bareRequest(): number {
    return this.push("agent", "execution_environment", "print('hello')");
  }

  /** The user ends the conversation (request and answer both inactive). */
  end(): this {
    this.active = false;
    this.push("user", "execution_environment", "end_conversation()", { openai_function_name: "end_conversation" });
    this.push("execution_environment", "user", "None");
    return this;
  }

  /** Appends a message as-is (for scripted rows and other oddities). */
  raw(message: Omit<Message, "sandbox_message_index">): number {
    const index = this.list.length;
    this.list.push({ ...message, sandbox_message_index: index });
    return index;
  }
}
