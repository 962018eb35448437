// Small ToolTalk conversations for the importer's tests, read through the same reader as the data.
import type { JsonObject } from "../../../../engine/base/json.js";
import { parseConversation } from "../../../../engine/benchmarks/tooltalk/evaluation/conversation.js";
import type { ToolTalkConversation } from "../../../../engine/benchmarks/tooltalk/evaluation/types.js";

/** justinkool, logged in, at 2023-09-11 09:00:00 in San Francisco, unless `changes` say otherwise. */
export function conversation(turns: readonly JsonObject[], changes: JsonObject = {}): ToolTalkConversation {
  const file = {
    name: "Test-Conversation-0",
    conversation_id: "test",
    suites_used: ["Alarm"],
    apis_used: ["AddAlarm"],
    scenario: "The user wants an alarm.",
    user: {
      username: "justinkool",
      email: "justintime@fmail.com",
      phone: "123-456-7890",
      name: "Justin Kool",
      password: "justforkicks123",
      session_token: "98a5a87a-7714-b404",
    },
    metadata: { location: "San Francisco", timestamp: "2023-09-11 09:00:00", session_token: "98a5a87a-7714-b404", username: "justinkool" },
    conversation: turns.map((turn, index) => ({ index, ...turn })),
    ...changes,
  };
  return parseConversation(JSON.stringify(file), "test.json");
}

export const user = (text: string): JsonObject => ({ role: "user", text });

export function assistant(text: string, calls: readonly [string, JsonObject, JsonObject | null][] = []): JsonObject {
  return {
    role: "assistant",
    text,
    ...(calls.length > 0
      ? { apis: calls.map(([api_name, parameters, response]) => ({ request: { api_name, parameters }, response, exception: null })) }
      : {}),
  };
}
