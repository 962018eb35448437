// Counts derived from the message bus that the run summary reports.
import type { Message } from "../episode/types.js";

/**
 * Upstream's effective turn count (reference 5.11): messages produced by the roles. Scripted rows
 * (the system prompt, the instruction, the opening user message, demonstrations), anything sent
 * by the system, and the user's own tool traffic (end_conversation and its reply) do not count.
 */
export function effectiveTurnCount(messages: readonly Message[]): number {
  let count = 0;
  for (const m of messages) if (countsAsTurn(m)) count += 1;
  return count;
}

/** Whether a message is one of upstream's turns (the rule above); views that number turns use it too. */
export function countsAsTurn(m: Message): boolean {
  return !m.scripted && m.sender !== "system" && !isUserToolTraffic(m);
}

function isUserToolTraffic(m: Message): boolean {
  return (
    (m.sender === "user" && m.recipient === "execution_environment") || (m.sender === "execution_environment" && m.recipient === "user")
  );
}
