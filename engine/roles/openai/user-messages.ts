// The user simulator's view of the bus as chat-completions messages (reference 1.6, upstream
// OpenAIAPIUser): the roles are reversed, because the model plays the user. Every SYSTEM->USER
// message is a system message (one per demonstration, then the scenario's own), AGENT->USER is a
// user message, USER->AGENT an assistant message, and the user's own end_conversation traffic
// with the execution environment is left out, demonstrations' included.
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { Message } from "../../episode/types.js";
import type { WorldPack } from "../../packs/types.js";
import { openAiToolSchema } from "../../tools/openai-schema.js";
import { RoleError } from "../../episode/role.js";

export const END_CONVERSATION = "end_conversation";

export function toUserSimulatorMessages(messages: readonly Message[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  for (const m of messages) {
    const route = `${m.sender}->${m.recipient}`;
    switch (route) {
      case "system->user":
        out.push({ role: "system", content: m.content });
        break;
      case "agent->user":
        out.push({ role: "user", content: m.content });
        break;
      case "user->agent":
        out.push({ role: "assistant", content: m.content });
        break;
      case "user->execution_environment":
      case "execution_environment->user":
        break;
      default:
        throw new RoleError(`message ${m.sandbox_message_index} (${route}) cannot be shown to the user simulator`);
    }
  }
  return out;
}

/**
 * The simulator may end the conversation only in answer to the agent: end_conversation is its one
 * tool (as the scenario's pack defines it), offered when the last message it sees comes from the
 * agent, and never name-scrambled.
 */
export function userSimulatorTools(
  messages: readonly Message[],
  pack: WorldPack,
  docstrings?: Readonly<Record<string, string>>,
): ChatCompletionTool[] {
  if (messages[messages.length - 1]?.sender !== "agent") return [];
  const tool = pack.toolByName(END_CONVERSATION);
  if (!tool) throw new Error(`the ${pack.id} pack has no end_conversation tool`);
  const docstring = docstrings?.[tool.name];
  return [openAiToolSchema(docstring === undefined ? tool : { ...tool, docstring })];
}
