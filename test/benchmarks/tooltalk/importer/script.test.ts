import { test } from "node:test";
import assert from "node:assert/strict";
import { requiresAuth } from "../../../../engine/packs/tooltalk/tools/apis.js";
import { ImportProblem } from "../../../../engine/benchmarks/tooltalk/importer/problem.js";
import { conversationScript } from "../../../../engine/benchmarks/tooltalk/importer/script.js";
import { TOKEN, assistant, conversation, user } from "./fixtures.js";

const needsLogin = (tool: string): boolean => requiresAuth(tool) ?? false;

test("a conversation becomes the opening, then one step per call and the reply, turn by turn", () => {
  const script = conversationScript(
    conversation([
      user("Wake me at 6."),
      assistant("Done.", [["AddAlarm", { session_token: TOKEN, time: "06:00:00" }, { alarm_id: "5bff-dd80" }]]),
      user("And at 7?"),
      assistant("Also done.", [
        ["AddAlarm", { session_token: TOKEN, time: "07:00:00" }, { alarm_id: "dd80-5bff" }],
        ["FindAlarms", { session_token: TOKEN }, { alarms: [] }],
      ]),
    ]),
    needsLogin,
  );
  assert.equal(script.opening, "Wake me at 6.");
  assert.deepEqual(
    script.steps.map((s) => (s.kind === "call" ? `call ${s.call.tool} turn ${s.call.turn}` : `${s.kind} ${s.text}`)),
    ["call AddAlarm turn 0", "agent Done.", "user And at 7?", "call AddAlarm turn 1", "call FindAlarms turn 1", "agent Also done."],
  );
  // The executor injects the token; the agent never gives it.
  assert.deepEqual(script.calls[0]?.arguments, { time: "06:00:00" });
  assert.deepEqual(script.calls[0]?.recorded.request.parameters, { session_token: TOKEN, time: "06:00:00" });
  assert.equal(script.calls[2]?.path, "$.conversation[3].apis[1]");
  assert.deepEqual([script.assistantTurns, script.userMessages], [2, 2]);
  assert.deepEqual(script.userMessageBeforeTurn, [0, 1]);
});

test("a tool that needs no login keeps every argument it was given", () => {
  const script = conversationScript(
    conversation([
      user("Log me in."),
      assistant("Done.", [["UserLogin", { username: "mira_okafor", password: "tidepool-88" }, { session_token: "x" }]]),
    ]),
    needsLogin,
  );
  assert.deepEqual(script.calls[0]?.arguments, { username: "mira_okafor", password: "tidepool-88" });
});

test("user turns in a row are one user message, joined by a blank line", () => {
  const script = conversationScript(
    conversation([user("A note."), user("Hello?"), assistant("Hi."), user("One"), user("Two"), assistant("Ok.")]),
    needsLogin,
  );
  assert.equal(script.opening, "A note.\n\nHello?");
  assert.deepEqual(script.userTexts, ["A note.\n\nHello?", "One\n\nTwo"]);
  assert.deepEqual(
    script.steps.map((s) => (s.kind === "call" ? s.call.tool : s.text)),
    ["Hi.", "One\n\nTwo", "Ok."],
  );
});

test("two assistant turns in a row, or an assistant opening, cannot be a scenario: the problem names the turn", () => {
  assert.throws(
    () => conversationScript(conversation([user("Hi"), assistant("One."), assistant("Two.")]), needsLogin),
    (e: unknown) =>
      e instanceof ImportProblem &&
      e.message === "test.json: $.conversation[2]: two assistant turns in a row; a scenario needs a user message between replies",
  );
  assert.throws(
    () => conversationScript(conversation([assistant("Hello."), user("Hi")]), needsLogin),
    (e: unknown) => e instanceof ImportProblem && e.path === "$.conversation[0]",
  );
});
