// ToolSandbox's scenario categories for an imported conversation, where ToolTalk's data says
// something about them:
//
// - SINGLE_TOOL_CALL / MULTIPLE_TOOL_CALL: one ground-truth call, or more;
// - SINGLE_USER_TURN / MULTIPLE_USER_TURN: one user message, or more (the user turns that end a
//   file are not counted: nobody answers them);
// - STATE_DEPENDENCY: a call only works in a state an earlier call created: a tool that needs a
//   login after the login (or registration) the conversation makes, or a password reset after
//   the verification code is sent. A user who starts logged in has no such dependency.
//
// The others (canonicalization, disambiguation, ...) describe the wording of requests; ToolTalk
// does not annotate it, so they are not guessed.
import { CATEGORIES, type Category } from "../../../scenario/model.js";
import { opensSession } from "./dependencies.js";
import type { ConversationScript } from "./script.js";

export function categoriesFor(
  script: ConversationScript,
  succeeded: ReadonlySet<number>,
  needsLogin: (tool: string) => boolean,
): Category[] {
  const found = new Set<Category>();
  if (script.calls.length === 1) found.add("SINGLE_TOOL_CALL");
  if (script.calls.length > 1) found.add("MULTIPLE_TOOL_CALL");
  found.add(script.userMessages > 1 ? "MULTIPLE_USER_TURN" : "SINGLE_USER_TURN");
  let loggedIn = false;
  let codeSent = false;
  for (const call of script.calls) {
    if ((loggedIn && needsLogin(call.tool)) || (codeSent && call.tool === "ResetPassword")) found.add("STATE_DEPENDENCY");
    if (!succeeded.has(call.order)) continue;
    if (opensSession(call.tool)) loggedIn = true;
    if (call.tool === "SendVerificationCode") codeSent = true;
  }
  return CATEGORIES.filter((c) => found.has(c));
}
