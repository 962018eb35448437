// A ToolTalk conversation as the script a scenario's scripted roles play: the opening user
// message, then user texts, one step per ground-truth call (ToolTalk's predictor makes one call per
// step, so the calls of a turn run one after the other, never in parallel) and the assistant's
// reply. The reader (engine/benchmarks/tooltalk/evaluation/conversation.ts) has already put the turns in array order and
// set apart the user turns that end the file; what is left to shape here:
//
// - Two user turns in a row (AccountTools-Calendar-Weather-RegisterUser-0 opens with two) become one
//   user message, the texts joined by a blank line: a scenario's user speaks once per agent reply.
// - The session token is dropped from the calls' arguments of tools that need a login: the agent
//   never gives it, the tool runtime injects the current one (peers A.3).
import type { JsonObject } from "../../../base/json.js";
import type { ToolTalkCall, ToolTalkConversation } from "../evaluation/types.js";
import { ImportProblem } from "./problem.js";

export interface GroundTruthCall {
  /** Position among all ground-truth calls of the conversation, 0-based. */
  readonly order: number;
  /** Ordinal of the assistant turn that makes the call, 0-based. */
  readonly turn: number;
  readonly tool: string;
  /** The arguments as the agent gives them (no session token). */
  readonly arguments: JsonObject;
  /** The call as the file records it, outcome included. */
  readonly recorded: ToolTalkCall;
  /** JSON path of the call in the file, for messages. */
  readonly path: string;
}

export type ScriptStep =
  | { readonly kind: "user"; readonly text: string }
  | { readonly kind: "call"; readonly call: GroundTruthCall }
  | { readonly kind: "agent"; readonly text: string };

export interface ConversationScript {
  readonly opening: string;
  /** What follows the opening, in conversation order. */
  readonly steps: readonly ScriptStep[];
  readonly calls: readonly GroundTruthCall[];
  /** Assistant turns (each ends with a reply). */
  readonly assistantTurns: number;
  /** User messages, the opening included, after joining consecutive user turns. */
  readonly userMessages: number;
  /** Texts of the user messages, the opening first: what the user has said, for dependency checks. */
  readonly userTexts: readonly string[];
  /** Index in `userTexts` of the last user message before each assistant turn. */
  readonly userMessageBeforeTurn: readonly number[];
}

/** `needsLogin(tool)`: the tool gets the session token injected, so the agent never passes one. */
export function conversationScript(conversation: ToolTalkConversation, needsLogin: (tool: string) => boolean): ConversationScript {
  const first = conversation.turns[0];
  if (first?.role !== "user") {
    throw new ImportProblem(conversation.file, "$.conversation[0]", "the conversation must open with a user turn");
  }
  const userTexts: string[] = [];
  const steps: ScriptStep[] = [];
  const calls: GroundTruthCall[] = [];
  const userMessageBeforeTurn: number[] = [];
  let opening = "";
  let previous: "user" | "assistant" | null = null;
  let turn = 0;
  for (const current of conversation.turns) {
    if (current.text === "") {
      throw new ImportProblem(
        conversation.file,
        `$.conversation[${current.position}].text`,
        `an empty ${current.role} text cannot be a scenario's message`,
      );
    }
    if (current.role === "user") {
      if (previous === "user") {
        const joined = `${userTexts.pop() ?? ""}\n\n${current.text}`;
        userTexts.push(joined);
        if (steps.length === 0) opening = joined;
        else steps[steps.length - 1] = { kind: "user", text: joined };
      } else {
        userTexts.push(current.text);
        if (previous === null) opening = current.text;
        else steps.push({ kind: "user", text: current.text });
      }
      previous = "user";
      continue;
    }
    if (previous === "assistant") {
      throw new ImportProblem(
        conversation.file,
        `$.conversation[${current.position}]`,
        "two assistant turns in a row; a scenario needs a user message between replies",
      );
    }
    current.apis.forEach((recorded, i) => {
      const call: GroundTruthCall = {
        order: calls.length,
        turn,
        tool: recorded.request.api_name,
        arguments: agentArguments(recorded, needsLogin),
        recorded,
        path: `$.conversation[${current.position}].apis[${i}]`,
      };
      calls.push(call);
      steps.push({ kind: "call", call });
    });
    steps.push({ kind: "agent", text: current.text });
    userMessageBeforeTurn.push(userTexts.length - 1);
    previous = "assistant";
    turn++;
  }
  return { opening, steps, calls, assistantTurns: turn, userMessages: userTexts.length, userTexts, userMessageBeforeTurn };
}

function agentArguments(call: ToolTalkCall, needsLogin: (tool: string) => boolean): JsonObject {
  const { parameters, api_name } = call.request;
  if (!needsLogin(api_name) || !("session_token" in parameters)) return parameters;
  const { session_token: _injected, ...rest } = parameters;
  return rest;
}
