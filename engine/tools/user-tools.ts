// The tool only the simulated user holds (upstream module `user_tools`). Calling it ends the
// episode. Upstream's tool flips the conversation_active flag on the message bus itself and raises
// "ValueError: Conversation already ended" when it was already off; here the orchestrator owns
// that flag (it decides when an episode is over), so it raises that error and records the end,
// and the tool itself only returns None.
import { googleDocstring } from "./docstring.js";
import type { ToolDefinition } from "./types.js";

const CONVERSATION_ALREADY_ENDED = "Conversation already ended";

const endConversation: ToolDefinition = {
  name: "end_conversation",
  module: "user_tools",
  domain: "Conversation",
  docstring: googleDocstring(
    [
      "End the conversation.",
      "Call this once the agent has done what you asked for, or once it is clear that it cannot.\nEither way, nothing more is said after it.",
    ],
    [],
    "None.",
  ),
  parameters: [],
  returns: { description: "None.", schema: { type: "null" } },
  // Ending the conversation changes the episode's state, though no world table.
  action: true,
  stateDependencies: [],
  errors: [`ValueError: ${CONVERSATION_ALREADY_ENDED}`],
  visibleTo: ["user"],
  webBacked: false,
  typechecked: false,
  run: () => null,
};

export const USER_TOOLS: readonly ToolDefinition[] = [endConversation];
