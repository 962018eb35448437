// What an imported scenario says about its people: the agent's system prompt (the surroundings
// ToolTalk's predictor is told) and the simulated user's goal and knowledge. The user's starting
// state in the world (logged in or not, a verification code already sent) is in world-rows.ts.
import type { ToolTalkConversation, ToolTalkUser } from "../evaluation/types.js";
import type { ConversationScript } from "./script.js";

export interface KnowledgeFact {
  readonly fact: string;
  readonly value: string;
}

/** The user the conversation starts logged in as, or null. ToolTalk logs in whoever has a session token. */
export function loggedInAtStart(user: ToolTalkUser): string | null {
  return user.session_token === undefined ? null : user.username;
}

/**
 * The agent's system prompt: ToolTalk's predictor tells the model where the user is, the time and,
 * once logged in, the username; the same facts with the same labels, introduced in our words.
 */
export function agentSystemPrompt(conversation: ToolTalkConversation): string {
  const username = loggedInAtStart(conversation.user);
  return [
    "You are a helpful assistant. You can manage the user's account, alarms, calendar, reminders, e-mail and text messages, and look up the weather, with the tools you are given.",
    "About the user:",
    `location: ${conversation.metadata.location}`,
    `timestamp: ${conversation.metadata.timestamp}`,
    ...(username === null ? [] : [`username (if logged in): ${username}`]),
  ].join("\n");
}

/** The easy conversations' scenario text is a placeholder naming the tool ("AddAlarm easy scenario"). */
const PLACEHOLDER_SCENARIO = /^\S+ easy scenario$/i;

/**
 * The user simulator's goal: ToolTalk's scenario text, which describes the task in the third
 * person. Three golden conversations have none and the easy ones only a placeholder; their goal is
 * made of what the user says, in order.
 */
export function userGoal(conversation: ToolTalkConversation, script: ConversationScript): string {
  const given = conversation.scenario?.trim() ?? "";
  if (given !== "" && !PLACEHOLDER_SCENARIO.test(given)) return given;
  const asks = script.userTexts.map((text, i) => `${i + 1}. ${text.trim()}`);
  return [`You are ${conversation.user.name}. You want the assistant's help with these requests, one after the other:`, ...asks].join("\n");
}

/** The account details the user knows and gives when asked (ToolTalk's `user` block). */
export function userKnowledge(user: ToolTalkUser): KnowledgeFact[] {
  const facts: KnowledgeFact[] = [
    { fact: `Your username is ${user.username}.`, value: user.username },
    { fact: `Your password is ${user.password}.`, value: user.password },
    { fact: `Your e-mail address is ${user.email}.`, value: user.email },
    { fact: `Your phone number is ${user.phone}.`, value: user.phone },
    { fact: `Your name is ${user.name}.`, value: user.name },
  ];
  if (user.verification_code !== undefined) {
    facts.push({
      fact: `The verification code you were sent for a password reset is ${user.verification_code}.`,
      value: user.verification_code,
    });
  }
  return facts;
}
