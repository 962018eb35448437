// The names of the two tools through which an MCP agent talks with the simulated user, and the
// prompt that carries the opening. A module of their own: mock-llm plays against these names, and
// importing them from server.ts would load the MCP SDK into every start of the CLI.
export const SEND_MESSAGE_TOOL = "send_message_to_user";
export const GET_USER_MESSAGE_TOOL = "get_user_message";
export const OPENING_PROMPT = "start_conversation";
