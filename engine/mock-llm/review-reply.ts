// mock-llm's answer to a failure-review request (engine/runner/failure-review.ts, `run --review`):
// recognised by the instructions' first line in the system message, answered with a verdict worked
// out from the request alone, so the same request always gets the same bytes. The mock cannot
// read a conversation's intent; it blames what the request states: an errored end the
// infrastructure, a hit minefield or a missed milestone the agent.
import { ERRORED_END_REASONS } from "../evaluation/outcome.js";
import { readReviewRequest, REVIEW_MARKER } from "../runner/failure-review.js";
import { invalidRequest } from "./http-error.js";
import type { ScriptedReply } from "./reply.js";
import type { ChatRequest } from "./wire.js";

/** Whether the request is the reviewer's: its system message opens with our instructions' marker. */
export const isReviewRequest = (request: ChatRequest): boolean =>
  request.messages.some((m) => m.role === "system" && m.content.startsWith(REVIEW_MARKER));

/** The verdict as the reviewer's JSON text. A review request whose user message is not ours is a 400. */
export function reviewReply(request: ChatRequest): ScriptedReply {
  const user = request.messages.find((m) => m.role === "user");
  const read = user ? readReviewRequest(user.content) : null;
  if (read === null)
    throw invalidRequest("A failure-review request needs the run (its End: line and conversation) as its user message.", "messages");
  const { endReason, missed, minefields } = read;
  const errored = endReason.startsWith("none") || ERRORED_END_REASONS.has(endReason);
  const verdict = errored
    ? { party: "infrastructure", reason: `The run ended in ${endReason}, so the conversation could not go on.` }
    : minefields.length > 0
      ? { party: "agent", reason: `The agent hit minefield ${minefields[0]}.` }
      : missed.length > 0
        ? { party: "agent", reason: `The agent did not reach milestone ${missed[0]}.` }
        : { party: "agent", reason: "The agent's result fell short of the milestones." };
  return { content: JSON.stringify(verdict), toolCalls: [], step: null };
}
