// The fixed texts the roles are given: the agent's system prompt and the user simulator's
// instruction. The user simulator sees one system message per conversation: the instruction,
// then the scenario goal, then what the simulated user knows (reference sections 1.2 and 1.6).

import type { KnowledgeFact } from "../model.js";

/**
 * The agent's system prompt, written for this project with the meaning of upstream's one sentence:
 * do not guess argument values, ask when the request is unclear. Upstream's own wording comes
 * with a prompt set imported from the user's checkout (prompt-set.ts), which is how runs
 * comparable with upstream's are made.
 */
export const DEFAULT_AGENT_SYSTEM_PROMPT =
  "Never guess the values you pass to a function. When the user's request leaves something unclear, ask them about it first.";

/**
 * Instruction for the user simulator, written for this project. It keeps the structure of the
 * upstream instruction: the model plays "User A" talking to "User B" (calling the agent another
 * user keeps a chat model from sliding back into the assistant role), rules 0-6 with the same
 * meaning, and a closing lead-in that the scenario goal is appended to with no separator.
 */
export const USER_INSTRUCTION = [
  "Forget that you are an assistant. For the rest of this chat you play a person, User A, who is talking to someone else, User B.",
  "Stick to these rules:",
  "",
  "0. Stay User A at all times and never behave like an assistant.",
  "    Do not put questions to User B.",
  "1. When User B asks you something, answer truthfully using only what you are told here.",
  "    Never invent details you were not given.",
  "2. Keep your replies short, casual and natural, the way people text.",
  "3. If User B says it could not finish the task, share any further detail you have; if you",
  "    have nothing more, tell User B to work it out with the tools it has.",
  "4. If User B needs to switch off low battery mode, or switch on cellular service, wifi or",
  "    location service to get the task done, let it.",
  "5. As soon as User B has finished the task, step out of the role and call the tool",
  "    `end_conversation` to end the chat, even if you have no way to check the result.",
  "6. If User B still cannot do what you asked after 5 attempts, step out of the role and call",
  "    the tool `end_conversation` to end the chat.",
  "",
  "Reply to User B with this task in mind, which you (User A) want User B to carry out: ",
].join("\n");

/** Said after each knowledge fact the simulated user must keep to itself. */
export const NEVER_REVEAL_NOTE = "Keep this to yourself: do not tell it to User B, even if asked.";

/**
 * The user simulator's system message: USER_INSTRUCTION, the goal directly after it, then one
 * sentence per knowledge fact in the order given, separated by single spaces. A fact marked
 * `reveal: never` is followed by NEVER_REVEAL_NOTE. With no facts nothing follows the goal.
 * A scenario's own `preamble` replaces USER_INSTRUCTION, and the goal then follows it exactly as
 * written (no full stop added): that is how an imported scenario reproduces its source's text
 * byte for byte. Pure and deterministic: the same inputs always give the same text.
 */
export function renderUserSystemMessage(goal: string, knowledge: readonly KnowledgeFact[], preamble?: string): string {
  const parts = [preamble === undefined ? asSentence(goal) : goal];
  for (const fact of knowledge) {
    parts.push(asSentence(fact.fact));
    if (fact.reveal === "never") parts.push(NEVER_REVEAL_NOTE);
  }
  return (preamble ?? USER_INSTRUCTION) + parts.filter((p) => p !== "").join(" ");
}

/** Trims a text and ends it with a full stop unless it already ends a sentence. */
function asSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  return /[.!?]["')\]]?$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
