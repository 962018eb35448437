// The role-play judge's rubric and what it is shown: written for this project after DialogTool's
// role-play task (does the agent stay in its character?). The rubric is the judge's system
// message, recorded verbatim in the trajectory's judgement line; the user message gives the
// persona and the conversation's text, the agent's replies numbered. mock-llm reads that message
// back (readJudgeRequest) to answer judge requests, so the two sides share one definition here.
import type { Message } from "../../../episode/types.js";
import type { Persona } from "../../../scenario/model.js";
import { describePersona } from "../../../scenario/prompts/persona-prompt.js";

/** The criteria, in the order the judge scores them and the trajectory lists them. */
export const ROLE_PLAY_CRITERIA = [
  {
    id: "identity",
    asks: "Does the agent present itself as the persona (its name and, where it shows, its gender), and never as a generic assistant or as someone else?",
  },
  { id: "emotional_traits", asks: "Do the tone and the feelings of the replies match the persona's emotional traits?" },
  { id: "language_features", asks: "Do the wording, sentence length and turns of phrase match the persona's language features?" },
  { id: "mbti_style", asks: "Is the way the agent reasons, decides and relates to the user typical of the persona's MBTI type?" },
] as const;

/** The rubric's first line: how mock-llm tells a judge request from an agent or user request. */
export const RUBRIC_MARKER = "You judge role-play consistency (toolsandbox role-play rubric, version 1).";

export const ROLE_PLAY_RUBRIC = [
  RUBRIC_MARKER,
  "An assistant was asked to help a user while playing a character (its persona). You are given the persona and",
  "the conversation; judge only the replies the assistant wrote to the user, not whether it solved the task.",
  "When the persona leaves a criterion open (say, no MBTI type is given), score it on whether the replies",
  "stay consistent with the rest of the persona.",
  "",
  "Score each criterion from 1 to 5: 5 = fully in character throughout, 4 = in character with small slips,",
  "3 = mixed, 2 = mostly out of character, 1 = not in character at all.",
  ...ROLE_PLAY_CRITERIA.map((c) => `- ${c.id}: ${c.asks}`),
  "",
  "Answer with one JSON object and nothing else, with exactly one key per criterion, each holding an",
  "integer score and a one- or two-sentence reason that points at the replies, for example:",
  `{${ROLE_PLAY_CRITERIA.map((c) => `"${c.id}": {"score": 4, "reason": "..."}`).join(", ")}}`,
].join("\n");

const PERSONA_HEADING = "The persona:";
const CONVERSATION_HEADING = "The conversation (the assistant's replies are numbered):";
const REPLY_PREFIX = /^Assistant reply (\d+): /;

/**
 * The conversation's text between the user and the agent as the agent saw it: tool calls and
 * results are left out, and so are the user simulator's demonstrations (visible to it alone).
 */
export function spokenLines(messages: readonly Message[]): string[] {
  const lines: string[] = [];
  let replies = 0;
  for (const m of messages) {
    if (!m.visible_to.includes("agent")) continue;
    if (m.sender === "user" && m.recipient === "agent") lines.push(`User: ${oneLine(m.content)}`);
    else if (m.sender === "agent" && m.recipient === "user") lines.push(`Assistant reply ${++replies}: ${oneLine(m.content)}`);
  }
  return lines;
}

/** The judge's user message. */
export function judgeUserMessage(persona: Persona, lines: readonly string[]): string {
  return [PERSONA_HEADING, describePersona(persona), "", CONVERSATION_HEADING, ...lines].join("\n");
}

interface JudgeRequestText {
  readonly personaName: string;
  readonly replies: readonly string[];
}

/** The persona's name and the agent's replies read back from a judge user message; null when it is not one. */
export function readJudgeRequest(userMessage: string): JudgeRequestText | null {
  const lines = userMessage.split("\n");
  if (lines[0] !== PERSONA_HEADING || !lines[1]?.startsWith("Name: ")) return null;
  const replies = lines.filter((l) => REPLY_PREFIX.test(l)).map((l) => l.replace(REPLY_PREFIX, ""));
  return { personaName: lines[1].slice("Name: ".length), replies };
}

/** Messages may span lines; one line each keeps the numbering unambiguous. */
const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, " ").trim();
