// mock-llm's answer to a role-play judge request (engine/benchmarks/dialogtool/role-play): recognised by the rubric's
// first line in the system message, answered with a verdict computed from the request alone, so
// the same request always gets the same bytes. The mock cannot judge style, so only `identity`
// depends on the conversation: 5 when some reply of the agent names the persona, 2 when none does;
// every other criterion gets 5 with a reason saying the mock did not read it.
import type { JsonObject } from "../base/json.js";
import { readJudgeRequest, ROLE_PLAY_CRITERIA, RUBRIC_MARKER } from "../benchmarks/dialogtool/role-play/rubric.js";
import { invalidRequest } from "./http-error.js";
import type { ScriptedReply } from "./reply.js";
import type { ChatRequest } from "./wire.js";

/** Whether the request is the judge's: its system message opens with our rubric's marker. */
export const isJudgeRequest = (request: ChatRequest): boolean =>
  request.messages.some((m) => m.role === "system" && m.content.startsWith(RUBRIC_MARKER));

/** The verdict as the judge's JSON text. A judge request whose user message is not ours is a 400. */
export function judgeReply(request: ChatRequest): ScriptedReply {
  const user = request.messages.find((m) => m.role === "user");
  const read = user ? readJudgeRequest(user.content) : null;
  if (read === null)
    throw invalidRequest("A role-play judge request needs the persona and the conversation as its user message.", "messages");
  const name = read.personaName.toLowerCase();
  const named = read.replies.findIndex((r) => r.toLowerCase().includes(name));
  const verdict: JsonObject = {};
  for (const { id } of ROLE_PLAY_CRITERIA) {
    verdict[id] =
      id !== "identity"
        ? { score: 5, reason: "mock-llm does not rate this criterion; it gives full marks." }
        : named >= 0
          ? { score: 5, reason: `Reply ${named + 1} names the persona, ${read.personaName}.` }
          : { score: 2, reason: `None of the ${read.replies.length} replies names the persona, ${read.personaName}.` };
  }
  return { content: JSON.stringify(verdict), toolCalls: [], step: null };
}
