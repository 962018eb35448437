// The agent's view of the bus as chat-completions messages (reference 4.4, upstream
// OpenAIAPIAgent): SYSTEM->AGENT is a system message, USER->AGENT a user message, AGENT->USER an
// assistant message; a run of AGENT->EXECUTION_ENVIRONMENT requests is one assistant message with
// one tool call each (parallel calls), and every result is a tool message answering its call.
import type { ChatCompletionMessageFunctionToolCall, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { Message } from "../../episode/types.js";
import { RoleError } from "../../episode/role.js";
import { pythonJsonDumps } from "./python-json.js";

/** A tool result; upstream also sends the function's name, which OpenAI-compatible servers accept. */
interface ToolResultMessage {
  role: "tool";
  tool_call_id: string;
  name: string;
  content: string;
}

export function toAgentMessages(messages: readonly Message[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  /** The assistant message the current run of tool calls is collected into. */
  let calls: ChatCompletionMessageFunctionToolCall[] | null = null;
  for (const m of messages) {
    const route = `${m.sender}->${m.recipient}`;
    if (route === "agent->execution_environment") {
      if (calls === null) {
        calls = [];
        out.push({ role: "assistant", content: null, tool_calls: calls });
      }
      calls.push(historyToolCall(m));
      continue;
    }
    calls = null;
    switch (route) {
      case "system->agent":
        out.push({ role: "system", content: m.content });
        break;
      case "user->agent":
        out.push({ role: "user", content: m.content });
        break;
      case "agent->user":
        out.push({ role: "assistant", content: m.content });
        break;
      case "execution_environment->agent": {
        const result: ToolResultMessage = {
          role: "tool",
          tool_call_id: m.openai_tool_call_id ?? "",
          name: m.openai_function_name ?? "",
          content: m.content,
        };
        out.push(result);
        break;
      }
      default:
        throw new RoleError(`message ${m.sandbox_message_index} (${route}) cannot be shown to the agent`);
    }
  }
  return out;
}

/**
 * A call the agent made earlier, under the name it used (scrambled or not). Parsed arguments are
 * re-serialised the way upstream's json.dumps writes them; arguments that never parsed are shown
 * as the model wrote them.
 */
function historyToolCall(m: Message): ChatCompletionMessageFunctionToolCall {
  const call = m.tool_call;
  if (!call) throw new RoleError(`message ${m.sandbox_message_index} asks the execution environment for something that is not a tool call`);
  const args = call.arguments !== undefined ? pythonJsonDumps(call.arguments) : (call.raw_arguments ?? "{}");
  return { id: call.id, type: "function", function: { name: m.openai_function_name ?? call.name, arguments: args } };
}
